// Row::get: exact typed reads on a copied Row, with the rules and the
// messages of RowView::get (the Value::as... readers stay lossy).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using namespace sqlitebridge_test;

namespace {

// One column of every storage class and edge: the query both paths read.
const char* const kQuery =
    "SELECT 7 AS i, -1 AS neg, 300 AS big, 9223372036854775807 AS max, 2.0 AS whole, 2.5 AS half, "
    "1e300 AS huge, '12abc' AS text, 'hello' AS word, x'0102' AS blob, x'' AS empty, NULL AS missing";

// What a typed read did: "ok <value>" or "error <code>: <message>".
template <typename T>
std::string show(bool ok, const T& value, const Error& error) {
  if (!ok) return "error " + std::to_string(error.code) + ": " + error.message;
  if constexpr (std::is_same_v<T, std::string>) {
    return "ok " + value;
  } else if constexpr (std::is_same_v<T, std::vector<std::uint8_t>>) {
    return "ok blob of " + std::to_string(value.size());
  } else if constexpr (std::is_same_v<T, std::optional<std::int64_t>>) {
    return value ? "ok " + std::to_string(*value) : std::string("ok nullopt");
  } else {
    return "ok " + std::to_string(value);
  }
}

// Reads every column of kQuery as T both ways, by index and by name, and
// expects the same outcome, value and message.
template <typename T>
void expectSameAsRowView(Database& db, const char* typeName) {
  Row copied;
  std::vector<std::string> viaView;
  // forEachRow reports the errors the failed gets recorded: its result is
  // not the point here.
  db.forEachRow(kQuery, [&](const RowView& row) {
    copied = row.copy();
    for (int i = 0; i <= row.size(); ++i) {  // one past the end too
      T out{};
      const bool ok = row.get(i, out);
      viaView.push_back(show(ok, out, db.lastError()));
    }
    T out{};
    const bool ok = row.get(std::string("absent"), out);
    viaView.push_back(show(ok, out, db.lastError()));
    return true;
  });
  ASSERT_EQ(copied.size(), 12u) << db.error();
  std::vector<std::string> viaRow;
  for (std::size_t i = 0; i <= copied.size(); ++i) {
    T out{};
    Error error;
    const bool ok = copied.get(i, out, &error);
    viaRow.push_back(show(ok, out, error));
    if (i < copied.size()) {
      T byName{};
      Error nameError;
      EXPECT_EQ(show(copied.get(copied.columnName(i), byName, &nameError), byName, nameError), viaRow.back())
          << typeName << ", column " << copied.columnName(i);
    }
  }
  T out{};
  Error error;
  viaRow.push_back(show(copied.get("absent", out, &error), out, error));
  EXPECT_EQ(viaRow, viaView) << typeName;
}

}  // namespace

TEST(RowGet, ReadsExactlyAsRowViewDoesWithTheSameMessages) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  expectSameAsRowView<std::int64_t>(db, "int64");
  expectSameAsRowView<int>(db, "int");
  expectSameAsRowView<std::uint8_t>(db, "uint8");
  expectSameAsRowView<std::uint64_t>(db, "uint64");
  expectSameAsRowView<bool>(db, "bool");
  expectSameAsRowView<double>(db, "double");
  expectSameAsRowView<float>(db, "float");
  expectSameAsRowView<std::string>(db, "string");
  expectSameAsRowView<std::vector<std::uint8_t>>(db, "blob");
  expectSameAsRowView<std::optional<std::int64_t>>(db, "optional int64");
}

TEST(RowGet, ConvertsOnlyWhatLosesNothingAndLeavesTheOutputAloneOnFailure) {
  Database db = Database::open(":memory:");
  Row row;
  ASSERT_TRUE(db.execute(kQuery, row)) << db.error();

  std::int64_t integer = -99;
  EXPECT_TRUE(row.get("WHOLE", integer));  // case-insensitive; 2.0 loses nothing
  EXPECT_EQ(integer, 2);
  Error error;
  integer = -99;
  EXPECT_FALSE(row.get("text", integer, &error));
  EXPECT_EQ(integer, -99);
  EXPECT_TRUE(error.is(ResultCode::Mismatch));
  EXPECT_EQ(error.message, "column \"text\" holds text '12abc', which does not convert to int64");
  EXPECT_EQ(row.value("text").asInteger(), 12) << "Value::asInteger stays lossy, as documented";

  int small = 5;
  EXPECT_FALSE(row.get("max", small, &error));
  EXPECT_EQ(small, 5);
  EXPECT_EQ(error.resultCode(), ResultCode::Mismatch);

  std::optional<std::int64_t> maybe = 1;
  EXPECT_TRUE(row.get("missing", maybe));
  EXPECT_FALSE(maybe.has_value());
  EXPECT_FALSE(row.get("missing", integer, &error));
  EXPECT_NE(error.message.find("holds NULL"), std::string::npos) << error.message;

  EXPECT_FALSE(row.get(99, integer, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Range);
  EXPECT_EQ(error.message, "column index 99 is out of range: the row has 12 column(s)");
  EXPECT_FALSE(row.get("absent", integer, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Range);
  EXPECT_EQ(error.message, "no column named \"absent\" in the row");
  // Without an Error to fill, a failure is just false.
  EXPECT_FALSE(row.get("absent", integer));
  EXPECT_FALSE(Row().get(0, integer));
}
