// Transaction observers: the events of rowid tables, the changes the update
// hook does not see (WITHOUT ROWID tables, DELETE without WHERE, rows a
// REPLACE deletes, triggers, foreign-key actions, schema changes,
// updateTable, migrations), savepoints rolled back, rollbacks, vetoes,
// extents, removal, notifyChanges, and the raw hooks beside observers.
#include <memory>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::ChangeKind;
using sqlitebridge::Database;
using sqlitebridge::DatabaseEvent;
using sqlitebridge::DatabaseRegion;
using sqlitebridge::Error;
using sqlitebridge::ObserverExtent;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::TransactionObserver;
using namespace sqlitebridge_test;

namespace {

const char* kindName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::Insert:
      return "insert";
    case ChangeKind::Update:
      return "update";
    case ChangeKind::Delete:
      return "delete";
  }
  return "?";
}

// Observes the tables it is given (all when none), and writes down what it
// is told, in order: "insert notes 1", "commit", "rollback".
class Recorder : public TransactionObserver {
 public:
  explicit Recorder(std::vector<std::string> tables = {}, std::vector<ChangeKind> kinds = {})
      : tables_(std::move(tables)), kinds_(std::move(kinds)) {}

  bool observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) override {
    std::string asked = std::string(kindName(kind)) + " " + table;
    for (const std::string& column : columns) asked += " " + column;
    asked_.push_back(asked);
    const bool tableWanted = tables_.empty() || std::find(tables_.begin(), tables_.end(), table) != tables_.end();
    const bool kindWanted = kinds_.empty() || std::find(kinds_.begin(), kinds_.end(), kind) != kinds_.end();
    return tableWanted && kindWanted;
  }
  void databaseDidChange(const DatabaseEvent& event) override {
    told.push_back(std::string(kindName(event.kind)) + " " + event.table + " " + std::to_string(event.rowID));
  }
  bool databaseWillCommit(Error* error) override {
    told.push_back("will commit");
    if (!vetoMessage.empty()) {
      *error =
          Error{static_cast<int>(ResultCode::Constraint), static_cast<int>(ResultCode::Constraint), vetoMessage, ""};
      return false;
    }
    return true;
  }
  void databaseDidCommit(Database& db) override {
    told.push_back("commit");
    if (!readOnCommit.empty()) {
      Row row;
      if (db.execute(readOnCommit, row)) readValues.push_back(row.value(0).asInteger());
    }
  }
  void databaseDidRollback(Database&) override { told.push_back("rollback"); }

  std::vector<std::string> told;
  std::vector<std::string> asked_;
  std::string vetoMessage;
  std::string readOnCommit;
  std::vector<std::int64_t> readValues;

 private:
  std::vector<std::string> tables_;
  std::vector<ChangeKind> kinds_;
};

using Told = std::vector<std::string>;

class TransactionObservers : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT UNIQUE, body TEXT);"
        "CREATE TABLE other(x);"
        "CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;"
        "CREATE TABLE log(message TEXT);"
        "CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.title); END;"
        "CREATE TABLE children(k TEXT PRIMARY KEY, noteId INTEGER REFERENCES notes(id) ON DELETE CASCADE) "
        "WITHOUT ROWID;"))
        << db_.error();
  }

  std::shared_ptr<Recorder> observe(std::vector<std::string> tables = {}, std::vector<ChangeKind> kinds = {},
                                    ObserverExtent extent = ObserverExtent::DatabaseLifetime) {
    auto recorder = std::make_shared<Recorder>(std::move(tables), std::move(kinds));
    db_.add(recorder, extent);
    EXPECT_FALSE(db_.lastError().isError()) << db_.error();
    return recorder;
  }

  std::int64_t count(const std::string& table) {
    Row row;
    EXPECT_TRUE(db_.execute("SELECT count(*) FROM " + table, row)) << db_.error();
    return row.value(0).asInteger();
  }

  TempDir dir_;
  Database db_ = Database::open(dir_ / "observers.db");
};

}  // namespace

