// Database::execute: exactly one statement, argument binding, results, and
// the connection state it leaves (last rowid, changes).
#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

class Execute : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT)")) << db_.error();
  }
  std::int64_t count() { return scalarInteger(db_, "SELECT count(*) FROM notes"); }
  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(Execute, ReturnsEveryRowInOrder) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a'), ('b'), ('c')"));
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT id, title FROM notes ORDER BY id DESC", &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].value("title"), Value("c"));
  EXPECT_EQ(rows[1].value("title"), Value("b"));
  EXPECT_EQ(rows[2].value("title"), Value("a"));
  EXPECT_EQ(rows[2].value("id"), Value(1));
}

TEST_F(Execute, ResultsAreAppendedToWhatTheVectorHolds) {
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT 1 AS n", &rows));
  ASSERT_TRUE(db_.execute("SELECT 2 AS n UNION ALL SELECT 3", &rows));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].value("n"), Value(1));
  EXPECT_EQ(rows[1].value("n"), Value(2));
  EXPECT_EQ(rows[2].value(0), Value(3));
}

TEST_F(Execute, StatementWithoutRowsLeavesResultsUnchanged) {
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT 1", &rows));
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('x')", &rows));
  ASSERT_TRUE(db_.execute("SELECT * FROM notes WHERE id < 0", &rows));
  EXPECT_EQ(rows.size(), 1u);
  EXPECT_EQ(count(), 1);
}

TEST_F(Execute, ColumnNamesAreAsSqlNamesThem) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title, body) VALUES ('t', 'b')"));
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT title AS heading, body, id + 1, notes.id FROM notes", &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].columnName(0), "heading");
  EXPECT_EQ(rows[0].columnName(1), "body");
  EXPECT_EQ(rows[0].columnName(2), "id + 1");
  EXPECT_EQ(rows[0].columnName(3), "id");
  EXPECT_FALSE(rows[0].hasColumn("title"));
}

TEST_F(Execute, RowsAreNotAppendedWhenTheStatementFailsPartWay) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id) VALUES (1), (2), (3)"));
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT 'kept'", &rows));
  // abs() of the smallest integer overflows: the third row fails.
  EXPECT_FALSE(db_.execute(
      "SELECT CASE WHEN id = 3 THEN abs(-9223372036854775807 - 1) ELSE id END FROM notes ORDER BY id", &rows));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("integer overflow"), std::string::npos) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0), Value("kept"));
}

TEST_F(Execute, TrailingSqlIsAMisuseErrorAndNothingRuns) {
  const std::string sql = "INSERT INTO notes(title) VALUES ('one'); INSERT INTO notes(title) VALUES ('two')";
  EXPECT_FALSE(db_.execute(sql));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_MISUSE);
  EXPECT_EQ(error.extendedCode, SQLITE_MISUSE);
  EXPECT_EQ(error.sql, sql);
  EXPECT_NE(error.message.find("INSERT INTO notes(title) VALUES ('two')"), std::string::npos) << error.message;
  EXPECT_EQ(count(), 0);
}

TEST_F(Execute, TrailingGarbageIsAnErrorEvenWhenItIsNotValidSql) {
  EXPECT_FALSE(db_.execute("SELECT 1; nonsense"));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
}

TEST_F(Execute, TrailingWhitespaceCommentsAndSemicolonsAreFine) {
  for (const char* sql :
       {"INSERT INTO notes(title) VALUES ('a');", "INSERT INTO notes(title) VALUES ('a') ;;  \n\t",
        "INSERT INTO notes(title) VALUES ('a'); -- done", "INSERT INTO notes(title) VALUES ('a') /* x */",
        "INSERT INTO notes(title) VALUES ('a'); /* unterminated",
        "  -- lead\nINSERT INTO notes(title) VALUES ('a') -- trail"}) {
    EXPECT_TRUE(db_.execute(sql)) << sql << ": " << db_.error();
  }
  EXPECT_EQ(count(), 6);
}

TEST_F(Execute, EmptySqlIsAnError) {
  for (const char* sql : {"", "  \n ", "-- nothing", ";;"}) {
    EXPECT_FALSE(db_.execute(sql)) << "'" << sql << "'";
    EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << "'" << sql << "'";
    EXPECT_FALSE(db_.error().empty());
  }
}

