// Scripts: executeScript with a per-row callback, walking a script by hand
// with prepareNext, and validate (prepare without running).
#include <cstddef>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

class Scripts : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE a(x INTEGER UNIQUE)")) << db_.error();
  }
  std::int64_t count(const std::string& table = "a") { return scalarInteger(db_, "SELECT count(*) FROM " + table); }

  /// A callback that records "column=value" for every row it sees.
  auto recorder(std::vector<std::string>& seen) {
    return [&seen](const RowView& row) {
      std::string line;
      for (int i = 0; i < row.size(); ++i) {
        if (i > 0) line += "|";
        line += row.columnName(i) + "=" + describe(row.value(i));
      }
      seen.push_back(line);
    };
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

// MARK: executeScript with rows

TEST_F(Scripts, CallbackSeesTheRowsOfEveryStatementInOrder) {
  std::vector<std::string> seen;
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE b(y TEXT);\n"
                        "INSERT INTO a VALUES (2), (1);\n"
                        "SELECT x FROM a ORDER BY x;\n"
                        "INSERT INTO b VALUES ('no rows from me');\n"
                        "SELECT 'done' AS status, count(*) AS n FROM b;\n"
                        "INSERT INTO a VALUES (3) RETURNING x AS inserted",
                        recorder(seen)))
      << db_.error();
  EXPECT_EQ(seen, (std::vector<std::string>{"x=int:1", "x=int:2", "status=text:done|n=int:1", "inserted=int:3"}));
  EXPECT_EQ(count(), 3);
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(Scripts, CallbackMayReadTypedValues) {
  std::int64_t total = 0;
  ASSERT_TRUE(db_.executeScript("INSERT INTO a VALUES (5), (7); SELECT x FROM a; SELECT 100 AS x;",
                                [&](const RowView& row) {
                                  std::int64_t x = 0;
                                  if (!row.get("x", x)) return false;
                                  total += x;
                                  return true;
                                }))
      << db_.error();
  EXPECT_EQ(total, 112);
}

TEST_F(Scripts, StopsAtTheFirstFailingStatementAndNamesExactlyThatStatement) {
  std::vector<std::string> seen;
  EXPECT_FALSE(
      db_.executeScript("INSERT INTO a VALUES (1);\n"
                        "SELECT x FROM a;\n"
                        "  -- a comment before the failing statement\n"
                        "   INSERT INTO a VALUES (1);\n"
                        "INSERT INTO a VALUES (2);\n"
                        "SELECT 'never' AS n;",
                        recorder(seen)));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(error.extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_EQ(error.sql, "INSERT INTO a VALUES (1);");
  EXPECT_EQ(seen, (std::vector<std::string>{"x=int:1"}));
  // The statements before the failure stay applied; the ones after never ran.
  EXPECT_EQ(dump(db_, "SELECT x FROM a"), (std::vector<std::string>{"x=int:1"}));
}

TEST_F(Scripts, StatementThatFailsToPrepareIsNamedWithoutLeadingWhitespace) {
  int rows = 0;
  EXPECT_FALSE(db_.executeScript("INSERT INTO a VALUES (1);\n\n   /* next */ INSERT INTO missing VALUES (1);\nSELECT 1",
                                 [&](const RowView&) { ++rows; }));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table: missing"), std::string::npos) << db_.error();
  EXPECT_EQ(db_.lastError().sql, "INSERT INTO missing VALUES (1);");
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(count(), 1);
}

TEST_F(Scripts, SyntaxErrorNamesTheWholeFailingStatement) {
  for (const bool withCallback : {true, false}) {
    const std::string script = "SELECT 1;\n\n  SELEC 2; SELECT 3;";
    const bool ok = withCallback ? db_.executeScript(script, [](const RowView&) {}) : db_.executeScript(script);
    EXPECT_FALSE(ok);
    EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
    EXPECT_NE(db_.error().find("syntax error"), std::string::npos) << db_.error();
    EXPECT_EQ(db_.lastError().sql, "SELEC 2;") << (withCallback ? "with" : "without") << " a callback";
  }
  // The statement is named whole even when the error is early in it and a
  // semicolon sits inside a string literal.
  EXPECT_FALSE(db_.executeScript("SELECT 1; INSERT INTO a VALUES VALUES ('x;y'); SELECT 2;"));
  EXPECT_EQ(db_.lastError().sql, "INSERT INTO a VALUES VALUES ('x;y');");
  // The last statement of a script needs no semicolon.
  EXPECT_FALSE(db_.executeScript("SELECT 1; SELEC 2"));
  EXPECT_EQ(db_.lastError().sql, "SELEC 2");
}

TEST_F(Scripts, CallbackReturningFalseStopsTheScript) {
  std::vector<std::int64_t> seen;
  EXPECT_TRUE(
      db_.executeScript("INSERT INTO a VALUES (1), (2), (3);\n"
                        "SELECT x FROM a ORDER BY x;\n"
                        "INSERT INTO a VALUES (4);",
                        [&](const RowView& row) {
                          seen.push_back(row.column(0).integer);
                          return seen.size() < 2;
                        }))
      << db_.error();
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(db_.lastError().code, 0);
  // The statement after the stop never ran.
  EXPECT_EQ(count(), 3);
}

TEST_F(Scripts, CallbackStoppingAfterAFailedGetFailsTheScript) {
  EXPECT_FALSE(db_.executeScript("SELECT 'text' AS v; INSERT INTO a VALUES (1);", [](const RowView& row) {
    int v = 0;
    return row.get("v", v);
  }));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISMATCH);
  EXPECT_NE(db_.error().find("\"v\""), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("text 'text'"), std::string::npos) << db_.error();
  EXPECT_EQ(count(), 0);
}