TEST_F(TransactionObservers, EachRowChangeThenTheCommitIsTold) {
  auto recorder = observe({"notes"});
  ASSERT_TRUE(db_.inTransaction([](Database& db) {
    return db.execute("INSERT INTO notes(id, title) VALUES (1, 'a'), (2, 'b')") &&
           db.execute("UPDATE notes SET body = 'x' WHERE id = 2") && db.execute("DELETE FROM notes WHERE id = 1");
  })) << db_.error();
  EXPECT_EQ(recorder->told,
            (Told{"insert notes 1", "insert notes 2", "update notes 2", "delete notes 1", "will commit", "commit"}));
}

TEST_F(TransactionObservers, AWriteOutsideATransactionIsATransactionOfItsOwn) {
  auto recorder = observe({"notes"});
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (7, 'a')")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"insert notes 7", "will commit", "commit"}));
}

TEST_F(TransactionObservers, UpdatedColumnsAreAskedAbout) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  auto recorder = observe({"notes"});
  ASSERT_TRUE(db_.execute("UPDATE notes SET body = 'b', title = 'c' WHERE id = 1")) << db_.error();
  EXPECT_NE(std::find(recorder->asked_.begin(), recorder->asked_.end(), "update notes body title"),
            recorder->asked_.end());
}

TEST_F(TransactionObservers, AnObserverOfOtherTablesIsToldNothing) {
  auto recorder = observe({"other"});
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  EXPECT_TRUE(recorder->told.empty());
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"insert other 1", "will commit", "commit"}));
}

TEST_F(TransactionObservers, AReadOnlyTransactionIsNotTold) {
  auto recorder = observe();
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  EXPECT_EQ(count("notes"), 0);
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT * FROM notes")) << db_.error();
  EXPECT_TRUE(recorder->told.empty());
}

TEST_F(TransactionObservers, ARollbackIsToldAndNoCommit) {
  auto recorder = observe({"notes"});
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"insert notes 1", "rollback"}));
}

TEST_F(TransactionObservers, ARolledBackSavepointInsideACommittedTransactionIsForgotten) {
  auto recorder = observe({"notes", "other"});
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'kept')")) << db_.error();
  ASSERT_TRUE(db_.execute("SAVEPOINT inner")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (2, 'dropped')")) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK TO inner")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (5)")) << db_.error();
  ASSERT_TRUE(db_.execute("RELEASE inner")) << db_.error();
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  // Inside the savepoint changes wait for its release; the one rolled back
  // is never told.
  EXPECT_EQ(recorder->told, (Told{"insert notes 1", "insert other 1", "will commit", "commit"}));
  EXPECT_EQ(count("notes"), 1);
}

TEST_F(TransactionObservers, ATransactionWhoseOnlyChangesWereRolledBackToASavepointIsNotTold) {
  auto recorder = observe({"notes"});
  ASSERT_TRUE(db_.inTransaction([&](Database& db) {
    EXPECT_FALSE(db.inSavepoint([](Database& inner) {
      inner.execute("INSERT INTO notes(id, title) VALUES (1, 'a')");
      return false;
    }));
    return db.execute("INSERT INTO other VALUES (1)");
  })) << db_.error();
  EXPECT_TRUE(recorder->told.empty()) << recorder->told.size();
  EXPECT_EQ(count("notes"), 0);
}

TEST_F(TransactionObservers, AWithoutRowidTableCountsAsChangedWithoutEvents) {
  auto recorder = observe({"keyed"});
  ASSERT_TRUE(db_.execute("INSERT INTO keyed VALUES ('a', 1)")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"will commit", "commit"}));
}

TEST_F(TransactionObservers, DeleteWithoutWhereTellsEveryRowWhileDeletionsAreObserved) {
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1), (2), (3)")) << db_.error();
  auto recorder = observe({"other"}, {ChangeKind::Delete});
  ASSERT_TRUE(db_.execute("DELETE FROM other")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"delete other 1", "delete other 2", "delete other 3", "will commit", "commit"}));
  EXPECT_EQ(count("other"), 0);
}

