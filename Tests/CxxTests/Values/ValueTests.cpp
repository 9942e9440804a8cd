// Value: construction, equality, and the as… conversions, which must match
// what SQLite's own sqlite3_value_* / sqlite3_column_* functions return.
#include <cmath>
#include <cstring>
#include <limits>

#include "TestSupport.hpp"

using sqlitebridge::Value;
using sqlitebridge::ValueType;

namespace {

// What SQLite itself returns for a value bound with the raw C API and read
// back with sqlite3_column_*: the reference the accessors must match.
class RawSqlite {
 public:
  RawSqlite() {
    EXPECT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    EXPECT_EQ(sqlite3_prepare_v2(db_, "SELECT ?", -1, &stmt_, nullptr), SQLITE_OK);
  }
  ~RawSqlite() {
    sqlite3_finalize(stmt_);
    sqlite3_close(db_);
  }

  struct Reading {
    std::int64_t integer;
    double real;
    std::string text;
    std::string blob;
  };

  Reading ofText(const std::string& text) {
    return read([&] { sqlite3_bind_text(stmt_, 1, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT); });
  }
  Reading ofBlob(const std::string& bytes) {
    return read([&] { sqlite3_bind_blob(stmt_, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT); });
  }
  Reading ofInteger(std::int64_t value) {
    return read([&] { sqlite3_bind_int64(stmt_, 1, value); });
  }
  Reading ofReal(double value) {
    return read([&] { sqlite3_bind_double(stmt_, 1, value); });
  }

 private:
  // Each sqlite3_column_* call may convert the stored value in place, so
  // every reading binds and steps afresh.
  template <typename Bind>
  Reading read(Bind bind) {
    Reading reading{};
    step(bind);
    reading.integer = sqlite3_column_int64(stmt_, 0);
    sqlite3_reset(stmt_);
    step(bind);
    reading.real = sqlite3_column_double(stmt_, 0);
    sqlite3_reset(stmt_);
    step(bind);
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, 0));
    reading.text = text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, 0))) : "";
    sqlite3_reset(stmt_);
    step(bind);
    const auto* blob = static_cast<const char*>(sqlite3_column_blob(stmt_, 0));
    reading.blob = blob ? std::string(blob, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, 0))) : "";
    sqlite3_reset(stmt_);
    return reading;
  }
  template <typename Bind>
  void step(Bind bind) {
    bind();
    EXPECT_EQ(sqlite3_step(stmt_), SQLITE_ROW);
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string bytesOf(const std::vector<std::uint8_t>& blob) { return std::string(blob.begin(), blob.end()); }

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expectMatchesSqlite(const Value& value, const RawSqlite::Reading& raw, const std::string& label) {
  EXPECT_EQ(value.asInteger(), raw.integer) << label;
  EXPECT_TRUE(sameBits(value.asReal(), raw.real) || (std::isnan(raw.real) && std::isnan(value.asReal())))
      << label << ": " << value.asReal() << " vs " << raw.real;
  EXPECT_EQ(value.asText(), raw.text) << label;
  EXPECT_EQ(bytesOf(value.asBlob()), raw.blob) << label;
}

}  // namespace

TEST(Value, DefaultConstructedIsNull) {
  const Value value;
  EXPECT_EQ(value.type(), ValueType::Null);
  EXPECT_TRUE(value.isNull());
}

TEST(Value, EachConstructorGivesItsStorageClassAndContent) {
  EXPECT_EQ(Value(42).type(), ValueType::Integer);
  EXPECT_EQ(Value(42).asInteger(), 42);
  EXPECT_EQ(Value(std::int64_t{1} << 40).type(), ValueType::Integer);
  EXPECT_EQ(Value(std::int64_t{1} << 40).asInteger(), std::int64_t{1} << 40);
  EXPECT_EQ(Value(2.5).type(), ValueType::Real);
  EXPECT_EQ(Value(2.5).asReal(), 2.5);
  EXPECT_EQ(Value(std::string("hi")).type(), ValueType::Text);
  EXPECT_EQ(Value(std::string("hi")).asText(), "hi");
  EXPECT_EQ(Value("lit").type(), ValueType::Text);
  EXPECT_EQ(Value("lit").asText(), "lit");
  const Value blob = Value::fromBlob(std::vector<std::uint8_t>{1, 2, 3});
  EXPECT_EQ(blob.type(), ValueType::Blob);
  EXPECT_EQ(blob.asBlob(), (std::vector<std::uint8_t>{1, 2, 3}));
  const char raw[] = {'\x00', '\xff'};
  const Value fromPointer = Value::fromBlob(raw, sizeof raw);
  EXPECT_EQ(fromPointer.type(), ValueType::Blob);
  EXPECT_EQ(fromPointer.asBlob(), (std::vector<std::uint8_t>{0x00, 0xff}));
  EXPECT_FALSE(Value(0).isNull());
}

