// Statement::bind(index, x): the typed overloads for every integer width,
// bool, floating point, text, blobs, NULL and optionals; `?NNN` parameters;
// and the failures (unsigned overflow, index out of range).
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

/// What SQLite stored for parameter 1: its `typeof()` and its value.
struct Stored {
  std::string type;
  Value value;
};

class Binding : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(db_.isOpen()) << db_.error(); }

  /// Binds `value` to ?1 of `SELECT typeof(?1), ?1` and returns what SQLite
  /// saw; a failed bind or step is a test failure.
  template <typename T>
  Stored roundTrip(const T& value) {
    Statement stmt = db_.prepare("SELECT typeof(?1), ?1");
    EXPECT_TRUE(stmt.isValid()) << db_.error();
    EXPECT_TRUE(stmt.bind(1, value)) << db_.error();
    EXPECT_EQ(stmt.step(), StepResult::Row) << db_.error();
    return Stored{stmt.columnValue(0).asText(), stmt.columnValue(1)};
  }

  /// The first row of `stmt` after stepping it once.
  Row firstRow(Statement& stmt) {
    EXPECT_EQ(stmt.step(), StepResult::Row) << db_.error();
    return stmt.row();
  }

  /// Binds the smallest and largest value of `T` (and 0 and 1) and checks
  /// that each comes back as exactly that integer.
  template <typename T>
  void expectIntegerExtremesRoundTrip() {
    for (const T value : {std::numeric_limits<T>::min(), T(0), T(1), std::numeric_limits<T>::max()}) {
      const Stored stored = roundTrip(value);
      EXPECT_EQ(stored.type, "integer") << +value;
      EXPECT_EQ(stored.value, Value(static_cast<std::int64_t>(value)))
          << +value << " came back as " << describe(stored.value);
    }
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(Binding, SignedIntegersOfEveryWidthBindExactly) {
  expectIntegerExtremesRoundTrip<signed char>();
  expectIntegerExtremesRoundTrip<short>();
  expectIntegerExtremesRoundTrip<int>();
  expectIntegerExtremesRoundTrip<long>();
  expectIntegerExtremesRoundTrip<long long>();
  // Spot checks with literal expectations, independent of the helper.
  EXPECT_EQ(roundTrip(static_cast<signed char>(-128)).value, Value(-128));
  EXPECT_EQ(roundTrip(static_cast<short>(-32768)).value, Value(-32768));
  EXPECT_EQ(roundTrip(INT_MIN).value, Value(INT_MIN));
  EXPECT_EQ(roundTrip(std::numeric_limits<long long>::min()).value.asInteger(), INT64_MIN);
  EXPECT_EQ(roundTrip(std::numeric_limits<long long>::max()).value.asInteger(), INT64_MAX);
}

TEST_F(Binding, UnsignedIntegersOfEveryWidthBindExactly) {
  expectIntegerExtremesRoundTrip<unsigned char>();
  expectIntegerExtremesRoundTrip<unsigned short>();
  expectIntegerExtremesRoundTrip<unsigned int>();
  EXPECT_EQ(roundTrip(static_cast<unsigned char>(255)).value, Value(255));
  EXPECT_EQ(roundTrip(static_cast<unsigned short>(65535)).value, Value(65535));
  EXPECT_EQ(roundTrip(4294967295u).value.asInteger(), 4294967295LL);
  // The 64-bit unsigned types up to INT64_MAX fit SQLite's integer.
  for (const unsigned long value : {0ul, 1ul, static_cast<unsigned long>(INT64_MAX)}) {
    const Stored stored = roundTrip(value);
    EXPECT_EQ(stored.type, "integer");
    EXPECT_EQ(stored.value.asInteger(), static_cast<std::int64_t>(value));
  }
  for (const unsigned long long value : {0ull, 42ull, static_cast<unsigned long long>(INT64_MAX)}) {
    const Stored stored = roundTrip(value);
    EXPECT_EQ(stored.type, "integer");
    EXPECT_EQ(stored.value.asInteger(), static_cast<std::int64_t>(value));
  }
  // std::uint64_t and std::int64_t are among these types.
  EXPECT_EQ(roundTrip(std::uint64_t{9007199254740993u}).value.asInteger(), 9007199254740993LL);
  EXPECT_EQ(roundTrip(std::int64_t{-9007199254740993}).value.asInteger(), -9007199254740993LL);
}

TEST_F(Binding, UnsignedAboveInt64MaxFailsWithRangeInsteadOfWrapping) {
  const unsigned long long tooBig[] = {static_cast<unsigned long long>(INT64_MAX) + 1, ULLONG_MAX};
  for (const unsigned long long value : tooBig) {
    Statement stmt = db_.prepare("SELECT typeof(?1), ?1");
    ASSERT_TRUE(stmt.isValid()) << db_.error();
    EXPECT_FALSE(stmt.bind(1, value));
    const auto error = db_.lastError();
    EXPECT_EQ(error.code, SQLITE_RANGE);
    EXPECT_EQ(error.extendedCode, SQLITE_RANGE);
    EXPECT_NE(error.message.find(std::to_string(value)), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("parameter 1"), std::string::npos) << error.message;
    EXPECT_EQ(error.sql, "SELECT typeof(?1), ?1");
    // Nothing was bound: the parameter is still NULL, never a wrapped-around
    // negative number.
    const Row row = firstRow(stmt);
    EXPECT_EQ(row.value(0), Value("null"));
    EXPECT_TRUE(row.value(1).isNull()) << describe(row.value(1));
  }
  // unsigned long (std::uint64_t here) takes the same checked path.
  Statement stmt = db_.prepare("SELECT ?1");
  EXPECT_FALSE(stmt.bind(1, std::numeric_limits<unsigned long>::max()));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_TRUE(firstRow(stmt).value(0).isNull());
}

TEST_F(Binding, UnsignedOverflowLeavesAnEarlierBindingInPlace) {
  Statement stmt = db_.prepare("SELECT ?1");
  ASSERT_TRUE(stmt.bind(1, 7));
  EXPECT_FALSE(stmt.bind(1, ULLONG_MAX));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_EQ(firstRow(stmt).value(0), Value(7));
}

TEST_F(Binding, UnsignedOverflowThroughAnOptionalFailsToo) {
  Statement stmt = db_.prepare("SELECT ?1");
  EXPECT_FALSE(stmt.bind(1, std::optional<unsigned long long>(ULLONG_MAX)));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_TRUE(firstRow(stmt).value(0).isNull());
}

TEST_F(Binding, BoolBindsOneOrZero) {
  const Stored yes = roundTrip(true);
  EXPECT_EQ(yes.type, "integer");
  EXPECT_EQ(yes.value, Value(1));
  const Stored no = roundTrip(false);
  EXPECT_EQ(no.type, "integer");
  EXPECT_EQ(no.value, Value(0));
}

TEST_F(Binding, FloatAndDoubleBindAsRealsExactly) {
  const Stored half = roundTrip(1.5f);
  EXPECT_EQ(half.type, "real");
  EXPECT_EQ(half.value, Value(1.5));
  // A float is widened exactly, not rounded through decimal text.
  const Stored tenth = roundTrip(0.1f);
  EXPECT_EQ(tenth.type, "real");
  EXPECT_EQ(tenth.value.asReal(), static_cast<double>(0.1f));
  const Stored precise = roundTrip(0.1);
  EXPECT_EQ(precise.type, "real");
  EXPECT_EQ(precise.value.asReal(), 0.1);
  EXPECT_EQ(roundTrip(-1e300).value.asReal(), -1e300);
  EXPECT_EQ(roundTrip(std::numeric_limits<double>::denorm_min()).value.asReal(),
            std::numeric_limits<double>::denorm_min());
  // A whole-number double is still a real, not an integer.
  EXPECT_EQ(roundTrip(2.0).type, "real");
  EXPECT_EQ(roundTrip(std::numeric_limits<double>::infinity()).value.asReal(), std::numeric_limits<double>::infinity());
}

TEST_F(Binding, NaNBindsNullAsSqliteDoes) {
  EXPECT_EQ(roundTrip(std::nan("")).type, "null");
  EXPECT_EQ(roundTrip(std::numeric_limits<float>::quiet_NaN()).type, "null");
}

TEST_F(Binding, ConstCharPointerBindsTextAndANullPointerBindsNull) {
  const char* text = "héllo";
  const Stored stored = roundTrip(text);
  EXPECT_EQ(stored.type, "text");
  EXPECT_EQ(stored.value, Value(std::string("h\xC3\xA9llo")));
  // A string literal goes to the same overload, not to bool.
  Statement literal = db_.prepare("SELECT typeof(?1), ?1");
  ASSERT_TRUE(literal.bind(1, "lit"));
  const Row row = firstRow(literal);
  EXPECT_EQ(row.value(0), Value("text"));
  EXPECT_EQ(row.value(1), Value("lit"));

  const char* none = nullptr;
  const Stored null = roundTrip(none);
  EXPECT_EQ(null.type, "null");
  EXPECT_TRUE(null.value.isNull());
  // The empty string is text, not NULL.
  EXPECT_EQ(roundTrip("").type, "text");
}

TEST_F(Binding, StdStringBindsEveryByteIncludingNul) {
  const std::string text("a\0b", 3);
  const Stored stored = roundTrip(text);
  EXPECT_EQ(stored.type, "text");
  EXPECT_EQ(stored.value, Value(text));
  EXPECT_EQ(stored.value.asText().size(), 3u);
  const Stored empty = roundTrip(std::string());
  EXPECT_EQ(empty.type, "text");
  EXPECT_EQ(empty.value, Value(std::string()));
}

TEST_F(Binding, StringViewBindsOnlyItsOwnBytes) {
  const char buffer[] = "title: kept; rest is ignored";
  const std::string_view view(buffer + 7, 4);  // "kept", not NUL-terminated
  const Stored stored = roundTrip(view);
  EXPECT_EQ(stored.type, "text");
  EXPECT_EQ(stored.value, Value("kept"));
  // A default string_view (null data, size 0) is empty text, not NULL.
  const Stored empty = roundTrip(std::string_view());
  EXPECT_EQ(empty.type, "text");
  EXPECT_EQ(empty.value, Value(std::string()));
}

TEST_F(Binding, ByteVectorBindsABlobAndAnEmptyOneAZeroLengthBlob) {
  const std::vector<std::uint8_t> bytes = {0x00, 0x01, 0x7f, 0x80, 0xff};
  const Stored stored = roundTrip(bytes);
  EXPECT_EQ(stored.type, "blob");
  EXPECT_EQ(stored.value.type(), ValueType::Blob);
  EXPECT_EQ(stored.value.asBlob(), bytes);

  Statement stmt = db_.prepare("SELECT typeof(?1), length(?1), ?1 IS NULL");
  ASSERT_TRUE(stmt.bind(1, std::vector<std::uint8_t>()));
  const Row row = firstRow(stmt);
  EXPECT_EQ(row.value(0), Value("blob"));
  EXPECT_EQ(row.value(1), Value(0));
  EXPECT_EQ(row.value(2), Value(0));
}

TEST_F(Binding, NullptrAndNulloptBindNull) {
  Statement stmt = db_.prepare("SELECT typeof(?1), typeof(?2)");
  ASSERT_TRUE(stmt.bind(1, 5));
  ASSERT_TRUE(stmt.bind(2, 5));
  // Overwrite earlier values so NULL is an observable change.
  ASSERT_TRUE(stmt.bind(1, nullptr));
  ASSERT_TRUE(stmt.bind(2, std::nullopt));
  const Row row = firstRow(stmt);
  EXPECT_EQ(row.value(0), Value("null"));
  EXPECT_EQ(row.value(1), Value("null"));
}

TEST_F(Binding, OptionalBindsItsValueOrNull) {
  EXPECT_EQ(roundTrip(std::optional<int>()).type, "null");
  const Stored five = roundTrip(std::optional<int>(5));
  EXPECT_EQ(five.type, "integer");
  EXPECT_EQ(five.value, Value(5));
  const Stored text = roundTrip(std::optional<std::string>("x"));
  EXPECT_EQ(text.type, "text");
  EXPECT_EQ(text.value, Value("x"));
  EXPECT_EQ(roundTrip(std::optional<std::string>()).type, "null");
  const Stored real = roundTrip(std::optional<double>(2.25));
  EXPECT_EQ(real.type, "real");
  EXPECT_EQ(real.value, Value(2.25));
  const Stored flag = roundTrip(std::optional<bool>(true));
  EXPECT_EQ(flag.type, "integer");
  EXPECT_EQ(flag.value, Value(1));
  const Stored blob = roundTrip(std::optional<std::vector<std::uint8_t>>(std::vector<std::uint8_t>()));
  EXPECT_EQ(blob.type, "blob");
  const Stored wide = roundTrip(std::optional<unsigned long long>(static_cast<unsigned long long>(INT64_MAX)));
  EXPECT_EQ(wide.value.asInteger(), INT64_MAX);
}

TEST_F(Binding, ValueBindsItsOwnStorageClass) {
  EXPECT_EQ(roundTrip(Value()).type, "null");
  EXPECT_EQ(roundTrip(Value(std::int64_t{-3})).value, Value(-3));
  EXPECT_EQ(roundTrip(Value(0.5)).type, "real");
  EXPECT_EQ(roundTrip(Value("v")).type, "text");
  EXPECT_EQ(roundTrip(Value::fromBlob(std::vector<std::uint8_t>())).type, "blob");
}

TEST_F(Binding, TypedValuesStoreWithTheirStorageClassInATable) {
  ASSERT_TRUE(db_.execute("CREATE TABLE t(a, b, c, d, e, f, g)")) << db_.error();
  Statement insert = db_.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)");
  ASSERT_TRUE(insert.isValid()) << db_.error();
  ASSERT_TRUE(insert.bind(1, static_cast<unsigned short>(7)));
  ASSERT_TRUE(insert.bind(2, true));
  ASSERT_TRUE(insert.bind(3, 2.5f));
  ASSERT_TRUE(insert.bind(4, std::string_view("sv")));
  ASSERT_TRUE(insert.bind(5, std::vector<std::uint8_t>{1, 2}));
  ASSERT_TRUE(insert.bind(6, std::optional<long>()));
  ASSERT_TRUE(insert.bind(7, std::optional<long>(-9)));
  ASSERT_EQ(insert.step(), StepResult::Done) << db_.error();
  EXPECT_EQ(dump(db_, "SELECT typeof(a), typeof(b), typeof(c), typeof(d), typeof(e), typeof(f), typeof(g) FROM t"),
            (std::vector<std::string>{"typeof(a)=text:integer|typeof(b)=text:integer|typeof(c)=text:real|"
                                      "typeof(d)=text:text|typeof(e)=text:blob|typeof(f)=text:null|"
                                      "typeof(g)=text:integer"}));
  EXPECT_EQ(dump(db_, "SELECT a, b, c, d, e, f, g FROM t"),
            (std::vector<std::string>{"a=int:7|b=int:1|c=real:2.5|d=text:sv|e=blob:1 2 |f=NULL|g=int:-9"}));
}

