// Statement: prepare, bind, step, read columns, reset, and its failure paths.
#include <cstring>
#include <limits>
#include <utility>

#include "TestSupport.hpp"

using sqlitebridge::ColumnView;
using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

std::string bytesOf(const ColumnView& view) {
  return view.size == 0 ? std::string() : std::string(static_cast<const char*>(view.bytes), view.size);
}

class StatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v, name TEXT UNIQUE)")) << db_.error();
  }
  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(StatementTest, PrepareGivesAValidStatementWithItsSql) {
  Statement select = db_.prepare("SELECT id, v FROM t");
  ASSERT_TRUE(select.isValid()) << db_.error();
  EXPECT_EQ(select.sql(), "SELECT id, v FROM t");
  EXPECT_TRUE(select.isReadOnly());
  EXPECT_NE(select.handle(), nullptr);
  EXPECT_EQ(db_.lastError().code, 0);

  Statement insert = db_.prepare("INSERT INTO t(v) VALUES (1)");
  ASSERT_TRUE(insert.isValid()) << db_.error();
  EXPECT_FALSE(insert.isReadOnly());
}

TEST_F(StatementTest, PrepareWithSyntaxErrorGivesInvalidStatementAndError) {
  Statement bad = db_.prepare("SELEC 1");
  EXPECT_FALSE(bad.isValid());
  EXPECT_EQ(bad.handle(), nullptr);
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("syntax error"), std::string::npos) << db_.error();
  EXPECT_EQ(db_.lastError().sql, "SELEC 1");
}

TEST_F(StatementTest, PrepareOfMissingTableFails) {
  EXPECT_FALSE(db_.prepare("SELECT * FROM nowhere").isValid());
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();
}

TEST_F(StatementTest, PrepareOfEmptyOrCommentOnlySqlFailsWithMisuse) {
  for (const char* sql : {"", "   ", "-- just a comment", "/* block */", ";"}) {
    EXPECT_FALSE(db_.prepare(sql).isValid()) << sql;
    EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE) << sql;
  }
}

TEST_F(StatementTest, PrepareWithTrailingSqlFailsWithMisuse) {
  EXPECT_FALSE(db_.prepare("SELECT 1; SELECT 2").isValid());
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_NE(db_.error().find("SELECT 2"), std::string::npos) << db_.error();
}

TEST_F(StatementTest, BindsEachTypeAndReadsItBackThroughColumnViews) {
  Statement stmt = db_.prepare("SELECT ?, ?, ?, ?, ?, ?, ?");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  const std::string text("t\0x", 3);
  const unsigned char blob[] = {0x00, 0x7f, 0xff};
  ASSERT_TRUE(stmt.bindNull(1));
  ASSERT_TRUE(stmt.bindInteger(2, std::numeric_limits<std::int64_t>::min()));
  ASSERT_TRUE(stmt.bindReal(3, -0.25));
  ASSERT_TRUE(stmt.bindText(4, text));
  ASSERT_TRUE(stmt.bindBlob(5, blob, sizeof blob));
  ASSERT_TRUE(stmt.bindText(6, nullptr, 0));
  ASSERT_TRUE(stmt.bindBlob(7, nullptr, 0));
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnCount(), 7);

  EXPECT_EQ(stmt.column(0).type, ValueType::Null);
  EXPECT_EQ(stmt.column(0).bytes, nullptr);
  EXPECT_EQ(stmt.column(1).type, ValueType::Integer);
  EXPECT_EQ(stmt.column(1).integer, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(stmt.column(2).type, ValueType::Real);
  EXPECT_EQ(stmt.column(2).real, -0.25);
  EXPECT_EQ(stmt.column(3).type, ValueType::Text);
  EXPECT_EQ(stmt.column(3).size, 3u);
  EXPECT_EQ(bytesOf(stmt.column(3)), text);
  EXPECT_EQ(stmt.column(4).type, ValueType::Blob);
  EXPECT_EQ(bytesOf(stmt.column(4)), std::string("\x00\x7f\xff", 3));
  // A null pointer with size 0 is empty text / a zero-length blob, not NULL.
  EXPECT_EQ(stmt.column(5).type, ValueType::Text);
  EXPECT_EQ(stmt.column(5).size, 0u);
  EXPECT_EQ(stmt.column(6).type, ValueType::Blob);
  EXPECT_EQ(stmt.column(6).size, 0u);

  EXPECT_EQ(stmt.columnType(1), ValueType::Integer);
  EXPECT_EQ(stmt.columnType(6), ValueType::Blob);
  EXPECT_EQ(stmt.columnValue(0), Value());
  EXPECT_EQ(stmt.columnValue(1), Value(std::numeric_limits<std::int64_t>::min()));
  EXPECT_EQ(stmt.columnValue(2), Value(-0.25));
  EXPECT_EQ(stmt.columnValue(3), Value(text));
  EXPECT_EQ(stmt.columnValue(4), Value::fromBlob(blob, sizeof blob));
  EXPECT_EQ(stmt.columnValue(5), Value(std::string()));
  EXPECT_EQ(stmt.columnValue(6), Value::fromBlob(nullptr, 0));
  EXPECT_EQ(stmt.step(), StepResult::Done);
}

