// Regression tests for bugs the libFuzzer targets (Fuzz/, scripts/fuzz)
// found, one per bug, each named after the behaviour it pins down.
#include <cstring>

#include "TestSupport.hpp"

using namespace std::string_literals;

using sqlitebridge::Database;
using sqlitebridge::Location;
using namespace sqlitebridge_test;

namespace {

using Lines = std::vector<std::string>;

// A table with rows and an index and trigger of its own, a child table
// referencing it, and an unrelated parent/child pair.
const char* const kSchema =
    "CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL);"
    "CREATE INDEX items_title ON items(title);"
    "CREATE TABLE log(msg);"
    "CREATE TRIGGER items_audit AFTER UPDATE ON items BEGIN INSERT INTO log VALUES (new.title); END;"
    "CREATE TABLE child(id INTEGER PRIMARY KEY, item_id INTEGER REFERENCES items(id));"
    "CREATE TABLE owner(id INTEGER PRIMARY KEY);"
    "CREATE TABLE pet(id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owner(id));"
    "INSERT INTO items VALUES (1, 'apple'), (2, 'pear');"
    "INSERT INTO child VALUES (1, 1);"
    "INSERT INTO owner VALUES (1);"
    "INSERT INTO pet VALUES (1, 1);";

class FuzzRegressionUpdateTable : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.executeScript(kSchema)) << db_.error();
  }
  Lines state() { return snapshot(db_, {"items", "log", "child", "owner", "pet"}); }

  Database db_ = Database::open(":memory:");
};

}  // namespace

// Found by update_table: a COMMIT in `create` ended the savepoint the rebuild
// runs in, so the failure that followed could not roll back: "items" stayed
// renamed to "items_old" next to a new, empty "items".
TEST_F(FuzzRegressionUpdateTable, CommitInCreateFailsWithMisuseAndLeavesTheTableUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("COMMIT; CREATE TABLE items(x)", "", "items"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_NE(db_.error().find("COMMIT"), std::string::npos) << db_.error();
  EXPECT_EQ(state(), before);
  EXPECT_FALSE(db_.isInTransaction());
}

// The same through `insert`, with a failure after it that must still roll
// back the rename.
TEST_F(FuzzRegressionUpdateTable, EndInInsertFailsWithMisuseAndLeavesTheTableUntouched) {
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, extra)",
                               "INSERT INTO items(id, title) SELECT id, title FROM items_old; END TRANSACTION",
                               "items"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(state(), before);
}

// Inside the caller's transaction: RELEASE of the rebuild's own savepoint
// would publish the half-done rebuild into the caller's transaction.
TEST_F(FuzzRegressionUpdateTable, ReleasingTheRebuildSavepointFailsWithMisuseAndKeepsTheCallersTransaction) {
  ASSERT_TRUE(db_.executeScript("BEGIN; INSERT INTO log VALUES ('caller')")) << db_.error();
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("RELEASE sqlitebridge_update_table; CREATE TABLE items(x)", "", "items"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(state(), before);
  EXPECT_TRUE(db_.isInTransaction());
  EXPECT_TRUE(db_.execute("COMMIT")) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM log WHERE msg = 'caller'"), 1);
}

// Statements that merely mention the words still run.
TEST_F(FuzzRegressionUpdateTable, SqlThatOnlyMentionsTransactionWordsStillWorks) {
  ASSERT_TRUE(db_.updateTable(
      "/* COMMIT */ CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, \"commit\" TEXT DEFAULT 'end')",
      "-- ROLLBACK\nINSERT INTO items(id, title) SELECT id, title FROM items_old", "items"))
      << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM items WHERE \"commit\" = 'end'"), 2);
}

// Found by update_table: with foreign keys on, enforcement is paused for the
// rebuild, and only the rebuilt table and its children were checked after,
// so `create` could break a foreign key in any other table unnoticed.
TEST_F(FuzzRegressionUpdateTable, ForeignKeyBrokenElsewhereByCreateFailsWith787AndLeavesEverythingUntouched) {
  ASSERT_TRUE(db_.execute("PRAGMA foreign_keys = ON"));
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable(
      "CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, extra); INSERT INTO pet VALUES (2, 99)", "",
      "items"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY);
  EXPECT_NE(db_.error().find("pet"), std::string::npos) << db_.error();
  EXPECT_EQ(state(), before);
  EXPECT_TRUE(dump(db_, "PRAGMA foreign_key_check").empty());
  EXPECT_EQ(scalarInteger(db_, "PRAGMA foreign_keys"), 1);
}

