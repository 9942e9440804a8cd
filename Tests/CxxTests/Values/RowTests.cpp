// Row: ordered columns, names as SQL gives them, case-insensitive lookup
// where the leftmost duplicate wins.
#include <memory>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

Row firstRow(Database& db, const std::string& sql) {
  Row row;
  EXPECT_TRUE(db.execute(sql, row)) << db.error();
  return row;
}

}  // namespace

TEST(Row, DefaultRowHasNoColumns) {
  const Row row;
  EXPECT_EQ(row.size(), 0u);
  EXPECT_TRUE(row.empty());
  EXPECT_EQ(row.columnName(0), "");
  EXPECT_TRUE(row.value(0).isNull());
  EXPECT_FALSE(row.hasColumn("a"));
  EXPECT_TRUE(row.value("a").isNull());
  EXPECT_EQ(row.columnIndex("a"), -1);
}

TEST(Row, SizeNamesAndValuesFollowSqlOrder) {
  Database db = Database::open(":memory:");
  const Row row = firstRow(db, "SELECT 3 AS c, 'two' AS b, 1.5 AS a");
  ASSERT_EQ(row.size(), 3u);
  EXPECT_FALSE(row.empty());
  EXPECT_EQ(row.columnName(0), "c");
  EXPECT_EQ(row.columnName(1), "b");
  EXPECT_EQ(row.columnName(2), "a");
  EXPECT_EQ(row.value(0), Value(3));
  EXPECT_EQ(row.value(1), Value("two"));
  EXPECT_EQ(row.value(2), Value(1.5));
  ASSERT_EQ(row.values().size(), 3u);
  EXPECT_EQ(row.values()[1], Value("two"));
}

TEST(Row, IndexOutOfRangeGivesNullValueAndEmptyName) {
  Database db = Database::open(":memory:");
  const Row row = firstRow(db, "SELECT 1 AS a");
  EXPECT_TRUE(row.value(1).isNull());
  EXPECT_TRUE(row.value(static_cast<std::size_t>(-1)).isNull());
  EXPECT_EQ(row.columnName(1), "");
}

TEST(Row, NameLookupIsCaseInsensitive) {
  Database db = Database::open(":memory:");
  const Row row = firstRow(db, "SELECT 1 AS Title, 2 AS body");
  EXPECT_TRUE(row.hasColumn("title"));
  EXPECT_TRUE(row.hasColumn("TITLE"));
  EXPECT_TRUE(row.hasColumn("BoDy"));
  EXPECT_EQ(row.value("tItLe"), Value(1));
  EXPECT_EQ(row.value("BODY"), Value(2));
  EXPECT_EQ(row.columnIndex("BODY"), 1);
  // The name itself is kept as SQL wrote it.
  EXPECT_EQ(row.columnName(0), "Title");
}

TEST(Row, CaseFoldingIsAsciiOnlyLikeSqliteIdentifiers) {
  Database db = Database::open(":memory:");
  const Row row = firstRow(db, "SELECT 1 AS \"\xC3\xA9t\xC3\xA9\"");  // "été"
  EXPECT_TRUE(row.hasColumn("\xC3\xA9t\xC3\xA9"));
  EXPECT_FALSE(row.hasColumn("\xC3\x89T\xC3\x89"));  // "ÉTÉ"
  EXPECT_FALSE(row.hasColumn("\xC3\xA9t\xC3\xA9 "));
}

TEST(Row, DuplicateNamesKeepEveryColumnAndTheLeftmostWins) {
  Database db = Database::open(":memory:");
  const Row row = firstRow(db, "SELECT 1 AS x, 2 AS X, 3 AS y, 4 AS x");
  ASSERT_EQ(row.size(), 4u);
  EXPECT_EQ(row.columnName(0), "x");
  EXPECT_EQ(row.columnName(1), "X");
  EXPECT_EQ(row.columnName(3), "x");
  EXPECT_EQ(row.value(1), Value(2));
  EXPECT_EQ(row.value(3), Value(4));
  EXPECT_EQ(row.value("x"), Value(1));
  EXPECT_EQ(row.value("X"), Value(1));
  EXPECT_EQ(row.columnIndex("X"), 0);
}