TEST_F(Execute, NulByteInTheSqlIsAnErrorNotATruncation) {
  const std::string sql("INSERT INTO notes(title) VALUES ('a')\0INSERT INTO notes(title) VALUES ('b')", 75);
  EXPECT_FALSE(db_.execute(sql));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(count(), 0);
}

TEST_F(Execute, SyntaxErrorCarriesCodeMessageAndSql) {
  EXPECT_FALSE(db_.execute("SELEKT * FROM notes"));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_ERROR);
  EXPECT_EQ(error.extendedCode, SQLITE_ERROR);
  EXPECT_NE(error.message.find("syntax error"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, "SELEKT * FROM notes");
  EXPECT_EQ(db_.error(), error.message);
}

TEST_F(Execute, BindsPositionalArguments) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title, body) VALUES (?, ?)", {Value("t"), Value("b")})) << db_.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT title, body FROM notes WHERE title = ?", {Value("t")}, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value("body"), Value("b"));
}

TEST_F(Execute, TooFewArgumentsFailWithRangeAndNothingRuns) {
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title, body) VALUES (?, ?)", {Value("only one")}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(db_.lastError().sql, "INSERT INTO notes(title, body) VALUES (?, ?)");
  EXPECT_NE(db_.error().find("2"), std::string::npos) << db_.error();
  EXPECT_EQ(count(), 0);
}

TEST_F(Execute, TooManyArgumentsFailWithRangeAndNothingRuns) {
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES (?)", {Value("a"), Value("b")}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES ('x')", {Value("extra")}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(count(), 0);
}