TEST_F(FuzzRegressionUpdateTable, ForeignKeyBrokenElsewhereByInsertFailsWith787) {
  ASSERT_TRUE(db_.execute("PRAGMA foreign_keys = ON"));
  const Lines before = state();
  EXPECT_FALSE(db_.updateTable("CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, extra)",
                               "INSERT INTO items(id, title) SELECT id, title FROM items_old; DELETE FROM owner",
                               "items"));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_FOREIGNKEY);
  EXPECT_EQ(state(), before);
}

// Found by database_name: a createSQL that commits and then switches to
// journal_mode PERSIST (or TRUNCATE) left the temporary file's journal,
// ".sqlitebridge-<pid>-<n>-<n>.tmp-journal", in the documents directory
// after a successful first open.
TEST(FuzzRegressionOpenByName, CreateScriptWithAPersistentJournalLeavesNoTemporaryFileBehind) {
  TempDir root;
  const std::string docs = root.makeSubdirectory("docs");
  for (const char* mode : {"PERSIST", "TRUNCATE"}) {
    const std::string name = std::string(mode) + ".db";
    {
      Database db(
          name, std::string("COMMIT; PRAGMA journal_mode = ") + mode + "; CREATE TABLE t(x); INSERT INTO t VALUES (1)",
          Location{docs, ""});
      ASSERT_TRUE(db.isOpen()) << db.error();
      EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 1);
    }
    std::vector<std::string> left = listDirectory(docs);
    left.erase(std::remove_if(left.begin(), left.end(),
                              [](const std::string& entry) { return entry.find(".tmp") == std::string::npos; }),
               left.end());
    EXPECT_TRUE(left.empty()) << mode << ": left " << left[0];
  }
  EXPECT_EQ(listDirectory(docs), (Lines{"PERSIST.db", "TRUNCATE.db"}));
}

// Found by execute_sql: a NUL byte inside a comment after the statement was
// skipped as comment text, so the bytes after it ("/*\0...(LEC1T 2;\0 SELECT
// 3") were silently dropped, though SQLite's text ends at the NUL.
TEST(FuzzRegressionExecute, ANulByteInATrailingCommentIsMisuseAndNothingRuns) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.executeScript("CREATE TABLE t(v); INSERT INTO t VALUES (1);")) << db.error();
  const std::vector<std::string> texts = {
      "SELECT 1; /*\0\0(LEC1T 2;\0 SELECT 3s"s,
      "INSERT INTO t VALUES (2); /* \0 */ DROP TABLE t"s,
      "INSERT INTO t VALUES (2) -- note\0\nDROP TABLE t"s,
      "INSERT INTO t VALUES (2) /* note */\0"s,
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(db.execute(text));
    EXPECT_EQ(db.lastError().code, SQLITE_MISUSE) << db.error();
    EXPECT_FALSE(db.prepare(text).isValid());
    EXPECT_EQ(db.lastError().code, SQLITE_MISUSE) << db.error();
    EXPECT_FALSE(db.validate(text));
  }
  EXPECT_EQ(dump(db, "SELECT v FROM t"), (Lines{"v=int:1"}));
  // A script runs the statements before the NUL, none after it.
  EXPECT_FALSE(db.executeScript("INSERT INTO t VALUES (3); /* \0 */ DROP TABLE t;"s));
  EXPECT_EQ(db.lastError().code, SQLITE_MISUSE) << db.error();
  EXPECT_EQ(dump(db, "SELECT v FROM t ORDER BY v"), (Lines{"v=int:1", "v=int:3"}));
  // Comments without NUL stay fine.
  EXPECT_TRUE(db.execute("SELECT 1; /* unterminated")) << db.error();
  EXPECT_TRUE(db.execute("SELECT 1 -- note")) << db.error();
}

