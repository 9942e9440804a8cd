// The shared conversion fixture, Tests/Fixtures/conversions.json: every
// stored value (one per SQLite storage class edge) read as every type, with
// the outcome the C++ core gives. The core owns the rules, so this file
// GENERATES the fixture; the Swift suite
// (Tests/SQLiteBridgeTests/Values/ConversionFixtureTests.swift) runs the same cases
// against the facade and must agree, message included.
//
// Regenerate the fixture after a conversion rule or message changes:
//
//   cmake --preset default && cmake --build build/default
//   SQLITEBRIDGE_WRITE_FIXTURES=1 build/default/Tests/CxxTests/sqlitebridge-cxx-tests
//   --gtest_filter='ConversionFixture*'
//
// Without SQLITEBRIDGE_WRITE_FIXTURES=1 the test reads the committed file and
// compares it with what the core does now, case by case: every case that
// differs, is missing or is stale fails with its JSON line.
//
// Each case reads a one-column row named "v", made by `SELECT ? AS v` on an
// in-memory database (so the storage class is SQLite's own), with
// Row::get(0, out, &error); Row::get("v", ...), RowView::get(0, ...) and
// RowView::get("v", ...) (inside db.forEachRow) must give the same outcome and
// message. A failure's message is stored with the type's name replaced by
// {type}; each suite puts back its own name (here DecodedTypeName<T>).
//
// One deliberate exception, so that the fixture is the same on every
// platform: a date that the rules accept but that std::chrono::system_clock
// cannot hold (libstdc++ counts nanoseconds: about 292 years either side of
// 1970; Julian day 0.0 is 4713 BC) is written as the date the rules give
// (what Swift's Date reads), and the C++ read of it is asserted to fail with
// ResultCode::Mismatch instead.
#include <gtest/gtest.h>

#include <sqlitebridge/sqlitebridge.hpp>
#include <sqlitebridge/RowView.hpp>

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "FixtureSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::DecodedTypeName;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Uuid;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using sqlitebridge_test::isValidUtf8;
using sqlitebridge_test::jsonString;

namespace {

using TimePoint = std::chrono::system_clock::time_point;
using Bytes = std::vector<std::uint8_t>;

const char* const kFixtureFile = SQLITEBRIDGE_FIXTURES_DIR "/conversions.json";
const char* const kQuery = "SELECT ? AS v";
const char* const kGeneratedBy =
    "SQLITEBRIDGE_WRITE_FIXTURES=1 build/default/Tests/CxxTests/sqlitebridge-cxx-tests "
    "--gtest_filter='ConversionFixture*' (after: cmake --preset default && cmake --build build/default; "
    "source: Tests/CxxTests/Values/ConversionFixtureTests.cpp)";
const char* const kAbout =
    "Every stored value read as every type from a one-column row named \"v\" (SELECT ? AS v). "
    "stored: null | integer (decimal) | real (%.17g) | text | blob (lowercase hex). "
    "expect: the value read (integer types: decimal; double and float: %.17g of the value as a double; "
    "date: Unix milliseconds; uuid: uppercase text; null: an optional that read NULL), or error "
    "(mismatch | range) and the message with the type's name replaced by {type}. "
    "A date the rules accept but std::chrono::system_clock cannot hold is the date the rules give; "
    "the C++ read of it fails.";

// ---- JSON text -------------------------------------------------------------

std::string realText(double real) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", real);
  return text;
}

std::string hex(const void* bytes, std::size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  const auto* data = static_cast<const std::uint8_t*>(bytes);
  for (std::size_t i = 0; i < size; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 0x0F];
  }
  return out;
}

// {"integer": "7"}, ...: how a stored value is written.
std::string storedJson(const Value& value) {
  switch (value.type()) {
    case ValueType::Null:
      return R"({"null": true})";
    case ValueType::Integer:
      return R"({"integer": ")" + std::to_string(value.asInteger()) + "\"}";
    case ValueType::Real:
      return R"({"real": ")" + realText(value.asReal()) + "\"}";
    case ValueType::Text:
      return R"({"text": )" + jsonString(value.asText()) + "}";
    case ValueType::Blob: {
      const Bytes bytes = value.asBlob();
      return R"({"blob": ")" + hex(bytes.data(), bytes.size()) + "\"}";
    }
  }
  return "{}";
}

