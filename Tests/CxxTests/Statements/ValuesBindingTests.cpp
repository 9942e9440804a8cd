// Values bound without building a vector (issue 14): the variadic
// Database::execute(sql, values...), Statement::bindValues and
// forEachRow(sql, body, values...), and the older execute calls they must
// leave alone.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "HostileSupport.hpp"
#include "sqlitebridge/sqlitebridge.hpp"

using namespace sqlitebridge;

// Counts C++ allocations while `countingAllocations` is set (on this
// thread), for the test that an insert loop allocates nothing per row. Not
// under a sanitizer: its runtime owns new and delete (a replacement here
// would pair its aligned new with our free).
namespace {
thread_local bool countingAllocations = false;
std::atomic<long> allocations{0};
}  // namespace

#if !defined(SQLITEBRIDGE_HOSTILE_SANITIZED)
void* operator new(std::size_t size) {
  if (countingAllocations) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }
#endif

namespace {

// What the variadic execute takes, and what it leaves to the older overloads.
static_assert(areExecuteValues<int>);
static_assert(areExecuteValues<std::int64_t, double, const char*, std::string, std::nullopt_t>);
static_assert(areExecuteValues<int, std::nullptr_t>);
static_assert(areExecuteValues<char[4]>);
static_assert(areExecuteValues<std::optional<std::string>, Uuid, Value, std::vector<std::uint8_t>>);
static_assert(areExecuteValues<std::chrono::system_clock::time_point, bool, unsigned long long>);
static_assert(!areExecuteValues<>);
static_assert(!areExecuteValues<std::nullptr_t>);  // execute(sql, nullptr): no results
static_assert(!areExecuteValues<std::vector<Row>*>);
static_assert(!areExecuteValues<int*>);
static_assert(!areExecuteValues<Row>);
static_assert(!areExecuteValues<std::vector<Value>>);
static_assert(!areExecuteValues<NamedValues>);
static_assert(!areExecuteValues<long double>);

class ValuesBindingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE t(a, b, c, d)")) << db_.error();
  }
  std::int64_t count() {
    Row row;
    EXPECT_TRUE(db_.execute("SELECT count(*) FROM t", row)) << db_.error();
    std::int64_t n = -1;
    EXPECT_TRUE(row.get(0, n));
    return n;
  }
  Database db_ = Database::open(":memory:");
};

TEST_F(ValuesBindingTest, EachValueBindsWithItsTypedOverload) {
  const std::string text("nul\0text", 8);
  const std::vector<std::uint8_t> blob{0, 1, 2};
  const Uuid uuid({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  const auto time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1709642096789));
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", 1, 2.5, "literal", text)) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", std::nullopt, std::optional<int>(), blob,
                          std::vector<std::uint8_t>()))
      << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", true, uuid, time, Value(-0.0))) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", std::optional<std::string>("opt"), 7u,
                          std::numeric_limits<std::int64_t>::min(), std::string_view("view")))
      << db_.error();

  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT a, b, c, d FROM t ORDER BY rowid", &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].value(0), Value(1));
  EXPECT_EQ(rows[0].value(1), Value(2.5));
  EXPECT_EQ(rows[0].value(2), Value("literal"));
  EXPECT_EQ(rows[0].value(3), Value(text));
  EXPECT_TRUE(rows[1].value(0).isNull());
  EXPECT_TRUE(rows[1].value(1).isNull());
  EXPECT_EQ(rows[1].value(2), Value::fromBlob(blob));
  EXPECT_EQ(rows[1].value(3), Value::fromBlob(std::vector<std::uint8_t>()));
  EXPECT_EQ(rows[2].value(0), Value(1));
  EXPECT_EQ(rows[2].value(1), Value(uuid));
  EXPECT_EQ(rows[2].value(2), Value(time));
  EXPECT_EQ(rows[2].value(3), Value(-0.0));
  EXPECT_EQ(rows[3].value(0), Value("opt"));
  EXPECT_EQ(rows[3].value(1), Value(7));
  EXPECT_EQ(rows[3].value(2), Value(std::numeric_limits<std::int64_t>::min()));
  EXPECT_EQ(rows[3].value(3), Value("view"));
}

TEST_F(ValuesBindingTest, AWrongCountFailsWithRangeAndRunsNothing) {
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", 1, 2, 3));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", 1, 2, 3, 4, 5));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (1, 2, 3, 4)", 1));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  EXPECT_EQ(count(), 0);
}

TEST_F(ValuesBindingTest, AFailingBindFailsTheCall) {
  EXPECT_FALSE(
      db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", 1, 2, 3, std::numeric_limits<unsigned long long>::max()));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
  EXPECT_EQ(count(), 0);
  EXPECT_FALSE(db_.execute("INSERT INTO nowhere VALUES (?)", 1));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Error)) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", 1, 2, 3, 4)) << db_.error();
  EXPECT_FALSE(db_.lastError().isError());
}