TEST_F(Binding, NumberedParametersBindByTheirNumber) {
  Statement stmt = db_.prepare("SELECT ?2, ?1, ?2");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_EQ(stmt.parameterCount(), 2);
  EXPECT_EQ(stmt.parameterName(1), "?1");
  EXPECT_EQ(stmt.parameterName(2), "?2");
  ASSERT_TRUE(stmt.bind(1, "one"));
  ASSERT_TRUE(stmt.bind(2, 2));
  const Row row = firstRow(stmt);
  EXPECT_EQ(row.value(0), Value(2));
  EXPECT_EQ(row.value(1), Value("one"));
  EXPECT_EQ(row.value(2), Value(2));
}

TEST_F(Binding, NumberedParameterSetsTheCountAndGapsStayNull) {
  Statement stmt = db_.prepare("SELECT ?5, typeof(?3)");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_EQ(stmt.parameterCount(), 5);
  ASSERT_TRUE(stmt.bind(5, 50));
  // Index 2 is in range although the SQL never uses it.
  EXPECT_TRUE(stmt.bind(2, 20)) << db_.error();
  const Row row = firstRow(stmt);
  EXPECT_EQ(row.value(0), Value(50));
  EXPECT_EQ(row.value(1), Value("null"));
  // Positional execute needs all five arguments.
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT ?5, ?1", {Value(1), Value(2), Value(3), Value(4), Value(5)}, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value(0), Value(5));
  EXPECT_EQ(rows[0].value(1), Value(1));
  EXPECT_FALSE(db_.execute("SELECT ?5, ?1", {Value(1), Value(5)}));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
}

