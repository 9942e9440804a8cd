// updateTable: rebuilding a table with a new schema in one transaction, and
// leaving everything untouched when any step fails.
#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

using Lines = std::vector<std::string>;

// The tables that `table`'s foreign keys reference, in key order.
Lines foreignKeyTables(Database& db, const std::string& table) {
  std::vector<sqlitebridge::ForeignKeyInfo> keys;
  EXPECT_TRUE(db.foreignKeys(table, keys)) << db.error();
  Lines tables;
  for (const sqlitebridge::ForeignKeyInfo& key : keys) tables.push_back(key.destinationTable);
  return tables;
}

const char* const kNotesSchema =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER DEFAULT 0);"
    "CREATE UNIQUE INDEX notes_title ON notes(title);"
    "CREATE INDEX notes_created ON notes(created);"
    "CREATE TABLE log(msg TEXT);"
    "CREATE TRIGGER notes_insert AFTER INSERT ON notes BEGIN INSERT INTO log VALUES ('insert ' || new.title); END;"
    "CREATE VIEW titles AS SELECT id, title FROM notes;"
    "INSERT INTO notes(title, body, created) VALUES ('first', 'one', 10), ('second', 'two', 20), ('third', NULL, 30);"
    "DELETE FROM log;";

class UpdateTable : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(kNotesSchema)) << db_.error();
  }

  Lines state() { return snapshot(db_, {"notes", "log"}); }

  // Asserts a failed updateTable left the database as `before` and closed
  // the transaction it opened.
  void expectUntouched(const Lines& before) {
    EXPECT_EQ(state(), before);
    EXPECT_FALSE(db_.isInTransaction());
    EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name = 'notes_old'"), 0);
    EXPECT_EQ(scalarInteger(db_, "PRAGMA legacy_alter_table"), 0);
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

// MARK: Successful rebuilds

TEST_F(UpdateTable, AddsAColumnWithAnExplicitInsert) {
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER DEFAULT 0,"
      " pinned INTEGER NOT NULL DEFAULT 0)",
      "INSERT INTO notes(id, title, body, created) SELECT id, title, body, created FROM notes_old", "notes"))
      << db_.error();
  EXPECT_EQ(db_.lastError().code, 0);
  Lines columns;
  ASSERT_TRUE(db_.tableColumns("notes", columns));
  EXPECT_EQ(columns, (Lines{"id", "title", "body", "created", "pinned"}));
  EXPECT_EQ(dump(db_, "SELECT id, title, body, pinned FROM notes ORDER BY id"),
            (Lines{"id=int:1|title=text:first|body=text:one|pinned=int:0",
                   "id=int:2|title=text:second|body=text:two|pinned=int:0",
                   "id=int:3|title=text:third|body=NULL|pinned=int:0"}));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name = 'notes_old'"), 0);
  EXPECT_FALSE(db_.isInTransaction());
}

TEST_F(UpdateTable, RemovesAColumnWithAnExplicitInsert) {
  ASSERT_TRUE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)",
                              "INSERT INTO notes(id, title, created) SELECT id, title, created FROM notes_old",
                              "notes"))
      << db_.error();
  EXPECT_FALSE(db_.hasTableColumn("notes", "body"));
  EXPECT_EQ(dump(db_, "SELECT * FROM notes ORDER BY id"),
            (Lines{"id=int:1|title=text:first|created=int:10", "id=int:2|title=text:second|created=int:20",
                   "id=int:3|title=text:third|created=int:30"}));
}

TEST_F(UpdateTable, RenamesAColumnWithAnExplicitInsert) {
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, content TEXT, created INTEGER)",
      "INSERT INTO notes(id, title, content, created) SELECT id, title, body, created FROM notes_old", "notes"))
      << db_.error();
  EXPECT_TRUE(db_.hasTableColumn("notes", "content"));
  EXPECT_FALSE(db_.hasTableColumn("notes", "body"));
  EXPECT_EQ(dump(db_, "SELECT content FROM notes ORDER BY id"),
            (Lines{"content=text:one", "content=text:two", "content=NULL"}));
}

