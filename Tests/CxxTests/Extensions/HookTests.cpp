// Database::onCommit, onRollback and onChange: when each is called (commit
// of a transaction and of a write outside one, rollback, each changed row),
// replacing and removing (the old callback released), closing with hooks
// installed (released, never called after), throwing callbacks.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "ReleaseProbe.hpp"
#include "TestSupport.hpp"

using sqlitebridge::ChangeKind;
using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

using Change = std::tuple<ChangeKind, std::string, std::int64_t>;

class Hooks : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT UNIQUE)")) << db_.error();
  }

  TempDir dir_;
  // Declared before db_: the probes of callbacks still installed count here
  // as db_ is destroyed.
  int released_[6] = {};
  Database db_ = Database::open(dir_ / "hooks.db");
};

}  // namespace

TEST_F(Hooks, CommitHookIsCalledOnCommitAndOnEachWriteOutsideATransaction) {
  int commits = 0;
  db_.onCommit([&commits] { ++commits; });
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('b')")) << db_.error();
  EXPECT_EQ(commits, 0);
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(commits, 1);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('c')")) << db_.error();
  EXPECT_EQ(commits, 2);
  ASSERT_TRUE(db_.inTransaction([](Database& db) { return db.execute("DELETE FROM notes WHERE title = 'a'"); }))
      << db_.error();
  EXPECT_EQ(commits, 3);
  // Reads, and a transaction that wrote nothing, commit nothing.
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM notes")) << db_.error();
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(commits, 3);
}

TEST_F(Hooks, RollbackHookIsCalledOnRollbackAndNotOnCommit) {
  int commits = 0;
  int rollbacks = 0;
  db_.onCommit([&commits] { ++commits; });
  db_.onRollback([&rollbacks] { ++rollbacks; });
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(rollbacks, 0);
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('b')")) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  EXPECT_EQ(rollbacks, 1);
  EXPECT_EQ(commits, 1);
  // A savepoint rolled back to is no transaction rolled back.
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.savepoint("inner")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('c')")) << db_.error();
  ASSERT_TRUE(db_.rollbackToSavepoint("inner")) << db_.error();
  EXPECT_EQ(rollbacks, 1);
  ASSERT_TRUE(db_.rollback()) << db_.error();
  EXPECT_EQ(rollbacks, 2);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 1);
}

TEST_F(Hooks, RollbackHookIsCalledWhenAFailedWriteOutsideATransactionRollsBack) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();
  int commits = 0;
  int rollbacks = 0;
  db_.onCommit([&commits] { ++commits; });
  db_.onRollback([&rollbacks] { ++rollbacks; });
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES ('a')"));
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Constraint));
  EXPECT_EQ(commits, 0);
  EXPECT_EQ(rollbacks, 1);
  EXPECT_FALSE(db_.inTransaction([](Database& db) {
    return db.execute("INSERT INTO notes(title) VALUES ('b')") && db.execute("INSERT INTO notes(title) VALUES ('a')");
  }));
  EXPECT_EQ(commits, 0);
  EXPECT_EQ(rollbacks, 2);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 1);
}

TEST_F(Hooks, ChangeHookReportsTheKindTableAndRowIDOfEachRow) {
  std::vector<Change> changes;
  db_.onChange([&changes](ChangeKind kind, const std::string& table, std::int64_t rowID) {
    changes.emplace_back(kind, table, rowID);
  });
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (7, 'a'), (9, 'b')")) << db_.error();
  ASSERT_TRUE(db_.execute("UPDATE notes SET title = 'B' WHERE id = 9")) << db_.error();
  ASSERT_TRUE(db_.execute("DELETE FROM notes WHERE id = 7")) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT * FROM notes")) << db_.error();
  const std::vector<Change> expected = {
      {ChangeKind::Insert, "notes", 7},
      {ChangeKind::Insert, "notes", 9},
      {ChangeKind::Update, "notes", 9},
      {ChangeKind::Delete, "notes", 7},
  };
  EXPECT_EQ(changes, expected);
}