TEST_F(Binding, EveryTypedOverloadFailsWithRangeForAnIndexOutOfRange) {
  Statement stmt = db_.prepare("SELECT ?1, ?2");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  const auto expectRange = [&](bool bound, int index, const char* what) {
    EXPECT_FALSE(bound) << what;
    const auto error = db_.lastError();
    EXPECT_EQ(error.code, SQLITE_RANGE) << what;
    EXPECT_EQ(error.extendedCode, SQLITE_RANGE) << what;
    EXPECT_NE(error.message.find("parameter index " + std::to_string(index)), std::string::npos)
        << what << ": " << error.message;
    EXPECT_NE(error.message.find("2 parameter(s)"), std::string::npos) << what << ": " << error.message;
  };
  expectRange(stmt.bind(3, 1), 3, "int");
  expectRange(stmt.bind(0, 1), 0, "int at 0");
  expectRange(stmt.bind(-1, 1), -1, "int at -1");
  expectRange(stmt.bind(3, static_cast<signed char>(1)), 3, "signed char");
  expectRange(stmt.bind(3, static_cast<short>(1)), 3, "short");
  expectRange(stmt.bind(3, 1L), 3, "long");
  expectRange(stmt.bind(3, 1LL), 3, "long long");
  expectRange(stmt.bind(3, static_cast<unsigned char>(1)), 3, "unsigned char");
  expectRange(stmt.bind(3, static_cast<unsigned short>(1)), 3, "unsigned short");
  expectRange(stmt.bind(3, 1u), 3, "unsigned");
  expectRange(stmt.bind(3, 1ul), 3, "unsigned long");
  expectRange(stmt.bind(3, 1ull), 3, "unsigned long long");
  // An out-of-range index is reported as such even for a value too big.
  expectRange(stmt.bind(3, ULLONG_MAX), 3, "unsigned long long too big");
  expectRange(stmt.bind(3, true), 3, "bool");
  expectRange(stmt.bind(3, 1.5f), 3, "float");
  expectRange(stmt.bind(3, 1.5), 3, "double");
  expectRange(stmt.bind(3, "x"), 3, "const char*");
  expectRange(stmt.bind(3, static_cast<const char*>(nullptr)), 3, "null const char*");
  expectRange(stmt.bind(3, std::string("x")), 3, "std::string");
  expectRange(stmt.bind(3, std::string_view("x")), 3, "std::string_view");
  expectRange(stmt.bind(3, std::vector<std::uint8_t>{1}), 3, "blob");
  expectRange(stmt.bind(3, std::vector<std::uint8_t>()), 3, "empty blob");
  expectRange(stmt.bind(3, nullptr), 3, "nullptr");
  expectRange(stmt.bind(3, std::nullopt), 3, "nullopt");
  expectRange(stmt.bind(3, std::optional<int>()), 3, "empty optional");
  expectRange(stmt.bind(3, std::optional<int>(1)), 3, "optional");
  expectRange(stmt.bind(3, Value(1)), 3, "Value");
  // The parameters in range are untouched by the failures.
  const Row row = firstRow(stmt);
  EXPECT_TRUE(row.value(0).isNull());
  EXPECT_TRUE(row.value(1).isNull());
}

TEST_F(Binding, StatementWithoutParametersRejectsIndexOne) {
  Statement stmt = db_.prepare("SELECT 1");
  EXPECT_FALSE(stmt.bind(1, 1));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_NE(db_.error().find("0 parameter(s)"), std::string::npos) << db_.error();
}

TEST_F(Binding, InvalidStatementFailsEveryBindWithMisuse) {
  Statement invalid;
  EXPECT_FALSE(invalid.bind(1, 1));
  EXPECT_FALSE(invalid.bind(1, "x"));
  EXPECT_FALSE(invalid.bind(1, ULLONG_MAX));
  // A default statement has no connection to report on; it must not crash
  // and must still refuse.
  EXPECT_FALSE(invalid.isValid());
}

TEST_F(Binding, RebindingAfterResetReplacesTheValue) {
  Statement stmt = db_.prepare("SELECT ?1");
  ASSERT_TRUE(stmt.bind(1, 1));
  EXPECT_EQ(firstRow(stmt).value(0), Value(1));
  ASSERT_TRUE(stmt.reset());
  ASSERT_TRUE(stmt.bind(1, std::string("two")));
  EXPECT_EQ(firstRow(stmt).value(0), Value("two"));
}