TEST_F(UpdateTable, TheDocumentedExampleInsertWorks) {
  // The example table drops `created`, which notes_created indexes: drop that index first.
  ASSERT_TRUE(db_.executeScript("DROP INDEX notes_created")) << db_.error();
  ASSERT_TRUE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)",
                              "INSERT INTO notes(id, title) SELECT id, title FROM notes_old", "notes"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT * FROM notes ORDER BY id"),
            (Lines{"id=int:1|title=text:first", "id=int:2|title=text:second", "id=int:3|title=text:third"}));
}

TEST_F(UpdateTable, EmptyInsertCopiesTheSharedColumns) {
  // body is dropped, extra is new; TITLE matches title case-insensitively.
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, TITLE TEXT NOT NULL, created INTEGER, extra TEXT DEFAULT 'd')", "",
      "notes"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT * FROM notes ORDER BY id"),
            (Lines{"id=int:1|TITLE=text:first|created=int:10|extra=text:d",
                   "id=int:2|TITLE=text:second|created=int:20|extra=text:d",
                   "id=int:3|TITLE=text:third|created=int:30|extra=text:d"}));
}

TEST_F(UpdateTable, EmptyInsertSkipsGeneratedColumns) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE g(a INTEGER, b INTEGER, total AS (a + b));"
                        "INSERT INTO g(a, b) VALUES (1, 2), (3, 4);"))
      << db_.error();
  ASSERT_TRUE(db_.updateTable("CREATE TABLE g(a INTEGER, b INTEGER, total AS (a + b) STORED, note TEXT)", "", "g"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT a, b, total FROM g ORDER BY a"),
            (Lines{"a=int:1|b=int:2|total=int:3", "a=int:3|b=int:4|total=int:7"}));
}

TEST_F(UpdateTable, EmptyInsertWithNoSharedColumnsFailsWhenThereAreRows) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(other TEXT)", "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  expectUntouched(before);
}

TEST_F(UpdateTable, RowsOfEveryTypeAreCopiedExactly) {
  ASSERT_TRUE(db_.executeScript("CREATE TABLE anything(v);")) << db_.error();
  const std::vector<Value> values{Value(),
                                  Value(std::numeric_limits<std::int64_t>::min()),
                                  Value(-0.0),
                                  Value(std::string("n\0l", 3)),
                                  Value::fromBlob(std::vector<std::uint8_t>{}),
                                  Value(std::string())};
  for (const Value& value : values) ASSERT_TRUE(db_.execute("INSERT INTO anything VALUES (?)", {value}));
  const Lines before = dump(db_, "SELECT rowid, v, typeof(v) FROM anything ORDER BY rowid");
  ASSERT_TRUE(db_.updateTable("CREATE TABLE anything(v, w)", "", "anything")) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT rowid, v, typeof(v) FROM anything ORDER BY rowid"), before);
}

TEST_F(UpdateTable, IndexesAreRecreatedAndEnforcedAfterwards) {
  const Lines indexesBefore =
      dump(db_, "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notes' ORDER BY name");
  ASSERT_EQ(indexesBefore.size(), 2u);
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notes' ORDER BY name"),
            indexesBefore);
  // The unique index still works.
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES ('first')"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_NE(db_.error().find("notes.title"), std::string::npos) << db_.error();
  EXPECT_EQ(scalarText(db_, "PRAGMA integrity_check"), "ok");
}

TEST_F(UpdateTable, IndexesAndTriggersTheCreateMakesItselfAreKept) {
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER);"
                      "CREATE INDEX notes_by_created_desc ON notes(created DESC);",
                      "", "notes"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'notes' ORDER BY name"),
            (Lines{"name=text:notes_by_created_desc", "name=text:notes_created", "name=text:notes_title"}));
}

TEST_F(UpdateTable, CreateMayRedefineAnIndexUnderItsOldName) {
  // The create script makes its own notes_title (no longer unique); the old
  // definition must not be recreated over it.
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER);"
                      "CREATE INDEX notes_title ON notes(title);",
                      "", "notes"))
      << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'notes_title'"),
            "CREATE INDEX notes_title ON notes(title)");
  EXPECT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('first')")) << db_.error();
}

TEST_F(UpdateTable, TriggersAreRecreatedAndFireAfterwards) {
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'notes_insert'"),
            1);
  // Copying rows did not fire the trigger (it did not exist on the new table yet).
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM log"), 0);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('fourth')")) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT msg FROM log"), (Lines{"msg=text:insert fourth"}));
}

