// Applying changesets (issue 41): every conflict kind made on purpose, each
// answer checked; abort leaves the target file byte for byte as it was; a
// replace answered where SQLite cannot replace; foreign keys; a table the
// target lacks; a table filter; observers told of an apply.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ChangesetTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

// The changeset `script` makes on a database holding `seed`.
Changeset changesetOf(const std::string& seed, const std::string& script) {
  Database db = openChangesetDatabase();
  EXPECT_TRUE(db.executeScript(seed)) << db.error();
  Session session(db, "main");
  EXPECT_TRUE(session.attachAll());
  EXPECT_TRUE(db.executeScript(script)) << db.error();
  Changeset changes;
  EXPECT_TRUE(session.changeset(changes));
  return changes;
}

// A target database file holding `seed` then `local`.
struct Target {
  TempDir dir;
  std::string path = dir.path() + "/target.db";
  Database db;
  Target(const std::string& seed, const std::string& local) : db(openChangesetDatabase(path)) {
    EXPECT_TRUE(db.executeScript(seed + local)) << db.error();
  }
};

// A handler answering `answer`, keeping what it was told.
struct Recorder {
  std::vector<ChangesetConflict> conflicts;
  ChangesetConflictResolution answer;
  ChangesetConflictHandler handler() {
    return [this](const ChangesetConflict& conflict) {
      conflicts.push_back(conflict);
      return answer;
    };
  }
};

const char* const kSeed = "INSERT INTO items(id, t) VALUES (1, 'one'), (2, 'two');";

}  // namespace

TEST(ApplyConflicts, DataConflictOmitKeepsTheRowReplaceOverwritesIt) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes = changesetOf(kSeed, "UPDATE items SET t = 'theirs' WHERE id = 1;");
  for (ChangesetConflictResolution answer : {ChangesetConflictResolution::Omit, ChangesetConflictResolution::Replace}) {
    Target target(kSeed, "UPDATE items SET t = 'mine' WHERE id = 1;");
    Recorder recorder{{}, answer};
    ASSERT_TRUE(target.db.apply(changes, std::nullopt, recorder.handler())) << target.db.error();
    ASSERT_EQ(recorder.conflicts.size(), 1u);
    const ChangesetConflict& conflict = recorder.conflicts[0];
    EXPECT_EQ(conflict.kind, ChangesetConflictKind::Data);
    ASSERT_TRUE(conflict.operation.has_value());
    EXPECT_EQ(conflict.operation->table, "items");
    EXPECT_EQ(conflict.operation->kind, ChangeKind::Update);
    ASSERT_TRUE(conflict.conflictingValues.has_value());
    EXPECT_EQ((*conflict.conflictingValues)[3], Value("mine"));
    EXPECT_EQ(scalarText(target.db, "SELECT t FROM items WHERE id = 1"),
              answer == ChangesetConflictResolution::Omit ? "mine" : "theirs");
  }
}

TEST(ApplyConflicts, AbortLeavesTheTargetFileByteForByteUnchanged) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes =
      changesetOf(kSeed,
                  "INSERT INTO items(id, t) VALUES (3, 'three'); UPDATE items SET t = 'theirs' WHERE id = 1; "
                  "INSERT INTO tags(name) VALUES ('t');");
  Target target(kSeed, "UPDATE items SET t = 'mine' WHERE id = 1;");
  const std::string bytes = readFile(target.path);
  Recorder recorder{{}, ChangesetConflictResolution::Abort};
  EXPECT_FALSE(target.db.apply(changes, std::nullopt, recorder.handler()));
  const Error error = target.db.lastError();
  EXPECT_EQ(error.resultCode(), ResultCode::Abort);
  EXPECT_TRUE(contains(error.message, "data conflict")) << error.message;
  EXPECT_TRUE(contains(error.message, "\"items\"")) << error.message;
  EXPECT_TRUE(readFile(target.path) == bytes) << "the target file changed";
  EXPECT_EQ(scalarInteger(target.db, "SELECT count(*) FROM items"), 2);
  // No handler: every conflict aborts.
  EXPECT_FALSE(target.db.apply(changes));
  EXPECT_EQ(target.db.lastError().resultCode(), ResultCode::Abort);
  EXPECT_TRUE(readFile(target.path) == bytes) << "the target file changed";
  // A handler that throws aborts too.
  EXPECT_FALSE(target.db.apply(changes, std::nullopt, [](const ChangesetConflict&) -> ChangesetConflictResolution {
    throw std::runtime_error("no");
  }));
  EXPECT_EQ(target.db.lastError().resultCode(), ResultCode::Abort);
  EXPECT_TRUE(contains(target.db.lastError().message, "threw")) << target.db.lastError().message;
  EXPECT_TRUE(readFile(target.path) == bytes) << "the target file changed";
}

