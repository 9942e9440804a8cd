// hasTableColumn and tableColumns: answers from PRAGMA table_xinfo, any table
// name kept a name, and a missing table reported as an error.
#include "SQLiteVersionSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Database;
using namespace sqlitebridge_test;

namespace {

using Names = std::vector<std::string>;

class Schema : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, Title TEXT, body TEXT)")) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('x')")) << db_.error();
  }

  void expectNoSuchTable(const char* what) {
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR) << what;
    EXPECT_EQ(db_.lastError().extendedCode, SQLITE_ERROR) << what;
    EXPECT_NE(db_.error().find("no such table"), std::string::npos) << what << ": " << db_.error();
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(Schema, TableColumnsListsColumnsInDeclarationOrder) {
  Names columns;
  ASSERT_TRUE(db_.tableColumns("notes", columns)) << db_.error();
  EXPECT_EQ(columns, (Names{"id", "Title", "body"}));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(Schema, TableColumnsReplacesWhatTheVectorHeld) {
  Names columns{"stale", "entries"};
  ASSERT_TRUE(db_.tableColumns("notes", columns)) << db_.error();
  EXPECT_EQ(columns, (Names{"id", "Title", "body"}));
}

TEST_F(Schema, HasTableColumnAnswersTrueAndFalse) {
  EXPECT_TRUE(db_.hasTableColumn("notes", "body"));
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_FALSE(db_.hasTableColumn("notes", "missing"));
  // A plain "no" is not an error.
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_EQ(db_.error(), "");
  EXPECT_FALSE(db_.hasTableColumn("notes", ""));
  EXPECT_FALSE(db_.hasTableColumn("notes", "bod"));
  EXPECT_FALSE(db_.hasTableColumn("notes", "body "));
}

TEST_F(Schema, TableAndColumnNamesAreCaseInsensitive) {
  EXPECT_TRUE(db_.hasTableColumn("NOTES", "TITLE"));
  EXPECT_TRUE(db_.hasTableColumn("Notes", "title"));
  EXPECT_TRUE(db_.hasTableColumn("notes", "BoDy"));
  Names columns;
  ASSERT_TRUE(db_.tableColumns("nOtEs", columns)) << db_.error();
  EXPECT_EQ(columns, (Names{"id", "Title", "body"}));  // names as declared
}

TEST_F(Schema, MissingTableIsAnErrorNotAnEmptyList) {
  Names columns{"stale"};
  EXPECT_FALSE(db_.tableColumns("nowhere", columns));
  EXPECT_TRUE(columns.empty());
  expectNoSuchTable("tableColumns");
  EXPECT_NE(db_.error().find("nowhere"), std::string::npos) << db_.error();
}

TEST_F(Schema, MissingTableIsAnErrorNotPlainFalse) {
  EXPECT_FALSE(db_.hasTableColumn("nowhere", "id"));
  expectNoSuchTable("hasTableColumn");
  // Then a successful lookup clears it again.
  EXPECT_TRUE(db_.hasTableColumn("notes", "id"));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(Schema, EmptyTableNameIsAMissingTable) {
  Names columns;
  EXPECT_FALSE(db_.tableColumns("", columns));
  expectNoSuchTable("empty name");
}

TEST_F(Schema, IdentifiersThatNeedQuotingWork) {
  ASSERT_TRUE(db_.execute("CREATE TABLE \"my \"\"odd\"\" table\"(\"a \"\"b\"\" c\", \"with space\", [semi;colon])"))
      << db_.error();
  Names columns;
  ASSERT_TRUE(db_.tableColumns("my \"odd\" table", columns)) << db_.error();
  EXPECT_EQ(columns, (Names{"a \"b\" c", "with space", "semi;colon"}));
  EXPECT_TRUE(db_.hasTableColumn("my \"odd\" table", "a \"b\" c"));
  EXPECT_TRUE(db_.hasTableColumn("MY \"ODD\" TABLE", "WITH SPACE"));
  EXPECT_FALSE(db_.hasTableColumn("my \"odd\" table", "with"));
  EXPECT_FALSE(db_.hasTableColumn("my odd table", "with space"));
  expectNoSuchTable("unquoted variant");
}

TEST_F(Schema, TableNamedLikeAnInjectionIsJustAName) {
  ASSERT_TRUE(db_.execute("CREATE TABLE \"x; DROP TABLE notes\"(y)")) << db_.error();
  Names columns;
  ASSERT_TRUE(db_.tableColumns("x; DROP TABLE notes", columns)) << db_.error();
  EXPECT_EQ(columns, (Names{"y"}));
  EXPECT_TRUE(db_.hasTableColumn("x; DROP TABLE notes", "y"));
  EXPECT_TRUE(db_.hasTableColumn("notes", "id"));
}

TEST_F(Schema, InjectionLookingNamesRunNothing) {
  const std::vector<std::string> hostile{"x; DROP TABLE notes",
                                         "notes; DROP TABLE notes",
                                         "notes'); DROP TABLE notes; --",
                                         "notes\"); DROP TABLE notes; --",
                                         "notes) ; DELETE FROM notes; --",
                                         "') UNION SELECT 'evil' --"};
  for (const std::string& name : hostile) {
    Names columns;
    EXPECT_FALSE(db_.tableColumns(name, columns)) << name;
    EXPECT_TRUE(columns.empty()) << name;
    expectNoSuchTable(name.c_str());
    EXPECT_FALSE(db_.hasTableColumn(name, "id")) << name;
    expectNoSuchTable(name.c_str());
  }
  EXPECT_TRUE(db_.hasTableColumn("notes", "id"));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes"), 1);
}

TEST_F(Schema, GeneratedColumnsAreListed) {
  ASSERT_TRUE(db_.execute("CREATE TABLE g(a INTEGER, b INTEGER, total AS (a + b) VIRTUAL, twice AS (a * 2) STORED)"))
      << db_.error();
  Names columns;
  ASSERT_TRUE(db_.tableColumns("g", columns)) << db_.error();
  EXPECT_EQ(columns, (Names{"a", "b", "total", "twice"}));
  EXPECT_TRUE(db_.hasTableColumn("g", "total"));
  EXPECT_TRUE(db_.hasTableColumn("g", "TWICE"));
}

TEST_F(Schema, HiddenColumnsOfVirtualTablesAreListed) {
  if (!sqlite3_compileoption_used("ENABLE_FTS5")) GTEST_SKIP() << "SQLite built without FTS5";
  ASSERT_TRUE(db_.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body)")) << db_.error();
  Names columns;
  ASSERT_TRUE(db_.tableColumns("docs", columns)) << db_.error();
  // FTS5's hidden columns: one named after the table, and rank.
  EXPECT_EQ(columns, (Names{"title", "body", "docs", "rank"}));
  EXPECT_TRUE(db_.hasTableColumn("docs", "rank"));
}

TEST_F(Schema, WithoutRowidAndTemporaryTablesWork) {
  ASSERT_TRUE(db_.execute("CREATE TABLE kv(k TEXT PRIMARY KEY, v) WITHOUT ROWID")) << db_.error();
  ASSERT_TRUE(db_.execute("CREATE TEMP TABLE scratch(s)")) << db_.error();
  EXPECT_TRUE(db_.hasTableColumn("kv", "v"));
  EXPECT_TRUE(db_.hasTableColumn("scratch", "s"));
}

TEST_F(Schema, TableColumnsSeeSchemaChanges) {
  ASSERT_TRUE(db_.execute("ALTER TABLE notes ADD COLUMN added TEXT")) << db_.error();
  EXPECT_TRUE(db_.hasTableColumn("notes", "added"));
  ASSERT_TRUE(db_.execute("DROP TABLE notes")) << db_.error();
  EXPECT_FALSE(db_.hasTableColumn("notes", "id"));
  expectNoSuchTable("dropped table");
}
