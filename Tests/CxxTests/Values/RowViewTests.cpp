// Database::forEachRow and Statement::forEachRow with a RowView of the
// current row: its accessors, the typed `get` with ColumnDecoder's exact
// conversions, and the errors (SQLITE_MISMATCH naming column, value and
// type; SQLITE_RANGE for an unknown column).
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::ColumnView;
using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

class RowViews : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(
        db_.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB);"
                          "INSERT INTO items VALUES (1, 'apple', 1.25, x'0102'), (2, 'pear', NULL, x''),"
                          "                         (3, 'plum', 3.0, NULL);"))
        << db_.error();
  }

  /// Runs `check` on the only row `sql` returns, through forEachRow; a row
  /// count other than one is a test failure. forEachRow must fail exactly
  /// when `check` left an error (a failed get) behind.
  template <typename Check>
  void withRow(const std::string& sql, Check&& check) {
    int rows = 0;
    const bool ok = db_.forEachRow(sql, [&](const RowView& row) {
      ++rows;
      check(row);
    });
    EXPECT_EQ(ok, !db_.lastError().isError()) << db_.error();
    EXPECT_EQ(rows, 1) << sql;
  }

  /// Reads the only column of `sql`'s only row as `T`: the value, or
  /// nullopt when the conversion fails (with the error left in lastError()).
  template <typename T>
  std::optional<T> read(const std::string& sql) {
    std::optional<T> result;
    withRow(sql, [&](const RowView& row) {
      T value{};
      if (row.get(0, value)) result = value;
    });
    return result;
  }

  /// Expects `sql`'s value to be refused as `T`, with a SQLITE_MISMATCH that
  /// names the column (`v`), shows `shown` and names `typeName`.
  template <typename T>
  void expectMismatch(const std::string& sql, const std::string& shown, const std::string& typeName) {
    withRow(sql, [&](const RowView& row) {
      T value{};
      const T before = value;
      EXPECT_FALSE(row.get(0, value)) << sql << " as " << typeName;
      EXPECT_TRUE(value == before) << "a failed get must leave the output alone: " << sql;
    });
    const auto error = db_.lastError();
    EXPECT_EQ(error.code, SQLITE_MISMATCH) << sql;
    EXPECT_EQ(error.extendedCode, SQLITE_MISMATCH) << sql;
    EXPECT_NE(error.message.find("\"v\""), std::string::npos) << error.message;
    EXPECT_NE(error.message.find(shown), std::string::npos) << "'" << shown << "' not in: " << error.message;
    EXPECT_NE(error.message.find(typeName), std::string::npos) << "'" << typeName << "' not in: " << error.message;
    EXPECT_EQ(error.sql, sql);
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

// MARK: forEachRow

TEST_F(RowViews, ForEachRowWithPositionalArgumentsSeesEveryRowInOrder) {
  std::vector<std::string> names;
  ASSERT_TRUE(db_.forEachRow("SELECT name FROM items WHERE id >= ? ORDER BY id", {Value(2)}, [&](const RowView& row) {
    names.push_back(row.value(0).asText());
  })) << db_.error();
  EXPECT_EQ(names, (std::vector<std::string>{"pear", "plum"}));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(RowViews, ForEachRowWithNamedArguments) {
  std::vector<std::int64_t> ids;
  ASSERT_TRUE(db_.forEachRow("SELECT id FROM items WHERE name <> :skip ORDER BY id DESC", NamedValues{{"skip", "pear"}},
                             [&](const RowView& row) { ids.push_back(row.column(0).integer); }))
      << db_.error();
  EXPECT_EQ(ids, (std::vector<std::int64_t>{3, 1}));
}

TEST_F(RowViews, ForEachRowWithoutArguments) {
  int rows = 0;
  ASSERT_TRUE(db_.forEachRow("SELECT * FROM items", [&](const RowView&) { ++rows; })) << db_.error();
  EXPECT_EQ(rows, 3);
  // A statement without rows never calls the body and succeeds.
  ASSERT_TRUE(db_.forEachRow("SELECT * FROM items WHERE id < 0", [&](const RowView&) { ++rows; }));
  ASSERT_TRUE(db_.forEachRow("UPDATE items SET name = upper(name)", [&](const RowView&) { ++rows; }));
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(scalarText(db_, "SELECT name FROM items WHERE id = 1"), "APPLE");
}

TEST_F(RowViews, BodyReturningFalseStopsEarlyAndSucceeds) {
  std::vector<std::int64_t> ids;
  EXPECT_TRUE(db_.forEachRow("SELECT id FROM items ORDER BY id", [&](const RowView& row) {
    ids.push_back(row.column(0).integer);
    return ids.size() < 2;
  })) << db_.error();
  EXPECT_EQ(ids, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(db_.lastError().code, 0);
}

TEST_F(RowViews, BodyReturningTrueSeesEveryRow) {
  int rows = 0;
  EXPECT_TRUE(db_.forEachRow("SELECT id FROM items", [&](const RowView&) { return ++rows > 0; }));
  EXPECT_EQ(rows, 3);
}

TEST_F(RowViews, BodyStoppingAfterAFailedGetMakesForEachRowFail) {
  int rows = 0;
  EXPECT_FALSE(db_.forEachRow("SELECT id, price AS v FROM items ORDER BY id", [&](const RowView& row) {
    ++rows;
    double price = 0;
    return row.get("v", price);  // row 2 has a NULL price
  }));
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(db_.lastError().code, SQLITE_MISMATCH);
  EXPECT_NE(db_.error().find("\"v\""), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("NULL"), std::string::npos) << db_.error();
  EXPECT_NE(db_.error().find("double"), std::string::npos) << db_.error();
}

TEST_F(RowViews, ForEachRowFailuresReportTheError) {
  int rows = 0;
  const auto body = [&](const RowView&) { ++rows; };
  EXPECT_FALSE(db_.forEachRow("SELECT * FROM nowhere", body));
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("no such table"), std::string::npos) << db_.error();

  EXPECT_FALSE(db_.forEachRow("SELECT ?, ?", {Value(1)}, body));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(db_.forEachRow("SELECT ?", body));
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_FALSE(db_.forEachRow("SELECT 1; SELECT 2", body));
  EXPECT_EQ(db_.lastError().code, SQLITE_MISUSE);
  EXPECT_EQ(rows, 0);

  // A step that fails part way: the rows before it were seen.
  EXPECT_FALSE(db_.forEachRow(
      "SELECT CASE WHEN id = 3 THEN abs(-9223372036854775807 - 1) ELSE id END FROM items ORDER BY id", body));
  EXPECT_EQ(rows, 2);
  EXPECT_EQ(db_.lastError().code, SQLITE_ERROR);
  EXPECT_NE(db_.error().find("integer overflow"), std::string::npos) << db_.error();
}

// MARK: RowView accessors

TEST_F(RowViews, SizeNamesAndColumnIndex) {
  withRow("SELECT 1 AS a, 2 AS B, 3 AS a, 4 AS \"Mixed Case\"", [](const RowView& row) {
    EXPECT_EQ(row.size(), 4);
    EXPECT_EQ(row.columnName(0), "a");
    EXPECT_EQ(row.columnName(1), "B");
    EXPECT_EQ(row.columnName(3), "Mixed Case");
    EXPECT_EQ(row.columnName(4), "");
    EXPECT_EQ(row.columnName(-1), "");
    // Case-insensitive, leftmost duplicate, -1 when absent.
    EXPECT_EQ(row.columnIndex("a"), 0);
    EXPECT_EQ(row.columnIndex("A"), 0);
    EXPECT_EQ(row.columnIndex("b"), 1);
    EXPECT_EQ(row.columnIndex("mixed case"), 3);
    EXPECT_EQ(row.columnIndex("mixed"), -1);
    EXPECT_EQ(row.columnIndex(""), -1);
    EXPECT_EQ(row.value("A"), Value(1));
    EXPECT_EQ(row.value("MIXED CASE"), Value(4));
  });
}

TEST_F(RowViews, CaseFoldingIsAsciiOnly) {
  withRow("SELECT 1 AS \"\xC3\xA9t\xC3\xA9\"", [](const RowView& row) {
    EXPECT_EQ(row.columnIndex("\xC3\xA9t\xC3\xA9"), 0);
    EXPECT_EQ(row.columnIndex("\xC3\x89T\xC3\x89"), -1);  // "ÉTÉ": not folded
    EXPECT_EQ(row.columnIndex("\xC3\xA9T\xC3\xA9"), 0);   // the ASCII T is
  });
}

TEST_F(RowViews, ColumnValueIsNullAndCopy) {
  std::vector<Row> copies;
  ASSERT_TRUE(db_.forEachRow("SELECT id, name, price, data FROM items ORDER BY id", [&](const RowView& row) {
    copies.push_back(row.copy());
    if (row.column(0).integer == 1) {
      const ColumnView name = row.column(1);
      EXPECT_EQ(name.type, ValueType::Text);
      EXPECT_EQ(std::string(static_cast<const char*>(name.bytes), name.size), "apple");
      EXPECT_EQ(row.column(2).type, ValueType::Real);
      EXPECT_EQ(row.column(2).real, 1.25);
      EXPECT_EQ(row.value(3), Value::fromBlob(std::vector<std::uint8_t>{1, 2}));
      EXPECT_EQ(row.value("NAME"), Value("apple"));
      EXPECT_FALSE(row.isNull(2));
    }
    if (row.column(0).integer == 2) {
      EXPECT_TRUE(row.isNull(2));
      EXPECT_EQ(row.value(2), Value());
      // A zero-length blob is a blob, not NULL.
      EXPECT_FALSE(row.isNull(3));
      EXPECT_EQ(row.column(3).type, ValueType::Blob);
      EXPECT_EQ(row.column(3).size, 0u);
    }
    // Out of range reads NULL.
    EXPECT_TRUE(row.isNull(4));
    EXPECT_TRUE(row.isNull(-1));
    EXPECT_EQ(row.column(4).type, ValueType::Null);
    EXPECT_TRUE(row.value(9).isNull());
    EXPECT_TRUE(row.value("missing").isNull());
  })) << db_.error();
  // The copies outlive the statement and keep names and values.
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[0].columnName(1), "name");
  EXPECT_EQ(copies[0].value("name"), Value("apple"));
  EXPECT_EQ(copies[1].value("price"), Value());
  EXPECT_EQ(copies[2].value("price"), Value(3.0));
  EXPECT_EQ(copies[2].value("data"), Value());
  EXPECT_EQ(copies[1].value("data"), Value::fromBlob(std::vector<std::uint8_t>()));
}

// MARK: Typed get: integers

TEST_F(RowViews, IntegerReadsAsEveryIntegerTypeItFits) {
  EXPECT_EQ(read<signed char>("SELECT 127 AS v"), std::optional<signed char>(127));
  EXPECT_EQ(read<signed char>("SELECT -128 AS v"), std::optional<signed char>(-128));
  EXPECT_EQ(read<short>("SELECT -32768 AS v"), std::optional<short>(-32768));
  EXPECT_EQ(read<int>("SELECT 2147483647 AS v"), std::optional<int>(INT_MAX));
  EXPECT_EQ(read<int>("SELECT -2147483648 AS v"), std::optional<int>(INT_MIN));
  EXPECT_EQ(read<long>("SELECT -9223372036854775808 AS v"), std::optional<long>(LONG_MIN));
  EXPECT_EQ(read<long long>("SELECT 9223372036854775807 AS v"), std::optional<long long>(LLONG_MAX));
  EXPECT_EQ(read<std::int64_t>("SELECT 42 AS v"), std::optional<std::int64_t>(42));
  EXPECT_EQ(read<unsigned char>("SELECT 255 AS v"), std::optional<unsigned char>(255));
  EXPECT_EQ(read<unsigned short>("SELECT 65535 AS v"), std::optional<unsigned short>(65535));
  EXPECT_EQ(read<unsigned int>("SELECT 4294967295 AS v"), std::optional<unsigned int>(4294967295u));
  EXPECT_EQ(read<unsigned long>("SELECT 0 AS v"), std::optional<unsigned long>(0));
  EXPECT_EQ(read<unsigned long long>("SELECT 9223372036854775807 AS v"),
            std::optional<unsigned long long>(9223372036854775807ull));
  EXPECT_EQ(read<std::uint8_t>("SELECT 7 AS v"), std::optional<std::uint8_t>(7));
}

TEST_F(RowViews, IntegerOutOfATypesRangeIsAMismatch) {
  expectMismatch<std::int8_t>("SELECT 128 AS v", "integer 128", "int8");
  expectMismatch<std::int8_t>("SELECT -129 AS v", "integer -129", "int8");
  expectMismatch<std::int16_t>("SELECT 32768 AS v", "integer 32768", "int16");
  expectMismatch<std::int32_t>("SELECT 2147483648 AS v", "integer 2147483648", "int32");
  expectMismatch<std::int32_t>("SELECT -2147483649 AS v", "integer -2147483649", "int32");
  expectMismatch<std::uint8_t>("SELECT 256 AS v", "integer 256", "uint8");
  expectMismatch<std::uint16_t>("SELECT 65536 AS v", "integer 65536", "uint16");
  expectMismatch<std::uint32_t>("SELECT 4294967296 AS v", "integer 4294967296", "uint32");
  // Negative numbers fit no unsigned type.
  expectMismatch<std::uint8_t>("SELECT -1 AS v", "integer -1", "uint8");
  expectMismatch<std::uint32_t>("SELECT -1 AS v", "integer -1", "uint32");
  expectMismatch<std::uint64_t>("SELECT -1 AS v", "integer -1", "uint64");
  expectMismatch<unsigned long long>("SELECT -9223372036854775808 AS v", "integer -9223372036854775808", "uint64");
}

TEST_F(RowViews, RealWithoutFractionReadsAsAnInteger) {
  EXPECT_EQ(read<int>("SELECT 2.0 AS v"), std::optional<int>(2));
  EXPECT_EQ(read<int>("SELECT -3.0 AS v"), std::optional<int>(-3));
  EXPECT_EQ(read<std::uint8_t>("SELECT 255.0 AS v"), std::optional<std::uint8_t>(255));
  EXPECT_EQ(read<std::int64_t>("SELECT -9223372036854775808.0 AS v"), std::optional<std::int64_t>(INT64_MIN));
  EXPECT_EQ(read<std::int64_t>("SELECT 1e15 AS v"), std::optional<std::int64_t>(1000000000000000));
  EXPECT_EQ(read<int>("SELECT -0.0 AS v"), std::optional<int>(0));
}

TEST_F(RowViews, RealWithAFractionOrOutOfRangeIsAMismatch) {
  expectMismatch<int>("SELECT 2.5 AS v", "real 2.5", "int32");
  expectMismatch<std::int64_t>("SELECT -0.5 AS v", "real -0.5", "int64");
  expectMismatch<std::uint8_t>("SELECT 256.0 AS v", "real 256", "uint8");
  expectMismatch<std::int8_t>("SELECT -129.0 AS v", "real -129", "int8");
  // 2^63 is whole but does not fit an int64.
  expectMismatch<std::int64_t>("SELECT 9223372036854775808.0 AS v", "real", "int64");
  expectMismatch<std::int64_t>("SELECT 1e300 AS v", "real", "int64");
  expectMismatch<std::int64_t>("SELECT 9e999 AS v", "real", "int64");  // infinity
}

TEST_F(RowViews, IntegerAndRealReadAsFloatingPoint) {
  EXPECT_EQ(read<double>("SELECT 42 AS v"), std::optional<double>(42.0));
  EXPECT_EQ(read<double>("SELECT -7 AS v"), std::optional<double>(-7.0));
  EXPECT_EQ(read<double>("SELECT 0.1 AS v"), std::optional<double>(0.1));
  EXPECT_EQ(read<float>("SELECT 3 AS v"), std::optional<float>(3.0f));
  EXPECT_EQ(read<float>("SELECT 1.5 AS v"), std::optional<float>(1.5f));
  EXPECT_EQ(read<float>("SELECT 0.1 AS v"), std::optional<float>(0.1f));  // the nearest float
  EXPECT_EQ(read<double>("SELECT 9e999 AS v"), std::optional<double>(std::numeric_limits<double>::infinity()));
  // An infinite real is infinite as a float, too.
  EXPECT_EQ(read<float>("SELECT -9e999 AS v"), std::optional<float>(-std::numeric_limits<float>::infinity()));
}

TEST_F(RowViews, FiniteRealBeyondFloatRangeIsAMismatch) {
  // It would become infinity: not a conversion that loses nothing (the Swift
  // facade's Float refuses it as well).
  expectMismatch<float>("SELECT 1e300 AS v", "real 1.0e+300", "float");
  expectMismatch<float>("SELECT -1e39 AS v", "real", "float");
  expectMismatch<std::optional<float>>("SELECT 1e300 AS v", "real", "float");
  // The largest float still reads.
  EXPECT_EQ(read<float>("SELECT 3.4028234663852886e38 AS v"), std::optional<float>(std::numeric_limits<float>::max()));
}

TEST_F(RowViews, BoolReadsNonZeroIntegersAsTrue) {
  EXPECT_EQ(read<bool>("SELECT 1 AS v"), std::optional<bool>(true));
  EXPECT_EQ(read<bool>("SELECT 0 AS v"), std::optional<bool>(false));
  EXPECT_EQ(read<bool>("SELECT 2 AS v"), std::optional<bool>(true));
  EXPECT_EQ(read<bool>("SELECT -1 AS v"), std::optional<bool>(true));
  EXPECT_EQ(read<bool>("SELECT 1.0 AS v"), std::optional<bool>(true));
  EXPECT_EQ(read<bool>("SELECT 0.0 AS v"), std::optional<bool>(false));
  expectMismatch<bool>("SELECT 0.5 AS v", "real 0.5", "bool");
  expectMismatch<bool>("SELECT 'true' AS v", "text 'true'", "bool");
  expectMismatch<bool>("SELECT '1' AS v", "text '1'", "bool");
  expectMismatch<bool>("SELECT NULL AS v", "NULL", "bool");
}

// MARK: Typed get: text, blobs, NULL, Value

TEST_F(RowViews, TextIsNeverParsedAsANumber) {
  expectMismatch<int>("SELECT '12' AS v", "text '12'", "int32");
  expectMismatch<std::int64_t>("SELECT '12abc' AS v", "text '12abc'", "int64");
  expectMismatch<double>("SELECT '1.5' AS v", "text '1.5'", "double");
  expectMismatch<float>("SELECT '' AS v", "text ''", "float");
}

TEST_F(RowViews, TextReadsAsStringOnlyAndBlobAsBytesOnly) {
  EXPECT_EQ(read<std::string>("SELECT 'héllo' AS v"), std::optional<std::string>("h\xC3\xA9llo"));
  EXPECT_EQ(read<std::string>("SELECT '' AS v"), std::optional<std::string>(""));
  EXPECT_EQ(read<std::string>("SELECT 'a' || char(0) || 'b' AS v"), std::optional<std::string>(std::string("a\0b", 3)));
  EXPECT_EQ(read<std::vector<std::uint8_t>>("SELECT x'00ff10' AS v"),
            std::optional<std::vector<std::uint8_t>>(std::vector<std::uint8_t>{0x00, 0xff, 0x10}));
  EXPECT_EQ(read<std::vector<std::uint8_t>>("SELECT x'' AS v"),
            std::optional<std::vector<std::uint8_t>>(std::vector<std::uint8_t>()));
  expectMismatch<std::string>("SELECT x'6869' AS v", "blob of 2 byte(s)", "string");
  expectMismatch<std::vector<std::uint8_t>>("SELECT 'hi' AS v", "text 'hi'", "blob");
  // Numbers are not formatted as text.
  expectMismatch<std::string>("SELECT 12 AS v", "integer 12", "string");
  expectMismatch<std::string>("SELECT 1.5 AS v", "real 1.5", "string");
  expectMismatch<std::vector<std::uint8_t>>("SELECT 12 AS v", "integer 12", "blob");
}

TEST_F(RowViews, LongTextIsShortenedInTheMessage) {
  const std::string text(100, 'x');
  expectMismatch<int>("SELECT '" + text + "' AS v", "text '" + std::string(40, 'x') + "...'", "int32");
  EXPECT_EQ(db_.error().find(std::string(41, 'x')), std::string::npos) << db_.error();
}

TEST_F(RowViews, NullFailsForNonOptionalTypes) {
  expectMismatch<int>("SELECT NULL AS v", "NULL", "int32");
  expectMismatch<std::uint64_t>("SELECT NULL AS v", "NULL", "uint64");
  expectMismatch<double>("SELECT NULL AS v", "NULL", "double");
  expectMismatch<std::string>("SELECT NULL AS v", "NULL", "string");
  expectMismatch<std::vector<std::uint8_t>>("SELECT NULL AS v", "NULL", "blob");
}

TEST_F(RowViews, OptionalReadsNullAsEmptyAndOtherwiseAsItsType) {
  withRow("SELECT NULL AS v, 5 AS n, 'x' AS s, 2.5 AS r", [](const RowView& row) {
    std::optional<int> number = 99;
    EXPECT_TRUE(row.get("v", number));
    EXPECT_FALSE(number.has_value());
    std::optional<std::string> text = std::string("old");
    EXPECT_TRUE(row.get("v", text));
    EXPECT_FALSE(text.has_value());
    EXPECT_TRUE(row.get("n", number));
    EXPECT_EQ(number, std::optional<int>(5));
    EXPECT_TRUE(row.get("s", text));
    EXPECT_EQ(text, std::optional<std::string>("x"));
    std::optional<double> real;
    EXPECT_TRUE(row.get("r", real));
    EXPECT_EQ(real, std::optional<double>(2.5));
  });
  // A value that is there must still convert exactly.
  expectMismatch<std::optional<int>>("SELECT 2.5 AS v", "real 2.5", "int32");
  expectMismatch<std::optional<int>>("SELECT '3' AS v", "text '3'", "int32");
  expectMismatch<std::optional<std::uint8_t>>("SELECT 300 AS v", "integer 300", "uint8");
}

TEST_F(RowViews, ValueReadsAnythingAsItIs) {
  withRow("SELECT NULL AS a, 1 AS b, 1.5 AS c, 'x' AS d, x'01' AS e, x'' AS f", [](const RowView& row) {
    Value value("untouched");
    EXPECT_TRUE(row.get("a", value));
    EXPECT_TRUE(value.isNull());
    EXPECT_TRUE(row.get("b", value));
    EXPECT_EQ(value, Value(1));
    EXPECT_TRUE(row.get("c", value));
    EXPECT_EQ(value, Value(1.5));
    EXPECT_TRUE(row.get("d", value));
    EXPECT_EQ(value, Value("x"));
    EXPECT_TRUE(row.get("e", value));
    EXPECT_EQ(value, Value::fromBlob(std::vector<std::uint8_t>{1}));
    EXPECT_TRUE(row.get("f", value));
    EXPECT_EQ(value, Value::fromBlob(std::vector<std::uint8_t>()));
  });
}

TEST_F(RowViews, GetByNameIsCaseInsensitiveAndTakesTheLeftmost) {
  withRow("SELECT 1 AS id, 2 AS ID, 'x' AS Name", [](const RowView& row) {
    int id = 0;
    EXPECT_TRUE(row.get("Id", id));
    EXPECT_EQ(id, 1);
    std::string name;
    EXPECT_TRUE(row.get("NAME", name));
    EXPECT_EQ(name, "x");
  });
}

TEST_F(RowViews, UnknownColumnNameIsARangeError) {
  const std::string sql = "SELECT 1 AS id";
  withRow(sql, [](const RowView& row) {
    int value = 7;
    EXPECT_FALSE(row.get("nope", value));
    EXPECT_EQ(value, 7);
  });
  const auto error = db_.lastError();
  EXPECT_EQ(error.code, SQLITE_RANGE);
  EXPECT_EQ(error.extendedCode, SQLITE_RANGE);
  EXPECT_NE(error.message.find("\"nope\""), std::string::npos) << error.message;
  EXPECT_EQ(error.sql, sql);
}

TEST_F(RowViews, ColumnIndexOutOfRangeIsARangeError) {
  withRow("SELECT 1 AS id", [](const RowView& row) {
    int value = 7;
    EXPECT_FALSE(row.get(1, value));
    EXPECT_EQ(value, 7);
  });
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
  EXPECT_NE(db_.error().find("column index 1"), std::string::npos) << db_.error();
  withRow("SELECT 1 AS id", [](const RowView& row) {
    std::string value;
    EXPECT_FALSE(row.get(-1, value));
  });
  EXPECT_EQ(db_.lastError().code, SQLITE_RANGE);
}

TEST_F(RowViews, VoidBodyThatIgnoresAFailedGetStillMakesForEachRowFail) {
  int rows = 0;
  EXPECT_FALSE(db_.forEachRow("SELECT name FROM items ORDER BY id", [&](const RowView& row) {
    int number = 0;
    row.get(0, number);  // text never reads as a number; the body goes on
    ++rows;
  }));
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(db_.lastError().code, SQLITE_MISMATCH);
  EXPECT_NE(db_.error().find("\"name\""), std::string::npos) << db_.error();
}

TEST_F(RowViews, TypedGetsReadARealTableRow) {
  std::vector<std::string> lines;
  ASSERT_TRUE(db_.forEachRow("SELECT id, name, price, data FROM items ORDER BY id", [&](const RowView& row) {
    long id = 0;
    std::string name;
    std::optional<double> price;
    std::optional<std::vector<std::uint8_t>> data;
    if (!row.get("id", id) || !row.get("name", name) || !row.get("price", price) || !row.get("data", data)) {
      return false;
    }
    lines.push_back(std::to_string(id) + " " + name + " " + (price ? std::to_string(*price) : "-") + " " +
                    (data ? std::to_string(data->size()) : "-"));
    return true;
  })) << db_.error();
  EXPECT_EQ(lines, (std::vector<std::string>{"1 apple 1.250000 2", "2 pear - 0", "3 plum 3.000000 -"}));
}

// MARK: Statement::forEachRow

TEST_F(RowViews, StatementForEachRowStepsTheStatement) {
  Statement stmt = db_.prepare("SELECT name FROM items WHERE id <= ? ORDER BY id");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  ASSERT_TRUE(stmt.bind(1, 2));
  std::vector<std::string> names;
  ASSERT_TRUE(stmt.forEachRow([&](const RowView& row) {
    std::string name;
    EXPECT_TRUE(row.get(0, name));
    names.push_back(name);
  })) << db_.error();
  EXPECT_EQ(names, (std::vector<std::string>{"apple", "pear"}));
  // Finished: reset (bindings kept) and it runs again.
  ASSERT_TRUE(stmt.reset());
  names.clear();
  ASSERT_TRUE(stmt.forEachRow([&](const RowView& row) {
    names.push_back(row.value(0).asText());
    return false;
  }));
  EXPECT_EQ(names, (std::vector<std::string>{"apple"}));
}

TEST_F(RowViews, StatementForEachRowReportsAFailedStep) {
  ASSERT_TRUE(db_.execute("CREATE TABLE u(x UNIQUE)"));
  Statement insert = db_.prepare("INSERT INTO u VALUES (1), (1) RETURNING x");
  ASSERT_TRUE(insert.isValid()) << db_.error();
  int rows = 0;
  EXPECT_FALSE(insert.forEachRow([&](const RowView&) { ++rows; }));
  EXPECT_EQ(db_.lastError().extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  Statement invalid;
  EXPECT_FALSE(invalid.forEachRow([&](const RowView&) { ++rows; }));
}

TEST_F(RowViews, StatementForEachRowIgnoresAnEarlierFailure) {
  // An earlier, already reported failure on the same statement is not the
  // body's: stopping early is still a success.
  Statement stmt = db_.prepare("SELECT id FROM items ORDER BY id");
  ASSERT_TRUE(stmt.isValid()) << db_.error();
  EXPECT_FALSE(stmt.bind(5, 1));
  ASSERT_EQ(db_.lastError().code, SQLITE_RANGE);
  int rows = 0;
  EXPECT_TRUE(stmt.forEachRow([&](const RowView&) { return ++rows < 2; })) << db_.error();
  EXPECT_EQ(rows, 2);
}