TEST_F(UpdateTable, ViewsReferencingTheTableStillWork) {
  const std::string viewSql = scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'titles'");
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER, pinned INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'titles'"), viewSql);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('new')")) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT title FROM titles ORDER BY id"),
            (Lines{"title=text:first", "title=text:second", "title=text:third", "title=text:new"}));
}

TEST_F(UpdateTable, TriggersOnOtherTablesStillTargetTheTable) {
  ASSERT_TRUE(db_.executeScript(
      "CREATE TABLE inbox(t TEXT);"
      "CREATE TRIGGER inbox_to_notes AFTER INSERT ON inbox BEGIN INSERT INTO notes(title) VALUES (new.t); END;"))
      << db_.error();
  const std::string triggerSql = scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'inbox_to_notes'");
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'inbox_to_notes'"), triggerSql);
  ASSERT_TRUE(db_.execute("INSERT INTO inbox VALUES ('via trigger')")) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes WHERE title = 'via trigger'"), 1);
}

TEST_F(UpdateTable, TableNameIsMatchedCaseInsensitively) {
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "NOTES"))
      << db_.error();
  EXPECT_FALSE(db_.hasTableColumn("notes", "body"));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 3);
}

TEST_F(UpdateTable, TableNameThatNeedsQuotingWorks) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE \"my \"\"odd\"\" table\"(a, b);"
                        "INSERT INTO \"my \"\"odd\"\" table\" VALUES (1, 2);"))
      << db_.error();
  ASSERT_TRUE(db_.updateTable("CREATE TABLE \"my \"\"odd\"\" table\"(a, c)",
                              "INSERT INTO \"my \"\"odd\"\" table\"(a, c) "
                              "SELECT a, b FROM \"my \"\"odd\"\" table_old\"",
                              "my \"odd\" table"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT * FROM \"my \"\"odd\"\" table\""), (Lines{"a=int:1|c=int:2"}));
}

TEST_F(UpdateTable, ErrorIsClearedAndPragmasAreRestoredAfterSuccess) {
  EXPECT_FALSE(db_.execute("SELECT * FROM nowhere"));
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_EQ(db_.error(), "");
  EXPECT_EQ(scalarInteger(db_, "PRAGMA legacy_alter_table"), 0);
  EXPECT_EQ(scalarInteger(db_, "PRAGMA foreign_keys"), 1) << "on by default, and restored";
  EXPECT_FALSE(db_.isInTransaction());
}

TEST_F(UpdateTable, ResultIsDurableInAFile) {
  TempDir dir;
  const std::string path = dir / "notes.db";
  {
    Database file = Database::open(path);
    ASSERT_TRUE(file.executeScript(kNotesSchema)) << file.error();
    ASSERT_TRUE(file.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created, extra)", "",
                                 "notes"))
        << file.error();
  }
  Database file = Database::open(path, sqlitebridge::OpenMode::ReadOnly);
  EXPECT_TRUE(file.hasTableColumn("notes", "extra")) << file.error();
  EXPECT_EQ(scalarInteger(file, "SELECT count(*) FROM notes"), 3);
  EXPECT_EQ(scalarText(file, "PRAGMA integrity_check"), "ok");
}

// MARK: Transactions

TEST_F(UpdateTable, InsideAnOpenTransactionItWorksAndTheTransactionStaysOpen) {
  ASSERT_TRUE(db_.execute("BEGIN"));
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('in transaction')"));
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_FALSE(db_.hasTableColumn("notes", "body"));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 4);
}

TEST_F(UpdateTable, TheOuterTransactionCanRollItBack) {
  const Lines before = state();
  ASSERT_TRUE(db_.execute("BEGIN"));
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_FALSE(db_.hasTableColumn("notes", "body"));
  ASSERT_TRUE(db_.execute("ROLLBACK")) << db_.error();
  EXPECT_EQ(state(), before);
  EXPECT_TRUE(db_.hasTableColumn("notes", "body"));
}

TEST_F(UpdateTable, FailureInsideAnOpenTransactionKeepsTheTransactionAndItsEarlierWork) {
  ASSERT_TRUE(db_.execute("BEGIN"));
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('earlier work')"));
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)",
                               "INSERT INTO notes(id, title) SELECT id, missing FROM notes_old", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_TRUE(db_.isInTransaction());
  EXPECT_EQ(state(), before);
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes WHERE title = 'earlier work'"), 1);
}