TEST_F(Execute, ParametersWithoutArgumentsFailWithRange) {
  EXPECT_FALSE(db_.execute("INSERT INTO notes(title) VALUES (?)"));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  Row row;
  EXPECT_FALSE(db_.execute("SELECT ?", row));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(db_.execute("SELECT ?", std::vector<Value>{}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(count(), 0);
}

TEST_F(Execute, NumberedParametersBindByTheirNumber) {
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT ?2 AS second, ?1 AS first, ?1 || ?2 AS both", {Value("a"), Value("b")}, &rows))
      << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value("second"), Value("b"));
  EXPECT_EQ(rows[0].value("first"), Value("a"));
  EXPECT_EQ(rows[0].value("both"), Value("ab"));
}

TEST_F(Execute, HighestNumberedParameterSetsTheArgumentCount) {
  // ?3 alone makes three parameters; ?1 and ?2 are unused (NULL) but counted.
  EXPECT_FALSE(db_.execute("SELECT ?3", {Value(1)}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT ?3", {Value(1), Value(2), Value(3)}, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0), Value(3));
}

TEST_F(Execute, NamedParametersAreBoundPositionally) {
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT :b AS b, @a AS a, :b AS again, $c AS c", {Value(1), Value(2), Value(3)}, &rows))
      << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  // :b is parameter 1, @a parameter 2, $c parameter 3; a repeated name is one parameter.
  EXPECT_EQ(rows[0].value("b"), Value(1));
  EXPECT_EQ(rows[0].value("a"), Value(2));
  EXPECT_EQ(rows[0].value("again"), Value(1));
  EXPECT_EQ(rows[0].value("c"), Value(3));
  EXPECT_FALSE(db_.execute("SELECT :x, :x", {Value(1), Value(2)}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
}

TEST_F(Execute, RowOverloadGivesTheFirstRow) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('first'), ('second')"));
  Row row;
  ASSERT_TRUE(db_.execute("SELECT title FROM notes ORDER BY id", row)) << db_.error();
  ASSERT_EQ(row.size(), 1u);
  EXPECT_EQ(row.columnName(0), "title");
  EXPECT_EQ(row.value("title"), Value("first"));
}

TEST_F(Execute, RowOverloadGivesAnEmptyRowWhenThereAreNone) {
  Row row;
  ASSERT_TRUE(db_.execute("SELECT 1 AS filled", row));
  ASSERT_EQ(row.size(), 1u);
  ASSERT_TRUE(db_.execute("SELECT title FROM notes", row)) << db_.error();
  EXPECT_TRUE(row.empty());
  EXPECT_EQ(row.size(), 0u);
  EXPECT_FALSE(row.hasColumn("title"));
}

TEST_F(Execute, RowOverloadRunsTheStatementToCompletion) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a'), ('b'), ('c')"));
  Row row;
  ASSERT_TRUE(db_.execute("UPDATE notes SET body = 'done' RETURNING id", row)) << db_.error();
  EXPECT_EQ(row.size(), 1u);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes WHERE body = 'done'"), 3);
}

TEST_F(Execute, LastInsertRowIdAndChangesFollowTheLastStatement) {
  ASSERT_TRUE(db_.execute("INSERT INTO notes(id, title) VALUES (41, 'a')"));
  EXPECT_EQ(db_.lastInsertRowId(), 41);
  EXPECT_EQ(db_.changes(), 1);
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('b'), ('c')"));
  EXPECT_EQ(db_.lastInsertRowId(), 43);
  EXPECT_EQ(db_.changes(), 2);
  ASSERT_TRUE(db_.execute("UPDATE notes SET body = 'x' WHERE id > 41"));
  EXPECT_EQ(db_.changes(), 2);
  ASSERT_TRUE(db_.execute("DELETE FROM notes"));
  EXPECT_EQ(db_.changes(), 3);
  EXPECT_EQ(db_.lastInsertRowId(), 43);
}

TEST_F(Execute, ErrorIsClearedByTheNextSuccessfulCall) {
  EXPECT_FALSE(db_.execute("SELECT * FROM nowhere"));
  ASSERT_TRUE(db_.lastError().isError());
  ASSERT_FALSE(db_.error().empty());
  ASSERT_TRUE(db_.execute("SELECT 1"));
  const auto error = db_.lastError();
  EXPECT_FALSE(error.isError());
  EXPECT_EQ(error.code, 0);
  EXPECT_EQ(error.extendedCode, 0);
  EXPECT_EQ(error.message, "");
  EXPECT_EQ(error.sql, "");
  EXPECT_EQ(db_.error(), "");
}

TEST_F(Execute, ScriptRunsEveryStatement) {
  ASSERT_TRUE(db_.executeScript(
      "INSERT INTO notes(title) VALUES ('a');\n"
      "CREATE TABLE log(msg);\n"
      "CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.title); END;\n"
      "INSERT INTO notes(title) VALUES ('b'); -- trailing comment"))
      << db_.error();
  EXPECT_EQ(count(), 2);
  EXPECT_EQ(dump(db_, "SELECT msg FROM log"), (std::vector<std::string>{"msg=text:b"}));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(Execute, ScriptStopsAtTheFirstFailureAndReportsThatStatement) {
  EXPECT_FALSE(db_.executeScript(
      "INSERT INTO notes(title) VALUES ('a'); INSERT INTO nowhere VALUES (1); INSERT INTO notes(title) VALUES ('c')"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table"), std::string::npos);
  // Exactly the failing statement: no leading whitespace, nothing after it.
  EXPECT_EQ(db_.lastError().sql, "INSERT INTO nowhere VALUES (1);");
  // The statement before the failure stays applied.
  EXPECT_EQ(dump(db_, "SELECT title FROM notes"), (std::vector<std::string>{"title=text:a"}));
}

TEST_F(Execute, ScriptWithANulByteFailsInsteadOfDroppingTheRest) {
  const std::string sql("INSERT INTO notes(title) VALUES ('a');\0INSERT INTO notes(title) VALUES ('b');", 77);
  EXPECT_FALSE(db_.executeScript(sql));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM notes WHERE title = 'b'"), 0);
}

TEST_F(Execute, EmptyScriptSucceedsAndDoesNothing) {
  EXPECT_TRUE(db_.executeScript("")) << db_.error();
  EXPECT_TRUE(db_.executeScript("  -- only a comment\n;")) << db_.error();
  EXPECT_EQ(count(), 0);
}

TEST_F(Execute, IsInTransactionFollowsBeginAndCommit) {
  EXPECT_FALSE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("BEGIN"));
  EXPECT_TRUE(db_.isInTransaction());
  ASSERT_TRUE(db_.execute("INSERT INTO notes(title) VALUES ('a')"));
  ASSERT_TRUE(db_.execute("ROLLBACK"));
  EXPECT_FALSE(db_.isInTransaction());
  EXPECT_EQ(count(), 0);
}