TEST_F(TransactionObservers, DeleteWithoutWherePreparedBeforeTheObserverStillCounts) {
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  Database& db = db_;
  sqlitebridge::Statement statement = db.prepare("DELETE FROM other");  // truncation allowed: nobody observes yet
  ASSERT_TRUE(statement.isValid()) << db_.error();
  auto recorder = observe({"other"});
  ASSERT_EQ(statement.step(), sqlitebridge::StepResult::Done) << db_.error();
  statement.reset();
  EXPECT_NE(std::find(recorder->told.begin(), recorder->told.end(), "commit"), recorder->told.end());
}

TEST_F(TransactionObservers, DropTableStillDropsWhileDeletionsAreObserved) {
  auto recorder = observe({"other"});
  ASSERT_TRUE(db_.execute("DROP TABLE other")) << db_.error();
  Row row;
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM sqlite_master WHERE name = 'other'", row)) << db_.error();
  EXPECT_EQ(row.value(0).asInteger(), 0);
  EXPECT_EQ(recorder->told, (Told{"will commit", "commit"}));
}

TEST_F(TransactionObservers, RowsAReplaceDeletesCountForAnObserverOfDeletions) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  auto recorder = observe({"notes"}, {ChangeKind::Delete});
  ASSERT_TRUE(db_.execute("INSERT OR REPLACE INTO notes(id, title) VALUES (2, 'a')")) << db_.error();
  EXPECT_EQ(count("notes"), 1);
  EXPECT_NE(std::find(recorder->told.begin(), recorder->told.end(), "commit"), recorder->told.end());
}

TEST_F(TransactionObservers, TriggersChangesAreTold) {
  auto recorder = observe({"log"});
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"insert log 1", "will commit", "commit"}));
}

TEST_F(TransactionObservers, ForeignKeyCascadesIntoAWithoutRowidTableCount) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO children VALUES ('c', 1)")) << db_.error();
  auto recorder = observe({"children"});
  ASSERT_TRUE(db_.execute("DELETE FROM notes WHERE id = 1")) << db_.error();
  EXPECT_EQ(count("children"), 0);
  EXPECT_EQ(recorder->told, (Told{"will commit", "commit"}));
}

TEST_F(TransactionObservers, SchemaChangesCountAsChangesToTheirTables) {
  auto recorder = observe({"fresh"});
  ASSERT_TRUE(db_.execute("CREATE TABLE fresh(a)")) << db_.error();
  ASSERT_TRUE(db_.execute("ALTER TABLE fresh ADD COLUMN b")) << db_.error();
  ASSERT_TRUE(db_.execute("CREATE INDEX fresh_a ON fresh(a)")) << db_.error();
  ASSERT_TRUE(db_.execute("DROP TABLE fresh")) << db_.error();
  EXPECT_EQ(recorder->told,
            (Told{"will commit", "commit", "will commit", "commit", "will commit", "commit", "will commit", "commit"}));
}

TEST_F(TransactionObservers, UpdateTableCountsAsAChangeOfItsTable) {
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  auto recorder = observe({"other"});
  auto bystander = observe({"keyed"});
  ASSERT_TRUE(db_.updateTable("CREATE TABLE other(x, y DEFAULT 0)", "", "other")) << db_.error();
  EXPECT_EQ(std::count(recorder->told.begin(), recorder->told.end(), "commit"), 1);
  EXPECT_TRUE(bystander->told.empty());
}

TEST_F(TransactionObservers, AMigrationCountsAsAChangeOfTheTablesItTouches) {
  auto recorder = observe({"made"});
  sqlitebridge::Migrator migrator;
  migrator.registerMigration("v1", [](Database& db) { return db.execute("CREATE TABLE made(a)"); });
  migrator.registerMigration("v2", [](Database& db) { return db.execute("INSERT INTO made VALUES (1)"); });
  ASSERT_TRUE(migrator.migrate(db_)) << db_.error();
  EXPECT_GE(std::count(recorder->told.begin(), recorder->told.end(), "commit"), 1);
  EXPECT_NE(std::find(recorder->told.begin(), recorder->told.end(), "insert made 1"), recorder->told.end());
}