TEST_F(Hooks, ReplacingAHookReleasesTheOldCallbackAndCallsOnlyTheNewOne) {
  int oldCalls = 0;
  int newCalls = 0;
  db_.onCommit([probe = makeProbe(released_[0]), &oldCalls] { ++oldCalls; });
  db_.onRollback([probe = makeProbe(released_[1]), &oldCalls] { ++oldCalls; });
  db_.onChange(
      [probe = makeProbe(released_[2]), &oldCalls](ChangeKind, const std::string&, std::int64_t) { ++oldCalls; });
  db_.onCommit([probe = makeProbe(released_[3]), &newCalls] { ++newCalls; });
  db_.onRollback([probe = makeProbe(released_[4]), &newCalls] { ++newCalls; });
  db_.onChange(
      [probe = makeProbe(released_[5]), &newCalls](ChangeKind, const std::string&, std::int64_t) { ++newCalls; });
  EXPECT_EQ(released_[0], 1);
  EXPECT_EQ(released_[1], 1);
  EXPECT_EQ(released_[2], 1);
  EXPECT_EQ(released_[3] + released_[4] + released_[5], 0);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();  // change, commit
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();  // rollback
  EXPECT_EQ(oldCalls, 0);
  EXPECT_EQ(newCalls, 3);
}

TEST_F(Hooks, AnEmptyCallbackRemovesTheHookAndReleasesIt) {
  int calls = 0;
  db_.onCommit([probe = makeProbe(released_[0]), &calls] { ++calls; });
  db_.onRollback([probe = makeProbe(released_[1]), &calls] { ++calls; });
  db_.onChange([probe = makeProbe(released_[2]), &calls](ChangeKind, const std::string&, std::int64_t) { ++calls; });
  db_.onCommit({});
  db_.onRollback({});
  db_.onChange({});
  EXPECT_EQ(released_[0], 1);
  EXPECT_EQ(released_[1], 1);
  EXPECT_EQ(released_[2], 1);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  EXPECT_EQ(calls, 0);
}

TEST_F(Hooks, ClosingWithHooksInstalledReleasesThemAndCallsNoneAfter) {
  int calls = 0;
  db_.onCommit([probe = makeProbe(released_[0]), &calls] { ++calls; });
  db_.onRollback([probe = makeProbe(released_[1]), &calls] { ++calls; });
  db_.onChange([probe = makeProbe(released_[2]), &calls](ChangeKind, const std::string&, std::int64_t) { ++calls; });
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();
  EXPECT_EQ(calls, 1);  // the change
  db_.close();          // rolls the open transaction back: no hook sees it
  EXPECT_EQ(released_[0], 1);
  EXPECT_EQ(released_[1], 1);
  EXPECT_EQ(released_[2], 1);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES ('b')"));
  EXPECT_EQ(calls, 1);
  Database reopened = Database::open(dir_ / "hooks.db");
  EXPECT_EQ(scalarInteger(reopened, "SELECT count(*) FROM notes"), 0);
}

TEST_F(Hooks, DestroyingTheDatabaseReleasesItsHooks) {
  int released = 0;
  {
    Database db = Database::open(":memory:");
    db.onChange([probe = makeProbe(released)](ChangeKind, const std::string&, std::int64_t) {});
    db.onCommit([probe = makeProbe(released)] {});
    db.onRollback([probe = makeProbe(released)] {});
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 3);
}

TEST_F(Hooks, OnAClosedDatabaseTheyRecordMisuseAndReleaseTheCallback) {
  db_.close();
  int released = 0;
  db_.onCommit([probe = makeProbe(released)] {});
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Misuse));
  db_.onRollback([probe = makeProbe(released)] {});
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Misuse));
  db_.onChange([probe = makeProbe(released)](ChangeKind, const std::string&, std::int64_t) {});
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Misuse));
  EXPECT_EQ(released, 3);
}

TEST_F(Hooks, CallbacksThatThrowFailNothing) {
  int calls = 0;
  db_.onCommit([&calls] {
    ++calls;
    throw std::runtime_error("commit hook failed");
  });
  db_.onChange([&calls](ChangeKind, const std::string&, std::int64_t) {
    ++calls;
    throw std::runtime_error("change hook failed");
  });
  db_.onRollback([&calls] {
    ++calls;
    throw std::runtime_error("rollback hook failed");
  });
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')")) << db_.error();
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 1);  // the commit stood
}