// ---- Stored values -----------------------------------------------------------

std::string repeated(const std::string& piece, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += piece;
  return out;
}

Value blobOf(std::size_t size) {
  // The first bytes of E621E1F8-C36C-495A-93FC-0C247A3E6E5F, so that the
  // 16-byte blob reads as that UUID.
  static const std::uint8_t uuid[16] = {0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A,
                                        0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F};
  if (size == 2) return Value::fromBlob(Bytes{0x01, 0x02});
  return Value::fromBlob(Bytes(uuid, uuid + size));
}

std::vector<Value> storedValues() {
  std::vector<Value> values;
  values.emplace_back();  // NULL
  const std::int64_t integers[] = {0,
                                   1,
                                   -1,
                                   2,
                                   127,
                                   128,
                                   -128,
                                   -129,
                                   255,
                                   256,
                                   32767,
                                   32768,
                                   -32769,
                                   65535,
                                   65536,
                                   2147483647,
                                   2147483648,
                                   -2147483649,
                                   4294967295,
                                   4294967296,
                                   std::numeric_limits<std::int64_t>::max(),
                                   std::numeric_limits<std::int64_t>::min(),
                                   1700000000};
  for (const std::int64_t integer : integers) values.emplace_back(integer);
  const double reals[] = {0.0,
                          -0.0,
                          2.0,
                          2.5,
                          -0.5,
                          0.1,
                          1e20,
                          -1e20,
                          9223372036854775808.0,
                          -9223372036854775808.0,
                          3.4028234663852886e38,
                          1e39,
                          1e300,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          2440587.5,
                          2460000.25};
  for (const double real : reals) values.emplace_back(real);
  const std::string texts[] = {
      "",
      "abc",
      "12",
      "12abc",
      " 7",
      "true",
      "2024-03-05 12:34:56.789",
      "2024-03-05T12:34:56+02:00",
      "2023-02-29",
      "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
      "e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
      "Pack my box with five dozen liquor jugs.",            // 40 bytes: shown whole
      "Pack my box with five dozen liquor jugs,0123456789",  // 50 bytes: cut
      repeated("\xC3\xA9", 45),                              // 45 "é", 90 bytes: byte 40 ends a character
      "x" + repeated("\xC3\xA9", 45),                        // byte 40 falls inside an "é"
  };
  for (const std::string& text : texts) values.emplace_back(text);
  for (const std::size_t size : {0, 2, 15, 16}) values.push_back(blobOf(size));
  return values;
}

// ---- Reading one case --------------------------------------------------------

// What one read did, whole: "ok <expect>" or "error <code>: <message>".
struct Outcome {
  bool ok = false;
  std::string expect;  // the value read, as the fixture writes it (when ok)
  Error error;         // when not ok

  std::string show() const {
    return ok ? "ok " + expect : "error " + std::to_string(error.code) + ": " + error.message;
  }
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <typename T>
std::string expectJson(const T& value) {
  if constexpr (IsOptional<T>::value) {
    return value ? expectJson(*value) : std::string(R"({"null": true})");
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? R"({"bool": true})" : R"({"bool": false})";
  } else if constexpr (std::is_integral_v<T>) {
    return R"({"integer": ")" + std::to_string(value) + "\"}";
  } else if constexpr (std::is_floating_point_v<T>) {
    return R"({"real": ")" + realText(static_cast<double>(value)) + "\"}";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return R"({"text": )" + jsonString(value) + "}";
  } else if constexpr (std::is_same_v<T, Bytes>) {
    return R"({"blob": ")" + hex(value.data(), value.size()) + "\"}";
  } else if constexpr (std::is_same_v<T, TimePoint>) {
    return R"({"date": ")" + std::to_string(sqlitebridge::unixMillisecondsOf(value)) + "\"}";
  } else {
    static_assert(std::is_same_v<T, Uuid>, "a fixture type without a rendering");
    return R"({"uuid": ")" + value.toString() + "\"}";
  }
}

template <typename T>
Outcome outcomeOf(bool ok, const T& out, const Error& error) {
  Outcome outcome;
  outcome.ok = ok;
  if (ok) {
    outcome.expect = expectJson(out);
  } else {
    outcome.error = error;
  }
  return outcome;
}

