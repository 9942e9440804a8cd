// Database::createFunction, createAggregate and removeFunction: fixed and
// any arity, every value type in and out, failures and C++ exceptions
// surfaced as the query's error, aggregates per group (empty too) and their
// failures, deterministic functions in an index and a CHECK, removal, and
// the function's state released on replace, remove and close.
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Aggregate;
using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

using Arguments = std::vector<Value>;

// Counts the live objects of its kind, to see that SQLite released them.
struct Tracked {
  explicit Tracked(std::atomic<int>& live) : live(live) { ++live; }
  Tracked(const Tracked& other) : live(other.live) { ++live; }
  ~Tracked() { --live; }
  std::atomic<int>& live;
};

// The sum of its integer arguments, over a group.
struct Sum : Aggregate {
  std::int64_t total = 0;
  bool step(const Arguments& arguments, std::string&) override {
    total += arguments.at(0).asInteger();
    return true;
  }
  bool finalize(Value& result, std::string&) override {
    result = Value(total);
    return true;
  }
};

class Functions : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(db_.isOpen()) << db_.error(); }
  // The one value `SELECT sql` returns with `arguments`.
  Value select(const std::string& sql, const Arguments& arguments = {}) {
    std::vector<Row> rows;
    EXPECT_TRUE(db_.execute(sql, arguments, &rows)) << db_.error();
    if (rows.size() != 1 || rows[0].size() != 1) {
      ADD_FAILURE() << sql << " did not return one value";
      return Value();
    }
    return rows[0].value(0);
  }
  // Expects `sql` to fail with `code` and a message containing `message`.
  void expectFailure(const std::string& sql, ResultCode code, const std::string& message) {
    EXPECT_FALSE(db_.execute(sql)) << sql;
    EXPECT_EQ(db_.lastError().resultCode(), code) << db_.error();
    EXPECT_NE(db_.error().find(message), std::string::npos) << db_.error();
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(Functions, ScalarOfFixedArity) {
  ASSERT_TRUE(db_.createFunction("twice", 1, true, [](const Arguments& arguments, Value& result, std::string&) {
    result = Value(arguments[0].asInteger() * 2);
    return true;
  })) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT twice(21)"), 42);
  expectFailure("SELECT twice(1, 2)", ResultCode::Error, "wrong number of arguments to function twice()");
}

TEST_F(Functions, ScalarOfAnyArityAndOverloadsByArity) {
  ASSERT_TRUE(db_.createFunction("count_args", -1, false, [](const Arguments& arguments, Value& result, std::string&) {
    result = Value(static_cast<std::int64_t>(arguments.size()));
    return true;
  })) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT count_args()"), 0);
  EXPECT_EQ(scalarInteger(db_, "SELECT count_args(1, 'a', NULL, x'00')"), 4);
  ASSERT_TRUE(db_.createFunction("count_args", 2, false, [](const Arguments&, Value& result, std::string&) {
    result = Value("two");
    return true;
  })) << db_.error();
  EXPECT_EQ(scalarText(db_, "SELECT count_args(1, 2)"), "two") << "the exact arity is preferred";
  EXPECT_EQ(scalarInteger(db_, "SELECT count_args(1, 2, 3)"), 3);
}

TEST_F(Functions, EveryValueTypeRoundTripsExactly) {
  static constexpr char kLongText[] = "long text past the inline bytes, with \xc3\xa9 and \0 inside";
  std::vector<ValueType> seen;
  ASSERT_TRUE(db_.createFunction("identity", 1, true, [&](const Arguments& arguments, Value& result, std::string&) {
    seen.push_back(arguments[0].type());
    result = arguments[0];
    return true;
  })) << db_.error();
  const std::vector<Value> values = {
      Value(),
      Value(std::int64_t{-9223372036854775807 - 1}),
      Value(std::int64_t{9223372036854775807}),
      Value(0.1),
      Value(-1e300),
      Value(std::string("a\0b\0", 4)),
      Value(std::string()),
      Value(std::string(kLongText, sizeof kLongText - 1)),
      Value::fromBlob(std::vector<std::uint8_t>{0, 1, 2, 255}),
      Value::fromBlob(std::vector<std::uint8_t>{}),
  };
  for (const Value& value : values) {
    const Value back = select("SELECT identity(?)", {value});
    EXPECT_EQ(back, value) << describe(value) << " came back as " << describe(back);
    EXPECT_EQ(seen.back(), value.type()) << describe(value);
  }
  EXPECT_EQ(scalarText(db_, "SELECT typeof(identity(x''))"), "blob") << "a zero-length blob is not NULL";
  EXPECT_EQ(scalarText(db_, "SELECT typeof(identity(''))"), "text");
  EXPECT_EQ(scalarInteger(db_, "SELECT length(CAST(identity(CAST(x'610062' AS TEXT)) AS BLOB))"), 3);
}

TEST_F(Functions, AFunctionReturningFalseFailsTheQueryWithItsMessage) {
  ASSERT_TRUE(db_.createFunction("refuse", 1, false, [](const Arguments& arguments, Value&, std::string& error) {
    error = "refused " + arguments[0].asText();
    return false;
  })) << db_.error();
  expectFailure("SELECT refuse('this')", ResultCode::Error, "refused this");
  ASSERT_TRUE(db_.createFunction("silent", 0, false, [](const Arguments&, Value&, std::string&) { return false; }));
  expectFailure("SELECT silent()", ResultCode::Error, "function silent failed");
  EXPECT_EQ(scalarInteger(db_, "SELECT 1"), 1) << "the connection stays usable";
}

TEST_F(Functions, ACxxExceptionIsCaughtAndFailsTheQuery) {
  ASSERT_TRUE(db_.createFunction("throws", 0, false, [](const Arguments&, Value&, std::string&) -> bool {
    throw std::runtime_error("thrown inside");
  })) << db_.error();
  expectFailure("SELECT throws()", ResultCode::Error, "thrown inside");
  ASSERT_TRUE(db_.createFunction("throws_int", 0, false, [](const Arguments&, Value&, std::string&) -> bool {
    throw 42;
  })) << db_.error();
  expectFailure("SELECT throws_int()", ResultCode::Error, "function throws_int threw a C++ exception");
  ASSERT_TRUE(db_.execute("CREATE TABLE t(x)"));
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES (throws())"));
  EXPECT_EQ(scalarInteger(db_, "SELECT count(*) FROM t"), 0);
}

TEST_F(Functions, AnAggregateSumsOverRowsGroupsAndAnEmptyTable) {
  int made = 0;
  ASSERT_TRUE(db_.createAggregate("total", 1, true, [&]() -> std::unique_ptr<Aggregate> {
    ++made;
    return std::make_unique<Sum>();
  })) << db_.error();
  ASSERT_TRUE(db_.executeScript(
      "CREATE TABLE t(g, x); INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 10), ('b', 20), ('b', 30);"));
  EXPECT_EQ(scalarInteger(db_, "SELECT total(x) FROM t"), 63);
  EXPECT_EQ(made, 1);
  EXPECT_EQ(dump(db_, "SELECT g, total(x) AS s FROM t GROUP BY g ORDER BY g"),
            (std::vector<std::string>{"g=text:a|s=int:3", "g=text:b|s=int:60"}));
  EXPECT_EQ(made, 3) << "one aggregate per group";
  ASSERT_TRUE(db_.execute("CREATE TABLE empty(x)"));
  EXPECT_EQ(scalarInteger(db_, "SELECT total(x) FROM empty"), 0) << "an empty group is finalized too";
  EXPECT_EQ(made, 4);
  EXPECT_TRUE(dump(db_, "SELECT x, total(x) FROM empty GROUP BY x").empty());
}

TEST_F(Functions, AnAggregateFailingInStepOrFinalizeFailsTheQuery) {
  static std::atomic<int> live{0};
  struct FailingStep : Sum {
    Tracked tracked{live};
    bool step(const Arguments& arguments, std::string& error) override {
      if (arguments[0].asInteger() == 2) {
        error = "step saw 2";
        return false;
      }
      return Sum::step(arguments, error);
    }
  };
  struct FailingFinalize : Sum {
    Tracked tracked{live};
    bool finalize(Value&, std::string& error) override {
      error = "finalize refused " + std::to_string(total);
      return false;
    }
  };
  struct ThrowingStep : Sum {
    Tracked tracked{live};
    bool step(const Arguments&, std::string&) override { throw std::runtime_error("step threw"); }
  };
  ASSERT_TRUE(db_.createAggregate("failing_step", 1, false, [] { return std::make_unique<FailingStep>(); }));
  ASSERT_TRUE(db_.createAggregate("failing_finalize", 1, false, [] { return std::make_unique<FailingFinalize>(); }));
  ASSERT_TRUE(db_.createAggregate("throwing_step", 1, false, [] { return std::make_unique<ThrowingStep>(); }));
  ASSERT_TRUE(db_.createAggregate("no_aggregate", 1, false, [] { return std::unique_ptr<Aggregate>(); }));
  ASSERT_TRUE(db_.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);"));
  expectFailure("SELECT failing_step(x) FROM t", ResultCode::Error, "step saw 2");
  expectFailure("SELECT failing_finalize(x) FROM t", ResultCode::Error, "finalize refused 6");
  expectFailure("SELECT throwing_step(x) FROM t", ResultCode::Error, "step threw");
  expectFailure("SELECT no_aggregate(x) FROM t", ResultCode::Error, "function no_aggregate made no aggregate");
  EXPECT_EQ(live.load(), 0) << "every aggregate object is destroyed";
}

TEST_F(Functions, AnAggregateOfAnAbandonedStatementIsDestroyed) {
  static std::atomic<int> live{0};
  struct Counted : Sum {
    Tracked tracked{live};
  };
  ASSERT_TRUE(db_.createAggregate("counted", 1, false, [] { return std::make_unique<Counted>(); }));
  ASSERT_TRUE(db_.executeScript("CREATE TABLE t(g, x); INSERT INTO t VALUES (1, 1), (1, 2), (2, 3), (3, 4);"));
  int rows = 0;
  ASSERT_TRUE(db_.forEachRow("SELECT g, counted(x) FROM t GROUP BY g", [&](const sqlitebridge::RowView&) {
    ++rows;
    return false;  // stop after the first group
  }));
  EXPECT_EQ(rows, 1);
  EXPECT_EQ(live.load(), 0);
}

TEST_F(Functions, ADeterministicFunctionWorksInAnIndexAndACheck) {
  const auto lower = [](const Arguments& arguments, Value& result, std::string&) {
    std::string text = arguments[0].asText();
    for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    result = Value(text);
    return true;
  };
  ASSERT_TRUE(db_.createFunction("my_lower", 1, true, lower)) << db_.error();
  ASSERT_TRUE(db_.createFunction("volatile_lower", 1, false, lower)) << db_.error();
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE t(name TEXT CHECK (my_lower(name) = name));"
                        "CREATE UNIQUE INDEX t_lower ON t(my_lower(name));"))
      << db_.error();
  EXPECT_TRUE(db_.execute("INSERT INTO t VALUES ('abc')")) << db_.error();
  EXPECT_FALSE(db_.execute("INSERT INTO t VALUES ('ABC')"));
  EXPECT_EQ(db_.lastError().extendedCode, 275) << db_.error() << " (SQLITE_CONSTRAINT_CHECK)";
  EXPECT_EQ(dump(db_, "EXPLAIN QUERY PLAN SELECT * FROM t WHERE my_lower(name) = 'abc'").size(), 1u);
  EXPECT_NE(dump(db_, "EXPLAIN QUERY PLAN SELECT * FROM t WHERE my_lower(name) = 'abc'")[0].find("t_lower"),
            std::string::npos)
      << "the index on the expression is used";
  expectFailure("CREATE INDEX t_volatile ON t(volatile_lower(name))", ResultCode::Error,
                "non-deterministic functions prohibited in index expressions");
  expectFailure("CREATE INDEX t_partial ON t(name) WHERE volatile_lower(name) = 'a'", ResultCode::Error,
                "non-deterministic functions prohibited in partial index WHERE clauses");
  // SQLite 3.40 does not refuse a non-deterministic function in a CHECK
  // (only in index expressions and partial-index WHERE clauses).
  ASSERT_TRUE(db_.execute("CREATE TABLE u(name TEXT CHECK (volatile_lower(name) = name))")) << db_.error();
  EXPECT_TRUE(db_.execute("INSERT INTO u VALUES ('abc')")) << db_.error();
}