TEST_F(UpdateTable, UserSavepointAroundItCanBeRolledBack) {
  const Lines before = state();
  ASSERT_TRUE(db_.execute("SAVEPOINT mine"));
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  ASSERT_TRUE(db_.execute("ROLLBACK TO mine")) << db_.error();
  ASSERT_TRUE(db_.execute("RELEASE mine")) << db_.error();
  EXPECT_EQ(state(), before);
}

// MARK: Failures leave everything untouched

TEST_F(UpdateTable, MissingTableFails) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE nowhere(x)", "", "nowhere"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
  expectUntouched(before);
}

TEST_F(UpdateTable, EmptyNameFails) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE x(y)", "", ""));
  EXPECT_TRUE(db_.lastError().isError());
  expectUntouched(before);
}

TEST_F(UpdateTable, ExistingOldTableNameFails) {
  ASSERT_TRUE(db_.executeScript("CREATE TABLE notes_old(keep); INSERT INTO notes_old VALUES ('precious');"));
  const Lines before = snapshot(db_, {"notes", "log", "notes_old"});
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)", "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("notes_old"), std::string::npos) << db_.error();
  EXPECT_EQ(snapshot(db_, {"notes", "log", "notes_old"}), before);
  EXPECT_FALSE(db_.isInTransaction());
}

TEST_F(UpdateTable, CreateThatDoesNotCreateTheTableFails) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE something_else(id INTEGER PRIMARY KEY, title TEXT)", "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("notes"), std::string::npos) << db_.error();
  expectUntouched(before);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name = 'something_else'"), 0);
}

TEST_F(UpdateTable, EmptyCreateFails) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("", "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  expectUntouched(before);
}

TEST_F(UpdateTable, ActiveReadOfTheTableMakesItFailAndLeavesEverythingUntouched) {
  const Lines before = state();
  {
    sqlitebridge::Statement reading = db_.prepare("SELECT * FROM notes");
    ASSERT_EQ(reading.step(), sqlitebridge::StepResult::Row);
    EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "",
                                 "notes"));
    EXPECT_TRUE(db_.lastError().isError());
  }
  expectUntouched(before);
}

TEST_F(UpdateTable, FailingCreateLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLEX notes(id)", "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("syntax error"), std::string::npos) << db_.error();
  expectUntouched(before);
}

TEST_F(UpdateTable, CreateFailingPartWayLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE extra(x); INSERT INTO nowhere VALUES (1)",
      "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  expectUntouched(before);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM sqlite_master WHERE name = 'extra'"), 0);
}

TEST_F(UpdateTable, FailingInsertLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)",
                               "INSERT INTO notes(id, title) SELECT id, no_such_column FROM notes_old", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no_such_column"), std::string::npos) << db_.error();
  expectUntouched(before);
}

TEST_F(UpdateTable, InsertBreakingAConstraintLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT NOT NULL)",
                               "INSERT INTO notes(id, title, body) SELECT id, title, body FROM notes_old", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_CONSTRAINT);
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_NOTNULL);
  expectUntouched(before);
}

TEST_F(UpdateTable, InsertThatRunsSeveralStatementsFailingLateLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT UNIQUE)",
                               "INSERT INTO notes SELECT id, title FROM notes_old; "
                               "INSERT INTO notes(title) VALUES ('first');",
                               "notes"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  expectUntouched(before);
}

TEST_F(UpdateTable, RecreatedIndexOnADroppedColumnFailsAndLeavesEverythingUntouched) {
  const Lines before = state();
  // notes_created indexes created, which the new table no longer has.
  EXPECT_FALSE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)", "", "notes"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("created"), std::string::npos) << db_.error();
  EXPECT_NE(db_.lastError().sql.find("notes_created"), std::string::npos) << db_.lastError().sql;
  expectUntouched(before);
  // And everything still works as before.
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES ('first')"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('fourth')"));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM log"), 1);
}

TEST_F(UpdateTable, RecreatedUniqueIndexThatNoLongerHoldsFailsAndLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)",
                               "INSERT INTO notes(id, title, created) SELECT id, 'same', created FROM notes_old",
                               "notes"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  expectUntouched(before);
}