// The date the shared rules give for `value` (text, Unix seconds or a Julian
// day), whether or not std::chrono::system_clock can hold it.
std::optional<std::int64_t> dateByTheRules(const Value& value) {
  std::int64_t milliseconds = 0;
  bool ok = false;
  switch (value.type()) {
    case ValueType::Text: {
      const std::string text = value.asText();
      ok = sqlitebridge::parseDateText(text.data(), text.size(), milliseconds);
      break;
    }
    case ValueType::Integer:
      ok = sqlitebridge::dateFromUnixSeconds(value.asInteger(), milliseconds);
      break;
    case ValueType::Real:
      ok = sqlitebridge::dateFromJulianDay(value.asReal(), milliseconds);
      break;
    case ValueType::Null:
    case ValueType::Blob:
      break;
  }
  if (!ok) return std::nullopt;
  return milliseconds;
}

// One generated case: its JSON line, and what went wrong making it.
struct Case {
  std::string line;
  std::vector<std::string> problems;
};

// Reads the stored value as T four ways (Row and RowView, by index and by
// name), checks that they agree, and renders the case.
template <typename T>
Case readCase(Database& db, const Value& stored, const std::string& fixtureType) {
  Case result;
  const std::string typeName = DecodedTypeName<T>::value();
  const std::string prefix = R"({"stored": )" + storedJson(stored) + R"(, "type": ")" + fixtureType + "\"";
  auto problem = [&](const std::string& what) { result.problems.push_back(prefix + "}: " + what); };

  std::vector<Row> rows;
  if (!db.execute(kQuery, std::vector<Value>{stored}, &rows) || rows.size() != 1 || rows[0].size() != 1) {
    problem("SELECT ? AS v did not give one row of one column: " + db.error());
    return result;
  }
  const Row& row = rows[0];
  if (row.columnName(0) != "v" || row.value(0) != stored || row.value(0).type() != stored.type()) {
    problem("the row does not hold the stored value as bound (storage class " +
            std::to_string(static_cast<int>(row.value(0).type())) + ")");
  }

  T out{};
  Error error;
  const Outcome byIndex = outcomeOf(row.get(0, out, &error), out, error);
  T outByName{};
  Error nameError;
  const Outcome byName = outcomeOf(row.get(std::string("v"), outByName, &nameError), outByName, nameError);
  if (byName.show() != byIndex.show()) {
    problem("Row::get(\"v\") gives " + byName.show() + " but Row::get(0) gives " + byIndex.show());
  }

  int visited = 0;
  db.forEachRow(kQuery, std::vector<Value>{stored}, [&](const RowView& view) {
    ++visited;
    T viewOut{};
    const bool viewOk = view.get(0, viewOut);
    const Outcome viewByIndex = outcomeOf(viewOk, viewOut, db.lastError());
    T viewOutByName{};
    const bool viewNameOk = view.get(std::string("v"), viewOutByName);
    const Outcome viewByName = outcomeOf(viewNameOk, viewOutByName, db.lastError());
    if (viewByIndex.show() != byIndex.show()) {
      problem("RowView::get(0) gives " + viewByIndex.show() + " but Row::get(0) gives " + byIndex.show());
    }
    if (viewByName.show() != byIndex.show()) {
      problem("RowView::get(\"v\") gives " + viewByName.show() + " but Row::get(0) gives " + byIndex.show());
    }
    return true;
  });
  if (visited != 1) problem("forEachRow visited " + std::to_string(visited) + " rows: " + db.error());

  std::string expect;
  if (byIndex.ok) {
    expect = byIndex.expect;
  } else {
    const std::optional<std::int64_t> ruleDate =
        std::is_same_v<T, TimePoint> || std::is_same_v<T, std::optional<TimePoint>> ? dateByTheRules(stored)
                                                                                    : std::nullopt;
    TimePoint unused;
    if (ruleDate && !sqlitebridge::timePointFromUnixMilliseconds(*ruleDate, unused)) {
      // Beyond this platform's system_clock (see the top of the file): the
      // fixture holds the rules' date; C++ must fail as a mismatch.
      if (!byIndex.error.is(ResultCode::Mismatch)) problem("expected a mismatch, got " + byIndex.show());
      expect = R"({"date": ")" + std::to_string(*ruleDate) + "\"}";
    } else {
      const std::string code = byIndex.error.is(ResultCode::Mismatch) ? "mismatch"
                               : byIndex.error.is(ResultCode::Range)  ? "range"
                                                                      : "code " + std::to_string(byIndex.error.code);
      std::string message = byIndex.error.message;
      const std::size_t at = message.rfind(typeName);
      if (at == std::string::npos || message.find(typeName) != at) {
        problem("the message must name the type (" + typeName + ") exactly once, to template it: " + message);
      } else {
        message.replace(at, typeName.size(), "{type}");
      }
      if (!isValidUtf8(message)) problem("the message is not valid UTF-8: " + jsonString(message));
      expect = R"({"error": ")" + code + R"(", "message": )" + jsonString(message) + "}";
    }
  }
  result.line = prefix + R"(, "expect": )" + expect + "}";
  return result;
}