TEST(Value, NullCharPointerMakesNull) {
  const char* nothing = nullptr;
  EXPECT_TRUE(Value(nothing).isNull());
}

TEST(Value, EmptyTextIsTextNotNull) {
  const Value empty(std::string{});
  EXPECT_EQ(empty.type(), ValueType::Text);
  EXPECT_FALSE(empty.isNull());
  EXPECT_NE(empty, Value());
}

TEST(Value, ZeroLengthBlobIsBlobNotNull) {
  const Value blob = Value::fromBlob(std::vector<std::uint8_t>{});
  EXPECT_EQ(blob.type(), ValueType::Blob);
  EXPECT_FALSE(blob.isNull());
  EXPECT_TRUE(blob.asBlob().empty());
  EXPECT_NE(blob, Value());
  EXPECT_EQ(Value::fromBlob(nullptr, 0).type(), ValueType::Blob);
}

TEST(Value, TextKeepsEmbeddedNulBytes) {
  const std::string text("a\0b\0", 4);
  const Value value(text);
  EXPECT_EQ(value.asText().size(), 4u);
  EXPECT_EQ(value.asText(), text);
}

TEST(Value, EqualityComparesStorageClassAndContent) {
  EXPECT_EQ(Value(), Value());
  EXPECT_EQ(Value(7), Value(std::int64_t{7}));
  EXPECT_NE(Value(7), Value(8));
  EXPECT_NE(Value(1), Value(1.0));
  EXPECT_EQ(Value(1.5), Value(1.5));
  EXPECT_EQ(Value("a"), Value(std::string("a")));
  EXPECT_NE(Value("a"), Value::fromBlob(std::vector<std::uint8_t>{'a'}));
  EXPECT_NE(Value("a"), Value("b"));
  EXPECT_EQ(Value::fromBlob(std::vector<std::uint8_t>{1}), Value::fromBlob(std::vector<std::uint8_t>{1}));
  EXPECT_NE(Value(), Value(0));
}

TEST(Value, NullConvertsToZeroEmptyTextAndEmptyBlob) {
  const Value null;
  EXPECT_EQ(null.asInteger(), 0);
  EXPECT_EQ(null.asReal(), 0.0);
  EXPECT_EQ(null.asText(), "");
  EXPECT_TRUE(null.asBlob().empty());
}

TEST(Value, IntegerConvertsToTextAsSqliteFormatsIt) {
  RawSqlite raw;
  EXPECT_EQ(Value(7).asText(), "7");
  EXPECT_EQ(Value(-7).asText(), "-7");
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{7}, std::int64_t{-7}, std::numeric_limits<std::int64_t>::min(),
                         std::numeric_limits<std::int64_t>::max()}) {
    expectMatchesSqlite(Value(n), raw.ofInteger(n), "integer " + std::to_string(n));
  }
  EXPECT_EQ(Value(std::numeric_limits<std::int64_t>::min()).asText(), "-9223372036854775808");
}

TEST(Value, IntegerConvertsToRealAndBlobAsSqliteDoes) {
  EXPECT_EQ(Value(7).asReal(), 7.0);
  EXPECT_EQ(bytesOf(Value(7).asBlob()), "7");
}

TEST(Value, RealConvertsToIntegerByTruncatingTowardZero) {
  EXPECT_EQ(Value(2.7).asInteger(), 2);
  EXPECT_EQ(Value(-2.7).asInteger(), -2);
  EXPECT_EQ(Value(0.999).asInteger(), 0);
  EXPECT_EQ(Value(-0.0).asInteger(), 0);
  RawSqlite raw;
  for (double d : {2.7, -2.7, 0.5, -0.5, 1e15 + 0.5}) {
    EXPECT_EQ(Value(d).asInteger(), raw.ofReal(d).integer) << d;
  }
}