TEST_F(StatementTest, BindValueBindsEveryStorageClass) {
  Statement stmt = db_.prepare("SELECT typeof(?1), typeof(?2), typeof(?3), typeof(?4), typeof(?5), length(?5)");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  ASSERT_TRUE(stmt.bind(1, Value()));
  ASSERT_TRUE(stmt.bind(2, Value(3)));
  ASSERT_TRUE(stmt.bind(3, Value(3.5)));
  ASSERT_TRUE(stmt.bind(4, Value("x")));
  ASSERT_TRUE(stmt.bind(5, Value::fromBlob(std::vector<std::uint8_t>{})));
  ASSERT_EQ(stmt.step(), StepResult::Row);
  const Row row = stmt.row();
  EXPECT_EQ(row.value(0), Value("null"));
  EXPECT_EQ(row.value(1), Value("integer"));
  EXPECT_EQ(row.value(2), Value("real"));
  EXPECT_EQ(row.value(3), Value("text"));
  EXPECT_EQ(row.value(4), Value("blob"));
  EXPECT_EQ(row.value(5), Value(0));
}

TEST_F(StatementTest, BindRealNaNBindsNull) {
  Statement stmt = db_.prepare("SELECT ? IS NULL");
  ASSERT_TRUE(stmt.bindReal(1, std::numeric_limits<double>::quiet_NaN()));
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.column(0).integer, 1);
}

TEST_F(StatementTest, StepsThroughEveryRowThenReportsDone) {
  ASSERT_TRUE(db_.execute("INSERT INTO t(v) VALUES (10), (20), (30)"));
  Statement stmt = db_.prepare("SELECT v FROM t ORDER BY id");
  std::vector<std::int64_t> seen;
  StepResult result;
  while ((result = stmt.step()) == StepResult::Row) seen.push_back(stmt.column(0).integer);
  EXPECT_EQ(result, StepResult::Done);
  EXPECT_EQ(seen, (std::vector<std::int64_t>{10, 20, 30}));
}

TEST_F(StatementTest, ColumnNamesFollowTheSql) {
  Statement stmt = db_.prepare("SELECT id AS key, v, 1 + 1 FROM t");
  ASSERT_TRUE(stmt.isValid());
  EXPECT_EQ(stmt.columnCount(), 3);
  EXPECT_EQ(stmt.columnName(0), "key");
  EXPECT_EQ(stmt.columnName(1), "v");
  EXPECT_EQ(stmt.columnName(2), "1 + 1");
  EXPECT_EQ(stmt.columnName(3), "");
  EXPECT_EQ(stmt.columnName(-1), "");
  ASSERT_NE(stmt.columnNames(), nullptr);
  EXPECT_EQ(*stmt.columnNames(), (std::vector<std::string>{"key", "v", "1 + 1"}));
}

TEST_F(StatementTest, ColumnIndexOutOfRangeReadsNull) {
  Statement stmt = db_.prepare("SELECT 1");
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.column(1).type, ValueType::Null);
  EXPECT_EQ(stmt.column(-1).type, ValueType::Null);
  EXPECT_TRUE(stmt.columnValue(5).isNull());
}