// ---- The types ---------------------------------------------------------------

struct FixtureType {
  const char* name;   // in the fixture
  const char* cxx;    // the C++ type
  const char* swift;  // the Swift type
  Case (*read)(Database&, const Value&, const std::string&);
};

const std::vector<FixtureType>& fixtureTypes() {
  static const std::vector<FixtureType> types = {
      {"int64", "std::int64_t", "Int64", &readCase<std::int64_t>},
      {"int32", "std::int32_t", "Int32", &readCase<std::int32_t>},
      {"int16", "std::int16_t", "Int16", &readCase<std::int16_t>},
      {"int8", "std::int8_t", "Int8", &readCase<std::int8_t>},
      {"uint64", "std::uint64_t", "UInt64", &readCase<std::uint64_t>},
      {"uint32", "std::uint32_t", "UInt32", &readCase<std::uint32_t>},
      {"uint16", "std::uint16_t", "UInt16", &readCase<std::uint16_t>},
      {"uint8", "std::uint8_t", "UInt8", &readCase<std::uint8_t>},
      {"bool", "bool", "Bool", &readCase<bool>},
      {"double", "double", "Double", &readCase<double>},
      {"float", "float", "Float", &readCase<float>},
      {"string", "std::string", "String", &readCase<std::string>},
      {"blob", "std::vector<std::uint8_t>", "Data", &readCase<Bytes>},
      {"date", "std::chrono::system_clock::time_point", "Date", &readCase<TimePoint>},
      {"uuid", "sqlitebridge::Uuid", "UUID", &readCase<Uuid>},
      {"optional-int64", "std::optional<std::int64_t>", "Int64?", &readCase<std::optional<std::int64_t>>},
      {"optional-string", "std::optional<std::string>", "String?", &readCase<std::optional<std::string>>},
      {"optional-date", "std::optional<std::chrono::system_clock::time_point>", "Date?",
       &readCase<std::optional<TimePoint>>},
  };
  return types;
}

// ---- The file ----------------------------------------------------------------

struct Generated {
  std::vector<std::string> header;  // the lines before the cases
  std::vector<std::string> cases;   // one JSON object per case, no comma
  std::vector<std::string> footer;  // the lines after them
  std::vector<std::string> problems;

  std::string text() const {
    std::string out;
    for (const std::string& line : header) out += line + "\n";
    for (std::size_t i = 0; i < cases.size(); ++i) out += "    " + cases[i] + (i + 1 < cases.size() ? "," : "") + "\n";
    for (const std::string& line : footer) out += line + "\n";
    return out;
  }
};

Generated generate() {
  Generated generated;
  generated.header = {"{", "  \"generatedBy\": " + jsonString(kGeneratedBy) + ",",
                      "  \"about\": " + jsonString(kAbout) + ",", "  \"types\": {"};
  const auto& types = fixtureTypes();
  for (std::size_t i = 0; i < types.size(); ++i) {
    generated.header.push_back(std::string("    ") + jsonString(types[i].name) + R"(: {"cxx": )" +
                               jsonString(types[i].cxx) + R"(, "swift": )" + jsonString(types[i].swift) + "}" +
                               (i + 1 < types.size() ? "," : ""));
  }
  generated.header.push_back("  },");
  generated.header.push_back("  \"cases\": [");
  generated.footer = {"  ]", "}"};

  Database db = Database::open(":memory:");
  if (!db.isOpen()) {
    generated.problems.push_back("cannot open an in-memory database: " + db.error());
    return generated;
  }
  for (const Value& stored : storedValues()) {
    for (const FixtureType& type : types) {
      Case made = type.read(db, stored, type.name);
      for (std::string& problem : made.problems) generated.problems.push_back(std::move(problem));
      if (!made.line.empty()) generated.cases.push_back(std::move(made.line));
    }
  }
  return generated;
}