TEST_F(Functions, RemovalReleasesTheStateAndTheFunctionIsGone) {
  std::atomic<int> live{0};
  {
    Tracked state(live);
    ASSERT_TRUE(db_.createFunction("f", 0, false, [state](const Arguments&, Value& result, std::string&) {
      result = Value(1);
      return true;
    })) << db_.error();
  }
  EXPECT_EQ(live.load(), 1);
  EXPECT_EQ(scalarInteger(db_, "SELECT f()"), 1);
  ASSERT_TRUE(db_.removeFunction("f", 0)) << db_.error();
  EXPECT_EQ(live.load(), 0);
  expectFailure("SELECT f()", ResultCode::Error, "no such function: f");
  EXPECT_TRUE(db_.removeFunction("never_registered")) << "removing nothing does nothing";

  ASSERT_TRUE(db_.createAggregate("agg", -1, false, [] { return std::make_unique<Sum>(); }));
  ASSERT_TRUE(db_.removeFunction("agg")) << db_.error();
  expectFailure("SELECT agg(1)", ResultCode::Error, "no such function: agg");
}

TEST_F(Functions, ReplacingReleasesTheOldStateAndCloseReleasesEverything) {
  std::atomic<int> live{0};
  const auto make = [&](std::int64_t answer) {
    Tracked state(live);
    return [state, answer](const Arguments&, Value& result, std::string&) {
      result = Value(answer);
      return true;
    };
  };
  ASSERT_TRUE(db_.createFunction("answer", 0, true, make(1)));
  ASSERT_TRUE(db_.createFunction("answer", 0, true, make(2)));
  EXPECT_EQ(live.load(), 1) << "the replaced function's state is released";
  EXPECT_EQ(scalarInteger(db_, "SELECT answer()"), 2);
  ASSERT_TRUE(db_.createFunction("other", -1, false, make(3)));
  std::atomic<int> factories{0};
  Tracked factoryState(factories);
  ASSERT_TRUE(db_.createAggregate("sum_agg", 1, false, [factoryState] { return std::make_unique<Sum>(); }));
  EXPECT_EQ(factories.load(), 2);
  EXPECT_EQ(live.load(), 2);
  db_.close();
  EXPECT_EQ(live.load(), 0) << "closing releases every function";
  EXPECT_EQ(factories.load(), 1);
}

TEST_F(Functions, RefusesBadNamesAndCallsOnAClosedDatabase) {
  const auto one = [](const Arguments&, Value& result, std::string&) {
    result = Value(1);
    return true;
  };
  EXPECT_FALSE(db_.createFunction(std::string("a\0b", 3), 0, false, one));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.createFunction(std::string(256, 'f'), 0, false, one));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse) << db_.error();
  EXPECT_TRUE(db_.createFunction(std::string(255, 'f'), 0, false, one)) << db_.error();
  EXPECT_EQ(scalarInteger(db_, "SELECT " + std::string(255, 'f') + "()"), 1);
  // More arguments than the engine's SQLITE_MAX_FUNCTION_ARG: 127 in
  // Debian 12's SQLite 3.40, 1000 in 3.53: 1001 is too many on both.
  EXPECT_FALSE(db_.createFunction("f", 1001, false, one));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.createFunction("f", 0, false, nullptr));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.removeFunction(std::string("a\0b", 3)));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  db_.close();
  EXPECT_FALSE(db_.createFunction("f", 0, false, one));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.removeFunction("f"));
}