TEST_F(TransactionObservers, AVetoRollsBackAndTheCommitFailsWithTheObserversError) {
  auto recorder = observe({"notes"});
  recorder->vetoMessage = "not today";
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  EXPECT_FALSE(db_.execute("COMMIT"));
  EXPECT_EQ(db_.lastError().code, static_cast<int>(ResultCode::Constraint));
  EXPECT_EQ(db_.lastError().message, "not today");
  EXPECT_FALSE(db_.isInTransaction());
  EXPECT_EQ(count("notes"), 0);
  EXPECT_EQ(recorder->told, (Told{"insert notes 1", "will commit", "rollback"}));
}

TEST_F(TransactionObservers, AVetoWithoutACodeFailsWithCommitHookAndKeepsItsMessage) {
  class Vetoing : public Recorder {
   public:
    bool databaseWillCommit(Error* error) override {
      error->message = "said no";
      return false;
    }
  };
  auto vetoing = std::make_shared<Vetoing>();
  db_.add(vetoing, ObserverExtent::DatabaseLifetime);
  EXPECT_FALSE(db_.execute("INSERT INTO other VALUES (1)"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_COMMITHOOK);
  EXPECT_EQ(db_.lastError().message, "said no");
  EXPECT_EQ(count("other"), 0);
}

TEST_F(TransactionObservers, AVetoOfAWriteOutsideATransactionFailsTheWrite) {
  auto recorder = observe({"notes"});
  recorder->vetoMessage = "no";
  EXPECT_FALSE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')"));
  EXPECT_EQ(db_.lastError().message, "no");
  EXPECT_EQ(count("notes"), 0);
  // A write block of inTransaction reports it too.
  EXPECT_FALSE(db_.inTransaction([](Database& db) { return db.execute("INSERT INTO notes(title) VALUES ('b')"); }));
  EXPECT_EQ(db_.lastError().message, "no");
  EXPECT_EQ(count("notes"), 0);
}

TEST_F(TransactionObservers, AnObserverMayReadTheDatabaseAfterTheCommit) {
  auto recorder = observe({"notes"});
  recorder->readOnCommit = "SELECT count(*) FROM notes";
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (2, 'b')")) << db_.error();
  EXPECT_EQ(recorder->readValues, (std::vector<std::int64_t>{1, 2}));
  EXPECT_FALSE(db_.lastError().isError());
}

TEST_F(TransactionObservers, AnObserverHeldWeaklyIsForgottenOnceGone) {
  auto recorder = std::make_shared<Recorder>();
  std::weak_ptr<Recorder> weak = recorder;
  db_.add(recorder);  // ObserverLifetime by default
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  EXPECT_EQ(recorder->told.size(), 3u);
  recorder.reset();
  EXPECT_TRUE(weak.expired()) << "the database does not keep it alive";
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (2)")) << db_.error();
}

TEST_F(TransactionObservers, NextTransactionEndsAfterOneTransactionThatChangedSomething) {
  auto recorder = observe({}, {}, ObserverExtent::NextTransaction);
  ASSERT_TRUE(db_.execute("SELECT * FROM other")) << db_.error();  // a read ends nothing
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (2)")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"insert other 1", "will commit", "commit"}));
}

TEST_F(TransactionObservers, DatabaseLifetimeKeepsTheObserverAlive) {
  std::weak_ptr<Recorder> weak;
  {
    auto recorder = observe();
    weak = recorder;
  }
  ASSERT_FALSE(weak.expired());
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  EXPECT_EQ(weak.lock()->told.size(), 3u);
}

TEST_F(TransactionObservers, ARemovedObserverIsToldNothingMore) {
  auto recorder = observe();
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  db_.remove(recorder.get());
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"insert other 1"}));
  db_.remove(recorder.get());  // removing again does nothing
}

TEST_F(TransactionObservers, NotifyChangesMakesTheTransactionCount) {
  auto recorder = observe({"external"});
  ASSERT_TRUE(db_.notifyChanges(DatabaseRegion::table("external"))) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"commit"}));
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.notifyChanges(DatabaseRegion::table("external"))) << db_.error();
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  // A transaction that wrote nothing itself commits without SQLite's commit
  // hook: told after it, with no chance to veto.
  EXPECT_EQ(recorder->told, (Told{"commit", "commit"}));
  ASSERT_TRUE(db_.notifyChanges(DatabaseRegion::table("unrelated"))) << db_.error();
  EXPECT_EQ(recorder->told.size(), 2u);
  ASSERT_TRUE(db_.execute("BEGIN")) << db_.error();
  ASSERT_TRUE(db_.notifyChanges(DatabaseRegion::fullDatabase())) << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  EXPECT_EQ(recorder->told, (Told{"commit", "commit", "rollback"})) << "a transaction rolled back reports no change";
}