TEST(ApplyConflicts, NotFoundCanBeOmittedButNotReplaced) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes =
      changesetOf(kSeed, "DELETE FROM items WHERE id = 2; UPDATE items SET t = 'x' WHERE id = 1;");
  {
    Target target(kSeed, "DELETE FROM items WHERE id = 2;");
    Recorder recorder{{}, ChangesetConflictResolution::Omit};
    ASSERT_TRUE(target.db.apply(changes, std::nullopt, recorder.handler())) << target.db.error();
    ASSERT_EQ(recorder.conflicts.size(), 1u);
    EXPECT_EQ(recorder.conflicts[0].kind, ChangesetConflictKind::NotFound);
    EXPECT_EQ(recorder.conflicts[0].operation->kind, ChangeKind::Delete);
    EXPECT_FALSE(recorder.conflicts[0].conflictingValues.has_value());
    EXPECT_EQ(scalarText(target.db, "SELECT t FROM items WHERE id = 1"), "x");
  }
  Target target(kSeed, "DELETE FROM items WHERE id = 2;");
  const std::string bytes = readFile(target.path);
  Recorder recorder{{}, ChangesetConflictResolution::Replace};
  EXPECT_FALSE(target.db.apply(changes, std::nullopt, recorder.handler()));
  const Error error = target.db.lastError();
  EXPECT_EQ(error.resultCode(), ResultCode::Misuse);
  EXPECT_TRUE(contains(error.message, "not-found")) << error.message;
  EXPECT_TRUE(readFile(target.path) == bytes) << "the target file changed";
  EXPECT_EQ(scalarText(target.db, "SELECT t FROM items WHERE id = 1"), "one");
}

TEST(ApplyConflicts, AnInsertOverAnExistingKeyIsAConflict) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes = changesetOf("", "INSERT INTO items(id, t) VALUES (1, 'theirs');");
  for (ChangesetConflictResolution answer : {ChangesetConflictResolution::Omit, ChangesetConflictResolution::Replace}) {
    Target target("", "INSERT INTO items(id, t) VALUES (1, 'mine');");
    Recorder recorder{{}, answer};
    ASSERT_TRUE(target.db.apply(changes, std::nullopt, recorder.handler())) << target.db.error();
    ASSERT_EQ(recorder.conflicts.size(), 1u);
    EXPECT_EQ(recorder.conflicts[0].kind, ChangesetConflictKind::Conflict);
    ASSERT_TRUE(recorder.conflicts[0].conflictingValues.has_value());
    EXPECT_EQ((*recorder.conflicts[0].conflictingValues)[3], Value("mine"));
    EXPECT_EQ(scalarText(target.db, "SELECT t FROM items WHERE id = 1"),
              answer == ChangesetConflictResolution::Omit ? "mine" : "theirs");
  }
}

TEST(ApplyConflicts, AConstraintConflictCanBeOmittedOrAborted) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes =
      changesetOf("", "INSERT INTO items(id, t) VALUES (1, 'dup'); INSERT INTO items(id) VALUES (2);");
  const std::string local = "CREATE UNIQUE INDEX items_t ON items(t); INSERT INTO items(id, t) VALUES (9, 'dup');";
  {
    Target target("", local);
    Recorder recorder{{}, ChangesetConflictResolution::Omit};
    ASSERT_TRUE(target.db.apply(changes, std::nullopt, recorder.handler())) << target.db.error();
    ASSERT_EQ(recorder.conflicts.size(), 1u);
    EXPECT_EQ(recorder.conflicts[0].kind, ChangesetConflictKind::Constraint);
    EXPECT_EQ(dump(target.db, "SELECT id FROM items ORDER BY id"), (std::vector<std::string>{"id=int:2", "id=int:9"}));
  }
  Target target("", local);
  const std::string bytes = readFile(target.path);
  Recorder recorder{{}, ChangesetConflictResolution::Replace};
  EXPECT_FALSE(target.db.apply(changes, std::nullopt, recorder.handler()));
  EXPECT_EQ(target.db.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_TRUE(contains(target.db.lastError().message, "constraint")) << target.db.lastError().message;
  EXPECT_TRUE(readFile(target.path) == bytes) << "the target file changed";
}