TEST(Row, DuplicateNamesFromAJoinKeepEveryColumn) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.execute("CREATE TABLE a(id, name)"));
  ASSERT_TRUE(db.execute("CREATE TABLE b(id, name)"));
  ASSERT_TRUE(db.execute("INSERT INTO a VALUES (1, 'left')"));
  ASSERT_TRUE(db.execute("INSERT INTO b VALUES (1, 'right')"));
  const Row row = firstRow(db, "SELECT * FROM a JOIN b USING (id)");
  // USING merges id; both name columns stay.
  ASSERT_EQ(row.size(), 3u);
  EXPECT_EQ(row.columnName(1), "name");
  EXPECT_EQ(row.columnName(2), "name");
  EXPECT_EQ(row.value("name"), Value("left"));
  EXPECT_EQ(row.value(2), Value("right"));
}

TEST(Row, MissingNameGivesNullAndHasColumnFalse) {
  Database db = Database::open(":memory:");
  const Row row = firstRow(db, "SELECT 1 AS a, NULL AS b");
  EXPECT_FALSE(row.hasColumn("c"));
  EXPECT_TRUE(row.value("c").isNull());
  EXPECT_EQ(row.columnIndex("c"), -1);
  EXPECT_FALSE(row.hasColumn(""));
  // A NULL column is there; hasColumn tells it from a missing one.
  EXPECT_TRUE(row.hasColumn("b"));
  EXPECT_TRUE(row.value("b").isNull());
}

TEST(Row, RowBuiltByHandAnswersLikeAQueryRow) {
  auto names = std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"Id", "name"});
  const Row row(names, {Value(5), Value("five")});
  EXPECT_EQ(row.size(), 2u);
  EXPECT_EQ(row.columnName(0), "Id");
  EXPECT_EQ(row.value("ID"), Value(5));
  EXPECT_EQ(row.value("NAME"), Value("five"));
  EXPECT_FALSE(row.hasColumn("other"));
}

TEST(Row, RowsAreCopiesThatOutliveTheQuery) {
  std::vector<Row> rows;
  {
    Database db = Database::open(":memory:");
    ASSERT_TRUE(db.execute("SELECT 'kept' AS word, x'00ff' AS bytes", &rows)) << db.error();
  }
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].value("word"), Value("kept"));
  EXPECT_EQ(rows[0].value("bytes").asBlob(), (std::vector<std::uint8_t>{0x00, 0xff}));
  const Row copy = rows[0];
  rows.clear();
  EXPECT_EQ(copy.columnName(0), "word");
  EXPECT_EQ(copy.value(0), Value("kept"));
}

TEST(Row, TextAndBlobsOfEveryLengthComeBackFromExecute) {
  Database db = Database::open(":memory:");
  for (const std::size_t size : {0, 1, 8, 9, 16, 17, 1000, 100000}) {
    std::string bytes;
    for (std::size_t i = 0; i < size; ++i) bytes.push_back(i % 5 == 2 ? '\0' : static_cast<char>('A' + i % 50));
    std::vector<Row> rows;
    ASSERT_TRUE(
        db.execute("SELECT ? AS t, ? AS b, 7 AS n", {Value(bytes), Value::fromBlob(bytes.data(), bytes.size())}, &rows))
        << db.error();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].value(0).type(), ValueType::Text) << size;
    EXPECT_EQ(rows[0].value("t").asText(), bytes) << size;
    EXPECT_EQ(rows[0].value(1).type(), ValueType::Blob) << size;
    EXPECT_EQ(rows[0].value("b").asBlob(), std::vector<std::uint8_t>(bytes.begin(), bytes.end())) << size;
    EXPECT_EQ(rows[0].value("n"), Value(7));
  }
}