TEST_F(TransactionObservers, RawHooksAndObserversShareTheConnection) {
  int commits = 0;
  int rollbacks = 0;
  std::vector<std::string> changes;
  db_.onCommit([&] { ++commits; });
  db_.onRollback([&] { ++rollbacks; });
  db_.onChange([&](ChangeKind kind, const std::string& table, std::int64_t rowID) {
    changes.push_back(std::string(kindName(kind)) + " " + table + " " + std::to_string(rowID));
  });
  auto recorder = observe({"other"});
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  EXPECT_FALSE(db_.inTransaction([](Database& db) {
    db.execute("INSERT INTO other VALUES (2)");
    return false;
  }));
  EXPECT_EQ(commits, 1);
  EXPECT_EQ(rollbacks, 1);
  EXPECT_EQ(changes, (Told{"insert other 1", "insert other 2"}));
  EXPECT_EQ(recorder->told, (Told{"insert other 1", "will commit", "commit", "insert other 2", "rollback"}));
  // Removing the raw hooks leaves the observer working, and the other way round.
  db_.onCommit(nullptr);
  db_.onChange(nullptr);
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (3)")) << db_.error();
  EXPECT_EQ(recorder->told.size(), 8u);
  db_.remove(recorder.get());
  db_.onCommit([&] { ++commits; });
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (4)")) << db_.error();
  EXPECT_EQ(commits, 2);
  EXPECT_EQ(recorder->told.size(), 8u);
}

TEST_F(TransactionObservers, TracingKeepsWorkingBesideObservers) {
  std::vector<std::string> traced;
  db_.trace(sqlitebridge::TraceOptions::Statements,
            [&](const sqlitebridge::TraceEvent& event) { traced.push_back(event.sql); });
  auto recorder = observe({"keyed"});
  ASSERT_TRUE(db_.execute("INSERT INTO keyed VALUES ('a', 1)")) << db_.error();
  EXPECT_EQ(traced, (Told{"INSERT INTO keyed VALUES ('a', 1)"}));
  EXPECT_EQ(recorder->told, (Told{"will commit", "commit"}));
  db_.trace(0, nullptr);
  ASSERT_TRUE(db_.execute("INSERT INTO keyed VALUES ('b', 1)")) << db_.error();
  EXPECT_EQ(traced.size(), 1u);
  EXPECT_EQ(recorder->told.size(), 4u) << "the observer still hears of statements with tracing off";
}

TEST_F(TransactionObservers, TracingLeavesOutTheLookupsOfObservation) {
  std::vector<std::string> traced;
  db_.trace(sqlitebridge::TraceOptions::Statements | sqlitebridge::TraceOptions::Profile,
            [&](const sqlitebridge::TraceEvent& event) { traced.push_back(event.sql); });
  auto recorder = observe({"other"});
  // Preparing them, the core looks up `other` (a virtual table?): none of
  // that is traced.
  ASSERT_TRUE(db_.execute("INSERT INTO other VALUES (1)")) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM other")) << db_.error();
  EXPECT_EQ(traced, (Told{"INSERT INTO other VALUES (1)", "INSERT INTO other VALUES (1)", "SELECT count(*) FROM other",
                          "SELECT count(*) FROM other"}));
  EXPECT_EQ(recorder->told, (Told{"insert other 1", "will commit", "commit"}));
  db_.trace(0, nullptr);
}

TEST_F(TransactionObservers, AddOnAClosedDatabaseFailsWithMisuse) {
  Database closed = Database::open(dir_ / "no/such/dir/x.db");
  closed.add(std::make_shared<Recorder>());
  EXPECT_EQ(closed.lastError().code, static_cast<int>(ResultCode::Misuse));
  EXPECT_FALSE(closed.notifyChanges(DatabaseRegion::table("t")));
}