TEST(ApplyConflicts, BrokenForeignKeysAreToldOnceWithTheirCount) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const std::string schema =
      "CREATE TABLE parents (id INTEGER PRIMARY KEY);"
      "CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id));";
  Database source = openChangesetDatabase();
  ASSERT_TRUE(source.executeScript(schema + "INSERT INTO parents VALUES (1);"));
  Session session(source, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(source.executeScript("INSERT INTO children VALUES (1, 1), (2, 1);"));
  Changeset changes;
  ASSERT_TRUE(session.changeset(changes));

  TempDir dir;
  Database target = openChangesetDatabase(dir.path() + "/t.db");
  ASSERT_TRUE(target.executeScript(schema));  // no parent 1
  const std::string bytes = readFile(dir.path() + "/t.db");
  Recorder recorder{{}, ChangesetConflictResolution::Abort};
  EXPECT_FALSE(target.apply(changes, std::nullopt, recorder.handler()));
  ASSERT_EQ(recorder.conflicts.size(), 1u);
  EXPECT_EQ(recorder.conflicts[0].kind, ChangesetConflictKind::ForeignKey);
  EXPECT_FALSE(recorder.conflicts[0].operation.has_value());
  EXPECT_GT(recorder.conflicts[0].foreignKeyViolations, 0);
  EXPECT_EQ(target.lastError().resultCode(), ResultCode::Abort);
  EXPECT_TRUE(contains(target.lastError().message, "foreign key")) << target.lastError().message;
  EXPECT_TRUE(readFile(dir.path() + "/t.db") == bytes) << "the target file changed";

  // Omit keeps the changes, foreign keys broken (SQLite's rule).
  recorder = Recorder{{}, ChangesetConflictResolution::Omit};
  ASSERT_TRUE(target.apply(changes, std::nullopt, recorder.handler())) << target.error();
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM children"), 2);
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM pragma_foreign_key_check('children')"), 2);
}

TEST(ApplyConflicts, ATableTheTargetLacksIsAnErrorUnlessFilteredOut) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  Database source = openChangesetDatabase();
  ASSERT_TRUE(source.execute("CREATE TABLE extra (id INTEGER PRIMARY KEY, v)"));
  Session session(source, "main");
  ASSERT_TRUE(session.attachAll());
  ASSERT_TRUE(source.executeScript("INSERT INTO items(id) VALUES (1); INSERT INTO extra VALUES (1, 'x');"));
  Changeset changes;
  ASSERT_TRUE(session.changeset(changes));

  Database target = openChangesetDatabase();
  EXPECT_FALSE(target.apply(changes));
  EXPECT_EQ(target.lastError().resultCode(), ResultCode::Schema);
  EXPECT_TRUE(contains(target.lastError().message, "\"extra\"")) << target.lastError().message;
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM items"), 0);

  ASSERT_TRUE(target.apply(changes, std::vector<std::string>{"ITEMS"})) << target.error();
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM items"), 1);

  // A table whose primary key differs does not fit either.
  Database other = Database::open(":memory:");
  ASSERT_TRUE(other.executeScript("CREATE TABLE items (id INTEGER, i INTEGER PRIMARY KEY, r, t, b, n);"));
  EXPECT_FALSE(other.apply(changes, std::vector<std::string>{"items"}));
  EXPECT_EQ(other.lastError().resultCode(), ResultCode::Schema);
}

TEST(ApplyConflicts, TheTableFilterAppliesOnlyTheNamedTables) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes =
      changesetOf("",
                  "INSERT INTO items(id) VALUES (1); INSERT INTO tags(name) VALUES ('a'); INSERT INTO pairs "
                  "VALUES ('p', 1, 2);");
  Database target = openChangesetDatabase();
  ASSERT_TRUE(target.apply(changes, std::vector<std::string>{"tags", "pairs"})) << target.error();
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM items"), 0);
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM tags"), 1);
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM pairs"), 1);
  ASSERT_TRUE(target.apply(changes, std::vector<std::string>{})) << target.error();
  EXPECT_EQ(scalarInteger(target, "SELECT count(*) FROM items"), 0);
}

namespace {

struct CountingObserver : TransactionObserver {
  int commits = 0;
  std::vector<std::string> changed;
  bool observes(ChangeKind, const std::string& table, const std::vector<std::string>&) override {
    return table == "tags" || table == "items";
  }
  void databaseDidChange(const DatabaseEvent& event) override { changed.push_back(event.table); }
  void databaseDidCommit(Database&) override { ++commits; }
};

}  // namespace

TEST(ApplyConflicts, ObserversAreToldOfAnApplyAsOfAnyWrite) {
  SKIP_WITHOUT_SESSION_EXTENSION();
  const Changeset changes = changesetOf("", "INSERT INTO tags(name) VALUES ('a'); INSERT INTO items(id) VALUES (1);");
  Database target = openChangesetDatabase();
  auto observer = std::make_shared<CountingObserver>();
  target.add(observer);
  ASSERT_TRUE(target.apply(changes)) << target.error();
  EXPECT_EQ(observer->commits, 1);
  EXPECT_EQ(observer->changed, (std::vector<std::string>{"items"}));  // WITHOUT ROWID rows are not told one by one
  ASSERT_TRUE(target.execute("BEGIN"));
  ASSERT_TRUE(
      target.apply(changes, std::nullopt, [](const ChangesetConflict&) { return ChangesetConflictResolution::Omit; }));
  EXPECT_EQ(observer->commits, 1);
  ASSERT_TRUE(target.execute("COMMIT"));
  EXPECT_EQ(observer->commits, 2);
}