TEST(Value, HugeRealsClampToTheInt64Range) {
  constexpr auto max = std::numeric_limits<std::int64_t>::max();
  constexpr auto min = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(Value(1e300).asInteger(), max);
  EXPECT_EQ(Value(-1e300).asInteger(), min);
  EXPECT_EQ(Value(9.3e18).asInteger(), max);
  EXPECT_EQ(Value(-9.3e18).asInteger(), min);
  EXPECT_EQ(Value(std::numeric_limits<double>::infinity()).asInteger(), max);
  EXPECT_EQ(Value(-std::numeric_limits<double>::infinity()).asInteger(), min);
  RawSqlite raw;
  for (double d : {1e300, -1e300, 9.3e18, -9.3e18, 9.2233720368547758e18, -9.2233720368547758e18,
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(Value(d).asInteger(), raw.ofReal(d).integer) << d;
  }
}

TEST(Value, RealConvertsToTextAsSqliteFormatsIt) {
  EXPECT_EQ(Value(2.0).asText(), "2.0");
  EXPECT_EQ(Value(0.1).asText(), "0.1");
  EXPECT_EQ(Value(-2.5).asText(), "-2.5");
  RawSqlite raw;
  for (double d : {0.0, -0.0, 2.0, 0.1, -2.5, 1.0 / 3.0, 1e308, -1e308, 5e-324, 2.2250738585072014e-308,
                   123456789012345678.0, 1e15, 1e16, std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    std::ostringstream label;
    label.precision(17);
    label << "real " << d;
    expectMatchesSqlite(Value(d), raw.ofReal(d), label.str());
  }
}

TEST(Value, TextConvertsToNumbersAsSqliteDoes) {
  EXPECT_EQ(Value("12abc").asInteger(), 12);
  EXPECT_EQ(Value(" 42").asInteger(), 42);
  EXPECT_EQ(Value("abc").asInteger(), 0);
  EXPECT_EQ(Value("").asInteger(), 0);
  EXPECT_EQ(Value("2.5").asReal(), 2.5);
  EXPECT_EQ(Value("-17").asInteger(), -17);
  RawSqlite raw;
  for (const char* text : {"12abc",
                           " 42",
                           "42 ",
                           "1e3",
                           "1.5e3",
                           "2.5",
                           "-2.7",
                           "abc",
                           "",
                           "0x10",
                           "+5",
                           "  -3  ",
                           "9223372036854775807",
                           "9223372036854775808",
                           "-9223372036854775809",
                           "1e400",
                           "99999999999999999999",
                           ".5",
                           "5.",
                           "\t7",
                           "1_000",
                           "NaN",
                           "inf"}) {
    expectMatchesSqlite(Value(text), raw.ofText(text), std::string("text \"") + text + "\"");
  }
  const std::string withNul(
      "12\0"
      "34",
      5);
  expectMatchesSqlite(Value(withNul), raw.ofText(withNul), "text with NUL");
}

TEST(Value, BlobConvertsAsSqliteDoes) {
  RawSqlite raw;
  for (const std::string& bytes :
       {std::string("123"), std::string("4.5x"), std::string("\x00\x01\xff", 3), std::string(), std::string("abc")}) {
    const Value value = Value::fromBlob(bytes.data(), bytes.size());
    expectMatchesSqlite(value, raw.ofBlob(bytes), "blob of " + std::to_string(bytes.size()) + " bytes");
  }
  EXPECT_EQ(Value::fromBlob(std::vector<std::uint8_t>{'1', '2', '3'}).asInteger(), 123);
}

TEST(Value, TextAndBlobShareTheirBytesUnchanged) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  const Value blob = Value::fromBlob(all.data(), all.size());
  EXPECT_EQ(blob.asText(), all);
  EXPECT_EQ(bytesOf(Value(std::string("x\0y", 3)).asBlob()), std::string("x\0y", 3));
}

namespace {

/// `size` bytes that include NULs and high bytes, different for each size.
std::string sampleBytes(std::size_t size) {
  std::string bytes;
  for (std::size_t i = 0; i < size; ++i) bytes.push_back(i % 7 == 3 ? '\0' : static_cast<char>('a' + (i + size) % 200));
  return bytes;
}

// Around the sizes a Value keeps in place and beyond (it stores short text
// and blobs itself and longer ones on the heap).
const std::size_t kSampleSizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 100, 4096, 100000};

}  // namespace