TEST_F(StatementTest, RowCopiesTheWholeCurrentRowWithNames) {
  ASSERT_TRUE(db_.execute("INSERT INTO t(v, name) VALUES (1, 'one'), (2, 'two')"));
  Statement stmt = db_.prepare("SELECT v, name FROM t ORDER BY id");
  ASSERT_EQ(stmt.step(), StepResult::Row);
  const Row first = stmt.row();
  ASSERT_EQ(stmt.step(), StepResult::Row);
  const Row second = stmt.row();
  // The first copy is unaffected by stepping on.
  EXPECT_EQ(first.value("name"), Value("one"));
  EXPECT_EQ(first.columnName(0), "v");
  EXPECT_EQ(second.value("NAME"), Value("two"));
  EXPECT_EQ(second.value(0), Value(2));
}

TEST_F(StatementTest, ResetRerunsWithBindingsKept) {
  Statement insert = db_.prepare("INSERT INTO t(v) VALUES (?)");
  ASSERT_TRUE(insert.bindInteger(1, 7));
  ASSERT_EQ(insert.step(), StepResult::Done);
  ASSERT_TRUE(insert.reset());
  ASSERT_EQ(insert.step(), StepResult::Done);
  ASSERT_TRUE(insert.reset());
  ASSERT_TRUE(insert.bindInteger(1, 8));
  ASSERT_EQ(insert.step(), StepResult::Done);
  EXPECT_EQ(dump(db_, "SELECT v FROM t ORDER BY id"), (std::vector<std::string>{"v=int:7", "v=int:7", "v=int:8"}));

  Statement select = db_.prepare("SELECT count(*) FROM t");
  ASSERT_EQ(select.step(), StepResult::Row);
  EXPECT_EQ(select.column(0).integer, 3);
  ASSERT_TRUE(select.reset());
  ASSERT_EQ(select.step(), StepResult::Row);
  EXPECT_EQ(select.column(0).integer, 3);
}

TEST_F(StatementTest, ClearBindingsSetsEveryParameterBackToNull) {
  Statement stmt = db_.prepare("SELECT ?1, ?2");
  ASSERT_TRUE(stmt.bindInteger(1, 1));
  ASSERT_TRUE(stmt.bindText(2, "two"));
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(1), Value("two"));
  ASSERT_TRUE(stmt.reset());
  ASSERT_TRUE(stmt.clearBindings());
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_TRUE(stmt.columnValue(0).isNull());
  EXPECT_TRUE(stmt.columnValue(1).isNull());
}

TEST_F(StatementTest, ParameterCountIndexAndName) {
  Statement stmt = db_.prepare("SELECT :a, @b, $c, ?, ?7, :a");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_EQ(stmt.parameterCount(), 7);
  EXPECT_EQ(stmt.parameterIndex(":a"), 1);
  EXPECT_EQ(stmt.parameterIndex("@b"), 2);
  EXPECT_EQ(stmt.parameterIndex("$c"), 3);
  EXPECT_EQ(stmt.parameterIndex("?7"), 7);
  EXPECT_EQ(stmt.parameterIndex("a"), 0);  // the prefix is part of the name
  EXPECT_EQ(stmt.parameterIndex(":missing"), 0);
  EXPECT_EQ(stmt.parameterName(1), ":a");
  EXPECT_EQ(stmt.parameterName(2), "@b");
  EXPECT_EQ(stmt.parameterName(3), "$c");
  EXPECT_EQ(stmt.parameterName(4), "");  // plain ?
  EXPECT_EQ(stmt.parameterName(7), "?7");
  EXPECT_EQ(stmt.parameterName(8), "");
  EXPECT_EQ(stmt.parameterName(0), "");
}

TEST_F(StatementTest, BindIndexOutOfRangeFailsWithRange) {
  Statement stmt = db_.prepare("SELECT ?, ?");
  ASSERT_TRUE(stmt.isValid());
  EXPECT_FALSE(stmt.bindInteger(0, 1));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(db_.lastError().sql, "SELECT ?, ?");
  EXPECT_FALSE(stmt.bindInteger(3, 1));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(stmt.bindNull(-1));
  EXPECT_FALSE(stmt.bindReal(3, 1.0));
  EXPECT_FALSE(stmt.bindText(3, "x"));
  EXPECT_FALSE(stmt.bindBlob(3, "x", 1));
  EXPECT_FALSE(stmt.bind(3, Value(1)));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_NE(db_.error().find("out of range"), std::string::npos) << db_.error();

  Statement none = db_.prepare("SELECT 1");
  EXPECT_FALSE(none.bindInteger(1, 1));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
}