// Found by table_helpers (300 s): a real DEFAULT written with 17 significant
// digits ("2.2250738594814264e-306") that SQLite 3.40 reads back one bit off,
// so the default a row got was not the value asked for.
TEST(FuzzRegressionTableHelpers, ARealDefaultSQLiteMisreadsAt17DigitsReadsBackBitForBit) {
  Database db = Database::open(":memory:");
  const std::uint64_t bits = 0x0079'0000'002f'033dULL;
  double real = 0;
  std::memcpy(&real, &bits, sizeof real);
  ASSERT_TRUE(db.createTable(
      "t", {sqlitebridge::ColumnDefinition("a"),
            sqlitebridge::ColumnDefinition("b", "", false, false, false, false, sqlitebridge::Value(real))}))
      << db.error();
  ASSERT_TRUE(db.insert("t", {{"a", "x"}})) << db.error();
  sqlitebridge::Row row;
  ASSERT_TRUE(db.execute("SELECT b FROM t", row)) << db.error();
  const double read = row.value(0).asReal();
  EXPECT_EQ(std::memcmp(&read, &real, sizeof read), 0) << describe(row.value(0));
}

// Found by table_helpers (CI, 15 s): a column REFERENCES sqlite_master. SQLite
// creates the key, and from then on every schema change deletes from its
// parent and fails with "foreign key mismatch": the table could not even be
// dropped. The helper refuses the reference; other tables stay droppable.
TEST(FuzzRegressionTableHelpers, AReferenceToSQLitesOwnTableIsRefusedSoTheSchemaStaysChangeable) {
  Database db = Database::open(":memory:");
  sqlitebridge::ColumnDefinition column("b");
  column.references = "sqlite_master";
  EXPECT_FALSE(db.createTable("s", {sqlitebridge::ColumnDefinition("a"), column}));
  EXPECT_TRUE(db.lastError().is(sqlitebridge::ResultCode::Misuse)) << db.error();
  EXPECT_FALSE(db.tableExists("s"));
  ASSERT_TRUE(db.createTable("t", {sqlitebridge::ColumnDefinition("a")})) << db.error();
  ASSERT_TRUE(db.dropTable("t")) << db.error();
}

TEST(FuzzRegressionTableHelpers, ATableNamedTheEmptyStringIsFoundByEveryCall) {
  // SQLite makes a table called "": the schema calls must find it, as they
  // find any other name (they once took "" for no name).
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.createTable("", {sqlitebridge::ColumnDefinition("a"), sqlitebridge::ColumnDefinition("b")}))
      << db.error();
  EXPECT_TRUE(db.tableExists("")) << db.error();
  std::vector<std::string> names;
  ASSERT_TRUE(db.tableColumns("", names)) << db.error();
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(db.tableColumns("main.", names)) << db.error();
  EXPECT_EQ(names.size(), 2u);
  ASSERT_TRUE(db.insert("", {{"a", 1}, {"b", 2}})) << db.error();
  EXPECT_EQ(scalarInteger(db, "SELECT a + b FROM \"\""), 3);
  ASSERT_TRUE(db.dropTable("")) << db.error();
  EXPECT_FALSE(db.tableExists(""));
  EXPECT_FALSE(db.lastError().isError());
  EXPECT_FALSE(db.tableColumns("", names));
  EXPECT_EQ(db.error(), "no such table: ");
}

TEST_F(FuzzRegressionUpdateTable, AnIndexCreateMakesUnderAnotherCaseOfItsNameIsTheOneKept) {
  // create makes "Items_title" itself: that is the index items_title (names
  // ignore ASCII case), so the old definition is not recreated beside it.
  ASSERT_TRUE(
      db_.updateTable("CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT NOT NULL, qty INT);"
                      "CREATE INDEX Items_title ON items(title, qty)",
                      "", "ITEMS"))
      << db_.error();
  EXPECT_EQ(dump(db_, "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items'"),
            (Lines{"name=text:Items_title|sql=text:CREATE INDEX Items_title ON items(title, qty)"}));
  EXPECT_EQ(scalarText(db_, "PRAGMA integrity_check"), "ok");
}