TEST_F(UpdateTable, FailureThenSuccessWorks) {
  EXPECT_FALSE(db_.updateTable("CREATE TABLEX notes(id)", "", "notes"));
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, created INTEGER)", "", "notes"))
      << db_.error();
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 3);
}

// MARK: AUTOINCREMENT

TEST(UpdateTableAutoincrement, SequenceIsNotLowered) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);"
                       "INSERT INTO items(name) VALUES ('a'), ('b'), ('c');"
                       "DELETE FROM items WHERE id >= 2;"))
      << db.error();
  ASSERT_TRUE(
      db.updateTable("CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, extra TEXT)", "", "items"))
      << db.error();
  EXPECT_EQ(dump(db, "SELECT seq, typeof(seq) AS type FROM sqlite_sequence WHERE name = 'items'"),
            (Lines{"seq=int:3|type=text:integer"}));
  ASSERT_TRUE(db.execute("INSERT INTO items(name) VALUES ('d')"));
  EXPECT_EQ(db.lastInsertRowId(), 4);
}

TEST(UpdateTableAutoincrement, HigherSequenceReachedByTheInsertIsKept) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);"
                       "INSERT INTO items(name) VALUES ('a'), ('b'), ('c');"
                       "DELETE FROM items WHERE id >= 2;"))
      << db.error();
  // The insert adds a row above the old sequence (3): the sequence must end at 10.
  ASSERT_TRUE(db.updateTable("CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)",
                             "INSERT INTO items(id, name) SELECT id, name FROM items_old;"
                             "INSERT INTO items(id, name) VALUES (10, 'ten');",
                             "items"))
      << db.error();
  EXPECT_EQ(dump(db, "SELECT seq, typeof(seq) AS type FROM sqlite_sequence WHERE name = 'items'"),
            (Lines{"seq=int:10|type=text:integer"}));
  ASSERT_TRUE(db.execute("DELETE FROM items WHERE id = 10"));
  ASSERT_TRUE(db.execute("INSERT INTO items(name) VALUES ('next')"));
  EXPECT_EQ(db.lastInsertRowId(), 11);
}

// MARK: Foreign keys

namespace {

class UpdateTableForeignKeys : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("PRAGMA foreign_keys = ON"));
    ASSERT_TRUE(db_.executeScript(
        "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE,"
        "                   label TEXT);"
        "INSERT INTO parent VALUES (1, 'p1'), (2, 'p2');"
        "INSERT INTO child VALUES (10, 1, 'c10'), (11, 1, 'c11'), (20, 2, 'c20');"))
        << db_.error();
    childSql_ = scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'child'");
  }

  Lines state() { return snapshot(db_, {"parent", "child"}); }

  void expectForeignKeysStillOn() {
    EXPECT_EQ(scalarInteger(db_, "PRAGMA foreign_keys"), 1);
    EXPECT_FALSE(db_.execute("INSERT INTO child(id, parent_id, label) VALUES (99, 42, 'orphan')"));
    EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY);
  }

  Database db_ = Database::open(":memory:");
  std::string childSql_;
};

}  // namespace

TEST_F(UpdateTableForeignKeys, RebuildingTheParentKeepsChildReferencesAndRows) {
  const Lines childRows = dump(db_, "SELECT * FROM child ORDER BY id");
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT, rank INTEGER DEFAULT 0)", "", "parent"))
      << db_.error();
  // The child still references "parent", not "parent_old".
  EXPECT_EQ(scalarText(db_, "SELECT sql FROM sqlite_master WHERE name = 'child'"), childSql_);
  EXPECT_EQ(childSql_.find("parent_old"), std::string::npos);
  EXPECT_EQ(foreignKeyTables(db_, "child"), (Lines{"parent"}));
  // Dropping the old parent did not cascade into the child.
  EXPECT_EQ(dump(db_, "SELECT * FROM child ORDER BY id"), childRows);
  EXPECT_TRUE(dump(db_, "PRAGMA foreign_key_check").empty());
  expectForeignKeysStillOn();
  // ON DELETE CASCADE still points at the new parent.
  ASSERT_TRUE(db_.execute("DELETE FROM parent WHERE id = 2")) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM child WHERE parent_id = 2"), 0);
}