TEST(Value, CopiesKeepTextAndBlobsOfEveryLength) {
  for (const std::size_t size : kSampleSizes) {
    const std::string bytes = sampleBytes(size);
    const Value text(bytes);
    const Value blob = Value::fromBlob(bytes.data(), bytes.size());
    const Value textCopy(text);
    const Value blobCopy = blob;
    EXPECT_EQ(textCopy.type(), ValueType::Text) << size;
    EXPECT_EQ(textCopy.asText(), bytes) << size;
    EXPECT_EQ(textCopy, text) << size;
    EXPECT_EQ(blobCopy.type(), ValueType::Blob) << size;
    EXPECT_EQ(bytesOf(blobCopy.asBlob()), bytes) << size;
    EXPECT_EQ(blobCopy, blob) << size;
    EXPECT_NE(textCopy, blobCopy) << size;

    // Assigned over values of every kind, and onto itself.
    for (Value target : {Value(), Value(1), Value(2.5), Value(sampleBytes(3)), Value(sampleBytes(50))}) {
      target = text;
      EXPECT_EQ(target.asText(), bytes) << size;
      const Value& alias = target;
      target = alias;
      EXPECT_EQ(target.asText(), bytes) << size;
      EXPECT_EQ(target.type(), ValueType::Text) << size;
    }
  }
}

TEST(Value, MovesTakeTheContentAndLeaveTheStorageClassEmpty) {
  for (const std::size_t size : kSampleSizes) {
    const std::string bytes = sampleBytes(size);
    Value source(bytes);
    Value moved(std::move(source));
    EXPECT_EQ(moved.asText(), bytes) << size;
    EXPECT_EQ(source.type(), ValueType::Text) << size;  // NOLINT(bugprone-use-after-move): checks the documented state
    EXPECT_EQ(source.asText(), "") << size;

    Value target(sampleBytes(40));
    target = std::move(moved);
    EXPECT_EQ(target.asText(), bytes) << size;
    EXPECT_EQ(moved.asText(), "") << size;  // NOLINT(bugprone-use-after-move)
    Value blob = Value::fromBlob(bytes.data(), bytes.size());
    target = std::move(blob);
    EXPECT_EQ(target.type(), ValueType::Blob) << size;
    EXPECT_EQ(bytesOf(target.asBlob()), bytes) << size;
  }
  Value number(std::int64_t{1} << 50);
  const Value movedNumber(std::move(number));
  EXPECT_EQ(movedNumber.asInteger(), std::int64_t{1} << 50);
}

TEST(Value, AGrowingVectorOfValuesKeepsEveryValue) {
  std::vector<Value> values;
  for (int i = 0; i < 1000; ++i) {
    switch (i % 5) {
      case 0:
        values.emplace_back();
        break;
      case 1:
        values.emplace_back(std::int64_t{i} * 1000003);
        break;
      case 2:
        values.emplace_back(i + 0.5);
        break;
      case 3:
        values.emplace_back(sampleBytes(static_cast<std::size_t>(i % 40)));
        break;
      default:
        values.push_back(
            Value::fromBlob(sampleBytes(static_cast<std::size_t>(i % 40)).data(), static_cast<std::size_t>(i % 40)));
    }
  }
  const std::vector<Value> copy = values;
  for (int i = 0; i < 1000; ++i) {
    const Value& value = copy[static_cast<std::size_t>(i)];
    switch (i % 5) {
      case 0:
        EXPECT_TRUE(value.isNull()) << i;
        break;
      case 1:
        EXPECT_EQ(value.asInteger(), std::int64_t{i} * 1000003) << i;
        break;
      case 2:
        EXPECT_EQ(value.asReal(), i + 0.5) << i;
        break;
      case 3:
        EXPECT_EQ(value.asText(), sampleBytes(static_cast<std::size_t>(i % 40))) << i;
        break;
      default:
        EXPECT_EQ(value.type(), ValueType::Blob) << i;
        EXPECT_EQ(bytesOf(value.asBlob()), sampleBytes(static_cast<std::size_t>(i % 40))) << i;
    }
  }
}