// The part of a case line that names the case: up to its "expect".
std::string caseKey(const std::string& line) {
  const std::size_t at = line.find(R"(, "expect": )");
  return at == std::string::npos ? line : line.substr(0, at);
}

bool writeFixturesRequested() {
  const char* flag = std::getenv("SQLITEBRIDGE_WRITE_FIXTURES");
  return flag != nullptr && std::string(flag) == "1";
}

}  // namespace

TEST(ConversionFixture, RowAndRowViewAgreeOnEveryCase) {
  const Generated generated = generate();
  EXPECT_EQ(generated.cases.size(), storedValues().size() * fixtureTypes().size());
  for (const std::string& problem : generated.problems) ADD_FAILURE() << problem;
}

TEST(ConversionFixture, EveryCaseMatchesTheCommittedFixture) {
  const Generated generated = generate();
  const std::string text = generated.text();

  if (writeFixturesRequested()) {
    std::ofstream file(kFixtureFile, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    ASSERT_TRUE(file.good()) << "cannot write " << kFixtureFile;
    std::printf("wrote %zu cases to %s\n", generated.cases.size(), kFixtureFile);
    return;
  }

  std::ifstream file(kFixtureFile, std::ios::binary);
  ASSERT_TRUE(file.is_open()) << "cannot read " << kFixtureFile
                              << "; generate it with SQLITEBRIDGE_WRITE_FIXTURES=1 (see the top of this file)";
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);

  // Split the file as generate() lays it out: header, cases, footer.
  std::size_t first = 0;
  while (first < lines.size() && lines[first] != "  \"cases\": [") ++first;
  ASSERT_LT(first, lines.size()) << kFixtureFile << " has no \"cases\" line";
  ++first;
  std::size_t last = first;
  while (last < lines.size() && lines[last] != "  ]") ++last;
  const std::vector<std::string> header(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(first));
  const std::vector<std::string> footer(lines.begin() + static_cast<std::ptrdiff_t>(last), lines.end());
  EXPECT_EQ(header, generated.header) << "the fixture's header differs; regenerate it (see the top of this file)";
  EXPECT_EQ(footer, generated.footer) << "the fixture's end differs; regenerate it (see the top of this file)";

  std::map<std::string, std::string> committed;  // key -> line
  for (std::size_t i = first; i < last; ++i) {
    std::string line = lines[i];
    const std::size_t start = line.find_first_not_of(' ');
    line = start == std::string::npos ? std::string() : line.substr(start);
    if (!line.empty() && line.back() == ',') line.pop_back();
    if (!committed.emplace(caseKey(line), line).second) ADD_FAILURE() << "case listed twice in the fixture: " << line;
  }

  std::size_t differing = 0;
  for (const std::string& line : generated.cases) {
    const auto found = committed.find(caseKey(line));
    if (found == committed.end()) {
      ++differing;
      ADD_FAILURE() << "case missing from the fixture:\n  core:    " << line;
      continue;
    }
    if (found->second != line) {
      ++differing;
      ADD_FAILURE() << "case differs:\n  fixture: " << found->second << "\n  core:    " << line;
    }
    committed.erase(found);
  }
  for (const auto& stale : committed) {
    ++differing;
    ADD_FAILURE() << "case in the fixture that the core no longer lists:\n  fixture: " << stale.second;
  }
  EXPECT_EQ(differing, 0u) << differing << " of " << generated.cases.size()
                           << " cases differ; if the change is intended, regenerate the fixture with "
                              "SQLITEBRIDGE_WRITE_FIXTURES=1 (see the top of this file)";
  if (differing == 0) {
    // Same cases, same outcomes: then the text must match too (order, layout).
    std::ostringstream whole;
    for (const std::string& line : lines) whole << line << "\n";
    EXPECT_EQ(whole.str(), text) << "the fixture lists the right cases but not as generated; regenerate it";
  }
}