TEST_F(ValuesBindingTest, StatementBindValuesChecksTheCountFirst) {
  Statement statement = db_.prepare("SELECT ?, ?");
  ASSERT_TRUE(statement.isValid()) << db_.error();
  EXPECT_FALSE(statement.bindValues(1));
  EXPECT_TRUE(statement.lastError().is(ResultCode::Range));
  ASSERT_TRUE(statement.bindValues(3, "x")) << statement.lastError().message;
  ASSERT_EQ(statement.step(), StepResult::Row);
  EXPECT_EQ(statement.columnValue(0), Value(3));
  EXPECT_EQ(statement.columnValue(1), Value("x"));
}

TEST_F(ValuesBindingTest, ForEachRowWithValues) {
  for (int i = 1; i <= 5; ++i) ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (?, ?, ?, ?)", i, i, i, i));
  std::int64_t sum = 0;
  ASSERT_TRUE(db_.forEachRow(
      "SELECT a FROM t WHERE a BETWEEN ? AND ?",
      [&](const RowView& row) {
        std::int64_t a = 0;
        row.get(0, a);
        sum += a;
      },
      2, 4))
      << db_.error();
  EXPECT_EQ(sum, 9);
  EXPECT_FALSE(db_.forEachRow("SELECT a FROM t WHERE a = ?", [](const RowView&) {}, 1, 2));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Range)) << db_.error();
}

TEST_F(ValuesBindingTest, AnInsertLoopAllocatesNothingPerRow) {
#if defined(SQLITEBRIDGE_HOSTILE_SANITIZED)
  GTEST_SKIP() << "under a sanitizer, new and delete are its runtime's, not counted here";
#endif
  const std::string sql = "INSERT INTO t VALUES (?, ?, ?, ?)";
  const std::string text = "a text longer than any small-string buffer, bound by SQLite's copy";
  ASSERT_TRUE(db_.execute("BEGIN"));
  ASSERT_TRUE(db_.execute(sql, 0, 0.5, text, "x")) << db_.error();  // caches the statement
  allocations = 0;
  countingAllocations = true;
  bool ok = true;
  for (std::int64_t i = 1; i <= 1000; ++i) ok = db_.execute(sql, i, 0.5 * static_cast<double>(i), text, "x") && ok;
  countingAllocations = false;
  ASSERT_TRUE(ok) << db_.error();
  ASSERT_TRUE(db_.execute("COMMIT"));
  EXPECT_EQ(allocations.load(), 0);
  EXPECT_EQ(count(), 1001);
  // The counter does count: the vector form allocates per row.
  allocations = 0;
  countingAllocations = true;
  ok = db_.execute(sql, {Value(1), Value(2), Value(3), Value(4)});
  countingAllocations = false;
  EXPECT_TRUE(ok) << db_.error();
  EXPECT_GT(allocations.load(), 0);
}

// Every older execute still does what it did.
TEST_F(ValuesBindingTest, OlderExecuteCallsKeepTheirMeaning) {
  ASSERT_TRUE(db_.execute("INSERT INTO t VALUES (1, 2, 3, 4)"));
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT a FROM t", &rows)) << db_.error();
  EXPECT_EQ(rows.size(), 1u);
  Row row;
  ASSERT_TRUE(db_.execute("SELECT b FROM t", row)) << db_.error();
  EXPECT_EQ(row.value(0), Value(2));
  // nullptr: no results (not a NULL bound to a statement without parameters).
  ASSERT_TRUE(db_.execute("SELECT a FROM t", nullptr)) << db_.error();
  const std::vector<Value> arguments{Value(1)};
  rows.clear();
  ASSERT_TRUE(db_.execute("SELECT a FROM t WHERE a = ?", arguments, &rows)) << db_.error();
  EXPECT_EQ(rows.size(), 1u);
  ASSERT_TRUE(db_.execute("SELECT a FROM t WHERE a = ?", arguments)) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT a FROM t WHERE a = ?", {Value(1)})) << db_.error();
  ASSERT_TRUE(db_.execute("SELECT a FROM t WHERE a = :a", NamedValues{{"a", 1}})) << db_.error();
  rows.clear();
  ASSERT_TRUE(db_.execute("SELECT a FROM t WHERE a = :id", {{"id", 1}}, &rows)) << db_.error();
  EXPECT_EQ(rows.size(), 1u);
  ASSERT_TRUE(db_.execute("SELECT a FROM t", {})) << db_.error();
  int seen = 0;
  ASSERT_TRUE(db_.execute(
      "SELECT a FROM t WHERE a = ?", [](Statement& statement) { return statement.bind(1, 1); },
      [&](const RowView&) { ++seen; }))
      << db_.error();
  EXPECT_EQ(seen, 1);
  // A single value that used to have no overload now binds.
  ASSERT_TRUE(db_.execute("SELECT a FROM t WHERE a = ?", Value(1))) << db_.error();
}

}  // namespace