TEST_F(UpdateTableForeignKeys, RebuildingTheParentDroppingAReferencedRowFailsWith787AndLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT)",
                               "INSERT INTO parent SELECT * FROM parent_old WHERE id <> 1", "parent"));
  EXPECT_EQ(db_.lastError().code, SQLITE_CONSTRAINT);
  EXPECT_EQ(db_.lastError().extendedCode, 787);
  EXPECT_NE(db_.error().find("foreign key"), std::string::npos) << db_.error();
  EXPECT_EQ(state(), before);
  EXPECT_FALSE(db_.isInTransaction());
  expectForeignKeysStillOn();
}

TEST_F(UpdateTableForeignKeys, RebuildingTheChildWithABrokenReferenceFailsWith787AndLeavesEverythingUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable(
      "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE,"
      " label TEXT)",
      "INSERT INTO child SELECT id, CASE WHEN id = 20 THEN 999 ELSE parent_id END, label FROM child_old", "child"));
  EXPECT_EQ(db_.lastError().code, SQLITE_CONSTRAINT);
  EXPECT_EQ(db_.lastError().extendedCode, 787);
  EXPECT_EQ(state(), before);
  expectForeignKeysStillOn();
}

TEST_F(UpdateTableForeignKeys, ValidRebuildOfTheChildWorksAndKeepsEnforcement) {
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE,"
      " label TEXT, note TEXT)",
      "", "child"))
      << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM child"), 3);
  expectForeignKeysStillOn();
}

TEST_F(UpdateTableForeignKeys, InsideATransactionRebuildingAnUnreferencedTableWorks) {
  ASSERT_TRUE(db_.execute("BEGIN"));
  ASSERT_TRUE(db_.updateTable(
      "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE,"
      " label TEXT, note TEXT)",
      "", "child"))
      << db_.error();
  ASSERT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM child"), 3);
  expectForeignKeysStillOn();
}

TEST_F(UpdateTableForeignKeys, InsideATransactionRebuildingAReferencedTableFailsWithMisuse) {
  const Lines before = state();
  ASSERT_TRUE(db_.execute("BEGIN"));
  EXPECT_FALSE(db_.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT, extra)", "", "parent"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("COMMIT"));
  EXPECT_EQ(state(), before);
  expectForeignKeysStillOn();
}

TEST_F(UpdateTableForeignKeys, SelfReferencingTableKeepsItsReferenceToItself) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE tree(id INTEGER PRIMARY KEY, up INTEGER REFERENCES tree(id));"
                        "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2);"))
      << db_.error();
  ASSERT_TRUE(db_.updateTable("CREATE TABLE tree(id INTEGER PRIMARY KEY, up INTEGER REFERENCES tree(id), name TEXT)",
                              "", "tree"))
      << db_.error();
  EXPECT_EQ(foreignKeyTables(db_, "tree"), (Lines{"tree"}));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM tree"), 3);
  EXPECT_FALSE(db_.execute("INSERT INTO tree VALUES (4, 99, 'x')"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY);
}

TEST_F(UpdateTableForeignKeys, FailureForAnotherReasonAlsoRestoresForeignKeys) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLEX parent(id)", "", "parent"));
  EXPECT_EQ(state(), before);
  expectForeignKeysStillOn();
}

TEST(UpdateTableForeignKeysOff, RebuildIsNotCheckedWhenForeignKeysAreOff) {
  sqlitebridge::Configuration configuration;
  configuration.foreignKeys = false;
  Database db = Database::open(":memory:", configuration);
  ASSERT_TRUE(
      db.executeScript("CREATE TABLE parent(id INTEGER PRIMARY KEY);"
                       "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));"
                       "INSERT INTO parent VALUES (1); INSERT INTO child VALUES (10, 1);"))
      << db.error();
  const std::string childSql = scalarText(db, "SELECT sql FROM sqlite_master WHERE name = 'child'");
  ASSERT_TRUE(db.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, extra)",
                             "INSERT INTO parent(id) SELECT id FROM parent_old WHERE id <> 1", "parent"))
      << db.error();
  EXPECT_EQ(scalarInteger(db, "PRAGMA foreign_keys"), 0);
  EXPECT_EQ(scalarText(db, "SELECT sql FROM sqlite_master WHERE name = 'child'"), childSql);
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM child"), 1);
}