TEST_F(Scripts, EmptyScriptsSucceedWithoutCallingTheCallback) {
  int rows = 0;
  for (const char* script : {"", "   ", ";;", "-- only a comment", "/* block */ ;"}) {
    EXPECT_TRUE(db_.executeScript(script, [&](const RowView&) { ++rows; })) << "'" << script << "': " << db_.error();
    EXPECT_EQ(db_.lastError().code, 0);
  }
  EXPECT_EQ(rows, 0);
}

TEST_F(Scripts, NulByteInAScriptWithCallbackFails) {
  const std::string script("INSERT INTO a VALUES (1);\0INSERT INTO a VALUES (2);", 51);
  EXPECT_FALSE(db_.executeScript(script, [](const RowView&) {}));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM a WHERE x = 2"), 0);
}

// MARK: prepareNext

TEST_F(Scripts, PrepareNextWalksAScriptStatementByStatement) {
  const std::string script =
      "-- seed\n"
      "INSERT INTO a VALUES (1);;\n"
      "  /* two */ INSERT INTO a VALUES (2);\n"
      "SELECT sum(x) AS total FROM a; -- trailing comment\n";
  std::size_t offset = 0;
  std::vector<std::string> sqls;
  std::vector<std::size_t> offsets;
  std::int64_t total = -1;
  for (;;) {
    Statement stmt = db_.prepareNext(script, offset);
    if (!stmt.isValid()) break;
    sqls.push_back(stmt.sql());
    offsets.push_back(offset);
    for (StepResult step = stmt.step(); step != StepResult::Done; step = stmt.step()) {
      ASSERT_EQ(step, StepResult::Row) << db_.error();
      total = stmt.columnValue(0).asInteger();
    }
  }
  EXPECT_EQ(db_.lastError().code, 0) << db_.error();
  EXPECT_EQ(sqls, (std::vector<std::string>{"INSERT INTO a VALUES (1);", "INSERT INTO a VALUES (2);",
                                            "SELECT sum(x) AS total FROM a;"}));
  // Each offset is just past its statement, and the walk ends at the end.
  ASSERT_EQ(offsets.size(), 3u);
  EXPECT_EQ(offsets[0], script.find("INSERT INTO a VALUES (1);") + std::string("INSERT INTO a VALUES (1);").size());
  EXPECT_EQ(offsets[1], script.find("INSERT INTO a VALUES (2);") + std::string("INSERT INTO a VALUES (2);").size());
  EXPECT_EQ(offsets[2], script.find("FROM a;") + std::string("FROM a;").size());
  EXPECT_EQ(offset, script.size());
  EXPECT_EQ(total, 3);
  // Asking again at the end gives nothing, still without an error.
  EXPECT_FALSE(db_.prepareNext(script, offset).isValid());
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(Scripts, PrepareNextStatementsTakeTheirOwnArguments) {
  const std::string script = "INSERT INTO a VALUES (?); INSERT INTO a VALUES (:v);";
  std::size_t offset = 0;
  int value = 10;
  for (Statement stmt = db_.prepareNext(script, offset); stmt.isValid(); stmt = db_.prepareNext(script, offset)) {
    ASSERT_EQ(stmt.parameterCount(), 1);
    ASSERT_TRUE(stmt.bind(1, value++));
    ASSERT_EQ(stmt.step(), StepResult::Done) << db_.error();
  }
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_EQ(dump(db_, "SELECT x FROM a ORDER BY x"), (std::vector<std::string>{"x=int:10", "x=int:11"}));
}

TEST_F(Scripts, PrepareNextReportsAnInvalidStatementClearly) {
  const std::string script = "SELECT 1;\n  SELEC 2;\nSELECT 3;";
  std::size_t offset = 0;
  Statement first = db_.prepareNext(script, offset);
  ASSERT_TRUE(first.isValid()) << db_.error();
  const std::size_t afterFirst = offset;
  Statement second = db_.prepareNext(script, offset);
  EXPECT_FALSE(second.isValid());
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_ERROR);
  EXPECT_NE(error.message.find("syntax error"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, "SELEC 2;");
  // The offset did not move past the failing statement.
  EXPECT_GE(offset, afterFirst);
  EXPECT_LE(offset, script.find("SELEC 2"));
}

TEST_F(Scripts, PrepareNextOnAnEmptyScriptIsTheEnd) {
  for (const std::string script : {"", "  \n", "-- nothing"}) {
    std::size_t offset = 0;
    EXPECT_FALSE(db_.prepareNext(script, offset).isValid());
    EXPECT_EQ(db_.lastError().code, 0) << "'" << script << "'";
    EXPECT_EQ(offset, script.size());
  }
}

TEST_F(Scripts, PrepareNextRejectsANulByte) {
  const std::string script("SELECT 1;\0SELECT 2;", 19);
  std::size_t offset = 0;
  ASSERT_TRUE(db_.prepareNext(script, offset).isValid()) << db_.error();
  EXPECT_FALSE(db_.prepareNext(script, offset).isValid());
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_NE(db_.error().find("NUL"), std::string::npos) << db_.error();
}

// MARK: validate

TEST_F(Scripts, ValidStatementValidatesAndNothingRuns) {
  const std::int64_t prepared = db_.preparedStatementCount();
  EXPECT_TRUE(db_.validate("INSERT INTO a VALUES (1)")) << db_.error();
  EXPECT_TRUE(db_.validate("SELECT x FROM a WHERE x > ?")) << db_.error();
  EXPECT_TRUE(db_.validate("DROP TABLE a")) << db_.error();
  EXPECT_TRUE(db_.validate("  SELECT 1; -- trailing comment and semicolon")) << db_.error();
  EXPECT_EQ(db_.lastError().code, 0);
  EXPECT_EQ(db_.preparedStatementCount() - prepared, 4);
  // Nothing ran: no row inserted, the table still there.
  EXPECT_EQ(count(), 0);
  EXPECT_TRUE(db_.hasTableColumn("a", "x")) << db_.error();
}

TEST_F(Scripts, ValidateReportsASyntaxError) {
  EXPECT_FALSE(db_.validate("SELEC 1"));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_ERROR);
  EXPECT_NE(error.message.find("syntax error"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, "SELEC 1");
}

TEST_F(Scripts, ValidateReportsAnUnknownTableOrColumn) {
  EXPECT_FALSE(db_.validate("SELECT * FROM nowhere"));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table: nowhere"), std::string::npos) << db_.error();
  EXPECT_FALSE(db_.validate("SELECT nope FROM a"));
  EXPECT_NE(db_.error().find("no such column: nope"), std::string::npos) << db_.error();
}

TEST_F(Scripts, ValidateRefusesTrailingSqlAndRunsNothing) {
  const std::string sql = "INSERT INTO a VALUES (1); INSERT INTO a VALUES (2)";
  EXPECT_FALSE(db_.validate(sql));
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_MISUSE);
  EXPECT_NE(error.message.find("INSERT INTO a VALUES (2)"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, sql);
  EXPECT_EQ(count(), 0);
}

TEST_F(Scripts, ValidateRefusesSqlWithoutAStatement) {
  for (const char* sql : {"", "   ", ";", "-- comment", "/* block */"}) {
    EXPECT_FALSE(db_.validate(sql)) << "'" << sql << "'";
    EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << "'" << sql << "'";
    EXPECT_FALSE(db_.error().empty());
  }
}

TEST_F(Scripts, ValidateLeavesTheStatementCacheAlone) {
  Row first;
  ASSERT_TRUE(db_.execute("SELECT 5", first));
  EXPECT_TRUE(db_.validate("SELECT 5"));
  const std::int64_t prepared = db_.preparedStatementCount();
  ASSERT_TRUE(db_.execute("SELECT 5", first));
  EXPECT_EQ(first.value(0), Value(5));
  EXPECT_EQ(db_.preparedStatementCount(), prepared);
}
