// Error: every failure carries SQLite's result code, extended code, message
// and the SQL; every success clears it.
#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

class Errors : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("PRAGMA foreign_keys = ON"));
    ASSERT_TRUE(
        db_.executeScript("CREATE TABLE parent(id INTEGER PRIMARY KEY);"
                          "CREATE TABLE keyed(code TEXT PRIMARY KEY, n INTEGER NOT NULL CHECK (n > 0), tag TEXT UNIQUE,"
                          "                   parent_id INTEGER REFERENCES parent(id));"
                          "INSERT INTO parent VALUES (1);"
                          "INSERT INTO keyed VALUES ('k', 1, 'tag', 1);"))
        << db_.error();
  }

  // Runs a failing statement and returns the error it left.
  Error failure(const std::string& sql) {
    EXPECT_FALSE(db_.execute(sql)) << sql;
    return db_.lastError();
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST(Error, DefaultErrorMeansSuccess) {
  const Error error;
  EXPECT_EQ(error.code, 0);
  EXPECT_EQ(error.extendedCode, 0);
  EXPECT_TRUE(error.message.empty());
  EXPECT_TRUE(error.sql.empty());
  EXPECT_FALSE(error.isError());
  EXPECT_TRUE((Error{SQLITE_BUSY, SQLITE_BUSY, "busy", ""}).isError());
}

TEST_F(Errors, FreshDatabaseHasNoError) {
  Database fresh = Database::open(":memory:");
  EXPECT_FALSE(fresh.lastError().isError());
  EXPECT_EQ(fresh.error(), "");
}

TEST_F(Errors, UniqueViolationCarriesExtendedCode2067) {
  const std::string sql = "INSERT INTO keyed VALUES ('other', 1, 'tag', 1)";
  const Error error = failure(sql);
  EXPECT_EQ(error.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(error.extendedCode, 2067);
  EXPECT_NE(error.message.find("UNIQUE constraint failed: keyed.tag"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, sql);
}

TEST_F(Errors, PrimaryKeyViolationCarriesExtendedCode1555) {
  const Error error = failure("INSERT INTO keyed VALUES ('k', 2, 'other', 1)");
  EXPECT_EQ(error.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(error.extendedCode, 1555);
  EXPECT_NE(error.message.find("keyed.code"), std::string::npos) << error.message;
}

TEST_F(Errors, ForeignKeyViolationCarriesExtendedCode787) {
  const Error error = failure("INSERT INTO keyed VALUES ('orphan', 1, 'o', 99)");
  EXPECT_EQ(error.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(error.extendedCode, 787);
  EXPECT_NE(error.message.find("FOREIGN KEY constraint failed"), std::string::npos) << error.message;
}

TEST_F(Errors, NotNullAndCheckViolationsCarryTheirExtendedCodes) {
  const Error notNull = failure("INSERT INTO keyed VALUES ('a', NULL, 'a', 1)");
  EXPECT_EQ(notNull.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(notNull.extendedCode, SQLITE_CONSTRAINT_NOTNULL);
  const Error check = failure("INSERT INTO keyed VALUES ('a', -1, 'a', 1)");
  EXPECT_EQ(check.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(check.extendedCode, SQLITE_CONSTRAINT_CHECK);
}

TEST_F(Errors, ArgumentBoundConstraintErrorKeepsTheSqlText) {
  const std::string sql = "INSERT INTO keyed VALUES (?, ?, ?, ?)";
  EXPECT_FALSE(db_.execute(sql, {Value("k"), Value(1), Value("x"), Value(1)}));
  EXPECT_EQ(db_.lastError().extendedCode, 1555);
  EXPECT_EQ(db_.lastError().sql, sql);
}

TEST_F(Errors, MissingTableIsSqliteErrorWithItsMessage) {
  const Error error = failure("SELECT * FROM missing_table");
  EXPECT_EQ(error.code, SQLITE_ERROR);
  EXPECT_EQ(error.extendedCode, SQLITE_ERROR);
  EXPECT_NE(error.message.find("no such table: missing_table"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, "SELECT * FROM missing_table");
}

TEST_F(Errors, ErrorMirrorsLastErrorMessage) {
  failure("SELECT nope FROM keyed");
  EXPECT_EQ(db_.error(), db_.lastError().message);
  EXPECT_NE(db_.error().find("no such column: nope"), std::string::npos) << db_.error();
}

TEST_F(Errors, EverySuccessfulCallClearsTheError) {
  auto fail = [&] {
    ASSERT_FALSE(db_.execute("SELECT * FROM missing_table"));
    ASSERT_TRUE(db_.lastError().isError());
  };
  auto expectCleared = [&](const char* what) {
    const Error error = db_.lastError();
    EXPECT_EQ(error.code, 0) << what;
    EXPECT_EQ(error.extendedCode, 0) << what;
    EXPECT_EQ(error.message, "") << what;
    EXPECT_EQ(error.sql, "") << what;
    EXPECT_EQ(db_.error(), "") << what;
  };
  std::vector<Row> rows;
  Row row;
  std::vector<std::string> columns;

  fail();
  ASSERT_TRUE(db_.execute("SELECT 1", &rows));
  expectCleared("execute(sql, rows)");
  fail();
  ASSERT_TRUE(db_.execute("SELECT 1", row));
  expectCleared("execute(sql, row)");
  fail();
  ASSERT_TRUE(db_.execute("SELECT ?", {Value(1)}));
  expectCleared("execute(sql, args)");
  fail();
  ASSERT_TRUE(db_.executeScript("SELECT 1; SELECT 2"));
  expectCleared("executeScript");
  fail();
  ASSERT_TRUE(db_.prepare("SELECT 1").isValid());
  expectCleared("prepare");
  fail();
  ASSERT_TRUE(db_.tableColumns("keyed", columns));
  expectCleared("tableColumns");
  fail();
  ASSERT_TRUE(db_.hasTableColumn("keyed", "code"));
  expectCleared("hasTableColumn (true)");
  fail();
  ASSERT_FALSE(db_.hasTableColumn("keyed", "absent"));
  expectCleared("hasTableColumn (false)");
  fail();
  ASSERT_TRUE(db_.updateTable("CREATE TABLE parent(id INTEGER PRIMARY KEY, label TEXT)", "", "parent")) << db_.error();
  expectCleared("updateTable");
  fail();
  ASSERT_TRUE(db_.setBusyTimeout(10));
  expectCleared("setBusyTimeout");
}

TEST(ErrorBusy, LockHeldByAnotherConnectionFailsWithBusy) {
  TempDir dir;
  Database first = Database::open(dir / "busy.db");
  Database second = Database::open(dir / "busy.db");
  ASSERT_TRUE(first.execute("CREATE TABLE t(x)")) << first.error();
  ASSERT_TRUE(first.execute("BEGIN IMMEDIATE"));
  ASSERT_TRUE(first.execute("INSERT INTO t VALUES (1)"));
  ASSERT_TRUE(second.setBusyTimeout(0));
  EXPECT_FALSE(second.execute("INSERT INTO t VALUES (2)"));
  EXPECT_EQ(second.lastError().code, SQLITE_BUSY);
  EXPECT_NE(second.error().find("locked"), std::string::npos) << second.error();
  ASSERT_TRUE(first.execute("COMMIT"));
  EXPECT_TRUE(second.execute("INSERT INTO t VALUES (2)")) << second.error();
  EXPECT_EQ(scalarInteger(first, "SELECT count(*) FROM t"), 2);
}
