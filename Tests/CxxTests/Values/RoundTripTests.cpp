// Every value type goes into a database and comes back exactly: same storage
// class, same bits, same bytes.
#include <cmath>
#include <cstring>
#include <limits>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class RoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    // No declared type: no affinity, so nothing is converted on the way in.
    ASSERT_TRUE(db_.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")) << db_.error();
  }

  // Stores `value` in the table and reads it back, with SQLite's typeof().
  Value storeAndLoad(const Value& value, std::string* storedType = nullptr) {
    EXPECT_TRUE(db_.execute("DELETE FROM t")) << db_.error();
    EXPECT_TRUE(db_.execute("INSERT INTO t(id, v) VALUES (1, ?)", {value})) << db_.error();
    std::vector<Row> rows;
    EXPECT_TRUE(db_.execute("SELECT v, typeof(v) AS type FROM t WHERE id = 1", &rows)) << db_.error();
    if (rows.size() != 1) {
      ADD_FAILURE() << "expected one row, got " << rows.size();
      return Value();
    }
    if (storedType != nullptr) *storedType = rows[0].value("type").asText();
    return rows[0].value(0);
  }

  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(RoundTrip, Int64ExtremesAndZeroComeBackExactly) {
  for (std::int64_t n : {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                         std::int64_t{0}, std::int64_t{-1}, std::int64_t{1} << 53, (std::int64_t{1} << 53) + 1}) {
    std::string type;
    const Value back = storeAndLoad(Value(n), &type);
    EXPECT_EQ(type, "integer") << n;
    EXPECT_EQ(back.type(), ValueType::Integer) << n;
    EXPECT_EQ(back.asInteger(), n);
  }
}

TEST_F(RoundTrip, DoublesComeBackBitForBit) {
  const double values[] = {0.0,
                           -0.0,
                           0.1,
                           -2.5,
                           1.0 / 3.0,
                           1e308,
                           -1e308,
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::lowest(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::denorm_min(),
                           4.9406564584124654e-320,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           9007199254740993.0,
                           3.0};
  for (double d : values) {
    std::string type;
    const Value back = storeAndLoad(Value(d), &type);
    EXPECT_EQ(type, "real") << d;
    ASSERT_EQ(back.type(), ValueType::Real) << d;
    EXPECT_TRUE(sameBits(back.asReal(), d)) << "stored " << d << ", read " << back.asReal();
  }
}

TEST_F(RoundTrip, NegativeZeroKeepsItsSign) {
  const Value back = storeAndLoad(Value(-0.0));
  ASSERT_EQ(back.type(), ValueType::Real);
  EXPECT_TRUE(std::signbit(back.asReal()));
}

TEST_F(RoundTrip, NaNIsStoredAsNullAsSqliteDoes) {
  std::string type;
  const Value back = storeAndLoad(Value(std::numeric_limits<double>::quiet_NaN()), &type);
  EXPECT_EQ(type, "null");
  EXPECT_TRUE(back.isNull());
}

TEST_F(RoundTrip, Utf8TextComesBackExactly) {
  for (const std::string& text :
       {std::string("hello"), std::string("h\xC3\xA9llo \xE2\x9C\x93 \xE6\x97\xA5\xE6\x9C\xAC"),
        std::string("\xF0\x9F\x98\x80 emoji"), std::string(100000, 'x'),
        std::string("quote ' and \" and ; -- not a comment")}) {
    std::string type;
    const Value back = storeAndLoad(Value(text), &type);
    EXPECT_EQ(type, "text");
    EXPECT_EQ(back.type(), ValueType::Text);
    EXPECT_EQ(back.asText(), text);
  }
}

TEST_F(RoundTrip, TextWithEmbeddedNulKeepsEveryByte) {
  const std::string text("a\0b\0\0c", 6);
  std::string type;
  const Value back = storeAndLoad(Value(text), &type);
  EXPECT_EQ(type, "text");
  EXPECT_EQ(back.type(), ValueType::Text);
  EXPECT_EQ(back.asText(), text);
  EXPECT_EQ(back.asText().size(), 6u);
  EXPECT_EQ(scalarInteger(db_, "SELECT length(CAST(v AS BLOB)) FROM t"), 6);
}

TEST_F(RoundTrip, EmptyTextStaysTextAndNullStaysNull) {
  std::string type;
  const Value empty = storeAndLoad(Value(std::string()), &type);
  EXPECT_EQ(type, "text");
  EXPECT_EQ(empty.type(), ValueType::Text);
  EXPECT_EQ(empty.asText(), "");

  const Value null = storeAndLoad(Value(), &type);
  EXPECT_EQ(type, "null");
  EXPECT_TRUE(null.isNull());
}

TEST_F(RoundTrip, ZeroLengthBlobStaysBlobAndNullStaysNull) {
  std::string type;
  const Value blob = storeAndLoad(Value::fromBlob(std::vector<std::uint8_t>{}), &type);
  EXPECT_EQ(type, "blob");
  EXPECT_EQ(blob.type(), ValueType::Blob);
  EXPECT_TRUE(blob.asBlob().empty());
  EXPECT_EQ(scalarInteger(db_, "SELECT v IS NULL FROM t"), 0);
}

TEST_F(RoundTrip, BlobsKeepArbitraryBytes) {
  std::vector<std::uint8_t> all;
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 256; ++i) all.push_back(static_cast<std::uint8_t>(i));
  }
  for (const std::vector<std::uint8_t>& bytes :
       {all, std::vector<std::uint8_t>{0}, std::vector<std::uint8_t>{0, 0, 0}, std::vector<std::uint8_t>{0xff, 0x00}}) {
    std::string type;
    const Value back = storeAndLoad(Value::fromBlob(bytes), &type);
    EXPECT_EQ(type, "blob");
    EXPECT_EQ(back.type(), ValueType::Blob);
    EXPECT_EQ(back.asBlob(), bytes);
  }
}

TEST_F(RoundTrip, SelectingABoundValueReturnsItUnchanged) {
  const std::vector<Value> values{Value(),
                                  Value(std::numeric_limits<std::int64_t>::min()),
                                  Value(-0.0),
                                  Value(std::string("x\0y", 3)),
                                  Value(std::string()),
                                  Value::fromBlob(std::vector<std::uint8_t>{}),
                                  Value::fromBlob(std::vector<std::uint8_t>{0, 1, 2})};
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT ?, ?, ?, ?, ?, ?, ?", values, &rows)) << db_.error();
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(rows[0].value(i), values[i]) << "column " << i << ": " << describe(rows[0].value(i));
  }
  EXPECT_TRUE(std::signbit(rows[0].value(2).asReal()));
}

TEST(RoundTripFile, ValuesSurviveClosingAndReopeningTheFile) {
  TempDir dir;
  const std::string path = dir / "values.db";
  const std::vector<Value> values{
      Value(std::numeric_limits<std::int64_t>::max()), Value(5e-324),        Value(std::string("n\0l", 3)),
      Value::fromBlob(std::vector<std::uint8_t>{}),    Value(std::string()), Value()};
  {
    Database db = Database::open(path);
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("CREATE TABLE t(a, b, c, d, e, f)")) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", values)) << db.error();
  }
  Database db = Database::open(path, sqlitebridge::OpenMode::ReadOnly);
  ASSERT_TRUE(db.isOpen()) << db.error();
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT * FROM t", &rows)) << db.error();
  ASSERT_EQ(rows.size(), 1u);
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(rows[0].value(i), values[i]) << "column " << i << ": " << describe(rows[0].value(i));
  }
}