TEST_F(StatementTest, BindAllChecksTheArgumentCount) {
  Statement stmt = db_.prepare("SELECT ?1 + ?2");
  EXPECT_FALSE(stmt.bind(std::vector<Value>{Value(1)}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(stmt.bind(std::vector<Value>{Value(1), Value(2), Value(3)}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(stmt.expectArgumentCount(0));
  EXPECT_TRUE(stmt.expectArgumentCount(2));
  ASSERT_TRUE(stmt.bind(std::vector<Value>{Value(1), Value(2)}));
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.column(0).integer, 3);
}

TEST_F(StatementTest, StepErrorIsReportedOnTheDatabaseWithExtendedCode) {
  ASSERT_TRUE(db_.execute("INSERT INTO t(name) VALUES ('taken')"));
  Statement stmt = db_.prepare("INSERT INTO t(name) VALUES (?)");
  ASSERT_TRUE(stmt.bindText(1, "taken"));
  EXPECT_EQ(stmt.step(), StepResult::Error);
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_CONSTRAINT);
  EXPECT_EQ(error.extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_NE(error.message.find("UNIQUE constraint failed: t.name"), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, "INSERT INTO t(name) VALUES (?)");

  // After a reset, the statement can run again with another value.
  ASSERT_TRUE(stmt.reset());
  ASSERT_TRUE(stmt.bindText(1, "free"));
  EXPECT_EQ(stmt.step(), StepResult::Done);
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM t"), 2);
}

TEST(StatementInvalid, DefaultStatementFailsEveryCall) {
  Statement stmt;
  EXPECT_FALSE(stmt.isValid());
  EXPECT_EQ(stmt.handle(), nullptr);
  EXPECT_EQ(stmt.sql(), "");
  EXPECT_FALSE(stmt.isReadOnly());
  EXPECT_EQ(stmt.parameterCount(), 0);
  EXPECT_EQ(stmt.parameterIndex(":a"), 0);
  EXPECT_EQ(stmt.parameterName(1), "");
  EXPECT_FALSE(stmt.expectArgumentCount(0));
  EXPECT_FALSE(stmt.bindNull(1));
  EXPECT_FALSE(stmt.bindInteger(1, 1));
  EXPECT_FALSE(stmt.bindReal(1, 1));
  EXPECT_FALSE(stmt.bindText(1, "x"));
  EXPECT_FALSE(stmt.bindBlob(1, "x", 1));
  EXPECT_FALSE(stmt.bind(1, Value(1)));
  EXPECT_FALSE(stmt.bind(std::vector<Value>{}));
  EXPECT_FALSE(stmt.clearBindings());
  EXPECT_EQ(stmt.step(), StepResult::Error);
  EXPECT_FALSE(stmt.reset());
  EXPECT_EQ(stmt.columnCount(), 0);
  EXPECT_EQ(stmt.columnName(0), "");
  EXPECT_EQ(stmt.column(0).type, ValueType::Null);
  EXPECT_TRUE(stmt.columnValue(0).isNull());
  EXPECT_EQ(stmt.row().size(), 0u);
}

TEST_F(StatementTest, StatementFromAFailedPrepareFailsAndKeepsThePrepareError) {
  Statement stmt = db_.prepare("SELECT * FROM nowhere");
  ASSERT_FALSE(stmt.isValid());
  EXPECT_EQ(stmt.step(), StepResult::Error);
  EXPECT_FALSE(stmt.bindInteger(1, 1));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
}

TEST_F(StatementTest, StatementOnClosedDatabaseFailsWithMisuse) {
  Database closed = Database::open("/nonexistent-dir/x.db", sqlitebridge::OpenMode::ReadWrite);
  ASSERT_FALSE(closed.isOpen());
  Statement stmt = closed.prepare("SELECT 1");
  EXPECT_FALSE(stmt.isValid());
  EXPECT_EQ(closed.lastError().code, SQLITE_MISUSE);
}

TEST_F(StatementTest, MovingAStatementTransfersItAndInvalidatesTheSource) {
  Statement original = db_.prepare("SELECT 42");
  ASSERT_TRUE(original.isValid());
  Statement moved(std::move(original));
  EXPECT_FALSE(original.isValid());  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(original.step(), StepResult::Error);
  ASSERT_EQ(moved.step(), StepResult::Row);
  EXPECT_EQ(moved.column(0).integer, 42);

  Statement assigned = db_.prepare("SELECT 1");
  assigned = std::move(moved);
  EXPECT_FALSE(moved.isValid());  // NOLINT(bugprone-use-after-move)
  ASSERT_TRUE(assigned.reset());
  ASSERT_EQ(assigned.step(), StepResult::Row);
  EXPECT_EQ(assigned.column(0).integer, 42);
}

TEST(StatementLifetime, StatementOutlivingItsDatabaseStillWorks) {
  TempDir dir;
  Statement insert;
  Statement count;
  {
    Database db = Database::open(dir / "life.db");
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("CREATE TABLE t(x)"));
    insert = db.prepare("INSERT INTO t VALUES (?)");
    count = db.prepare("SELECT count(*), sum(x) FROM t");
    ASSERT_TRUE(insert.isValid());
    ASSERT_TRUE(count.isValid());
  }
  ASSERT_TRUE(insert.bindInteger(1, 5));
  EXPECT_EQ(insert.step(), StepResult::Done);
  ASSERT_EQ(count.step(), StepResult::Row);
  EXPECT_EQ(count.column(0).integer, 1);
  EXPECT_EQ(count.column(1).integer, 5);
  ASSERT_TRUE(count.reset());
  // Errors still go somewhere and do not crash.
  EXPECT_FALSE(insert.bindInteger(9, 1));
  insert = Statement();
  count = Statement();
  // The data reached the file.
  Database reopened = Database::open(dir / "life.db");
  EXPECT_EQ(scalarInteger(reopened, "SELECT sum(x) FROM t"), 5);
}

TEST(StatementLifetime, StatementOutlivesAMovedFromDatabase) {
  Database db = Database::open(":memory:");
  Statement stmt = db.prepare("SELECT 'alive'");
  Database other(std::move(db));
  EXPECT_FALSE(db.isOpen());  // NOLINT(bugprone-use-after-move): documented state
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value("alive"));
  other = Database::open(":memory:");
  ASSERT_TRUE(stmt.reset());
  ASSERT_EQ(stmt.step(), StepResult::Row);
  EXPECT_EQ(stmt.columnValue(0), Value("alive"));
}

// A statement reports its connection's last error itself: the same as its
// Database's while that is open, and still once the Database is closed.
TEST(StatementLastError, IsTheConnectionsErrorAndOutlivesTheDatabase) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.execute("CREATE TABLE t(x INTEGER UNIQUE)")) << db.error();
  Statement insert = db.prepare("INSERT INTO t VALUES (?)");
  ASSERT_TRUE(insert.isValid()) << db.error();
  EXPECT_EQ(insert.lastError().code, 0);
  EXPECT_FALSE(insert.bind(2, 1));
  EXPECT_TRUE(insert.lastError().is(sqlitebridge::ResultCode::Range));
  EXPECT_EQ(insert.lastError().message, db.lastError().message);

  db.close();
  ASSERT_TRUE(insert.bind(1, 7));
  EXPECT_EQ(insert.step(), StepResult::Done);
  ASSERT_TRUE(insert.reset());
  EXPECT_EQ(insert.step(), StepResult::Error);
  EXPECT_EQ(insert.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE) << insert.lastError().message;
  EXPECT_TRUE(db.lastError().is(sqlitebridge::ResultCode::OK)) << "the closed database reports nothing";

  Statement invalid;
  EXPECT_TRUE(invalid.lastError().is(sqlitebridge::ResultCode::Misuse));
  EXPECT_EQ(invalid.lastError().message, "the statement is not prepared");
}
