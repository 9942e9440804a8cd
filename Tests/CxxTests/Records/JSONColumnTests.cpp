// JSON columns in C++ (issue 29, part 3): a C++ record reads and writes a
// JSON column as its text, the text the Swift facade stores for a Codable
// record's nested values, and SQLite's JSON functions work over it. The
// Swift side: Tests/SQLiteBridgeTests/Records/JSONColumnTests.swift.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "SQLiteVersionSupport.hpp"
#include "sqlitebridge/sqlitebridge.hpp"

using namespace sqlitebridge;

namespace {

// Swift's `Player` of the README, with its JSON columns as text.
struct Player {
  std::int64_t id = 0;
  std::string name;
  std::string tagsJSON;                  // ["pro","left-handed"]
  std::optional<std::string> statsJSON;  // {"losses":1,"wins":3}, or NULL
};

}  // namespace

template <>
struct sqlitebridge::RecordTraits<Player> {
  static constexpr const char* table = "players";
  static std::vector<std::string> primaryKey() { return {"id"}; }
  static bool read(const RowView& row, Player& out) {
    return row.get("id", out.id) && row.get("name", out.name) && row.get("tags", out.tagsJSON) &&
           row.get("stats", out.statsJSON);
  }
  static void write(const Player& in, NamedValues& out) {
    out.add("id", in.id);
    out.add("name", in.name);
    out.add("tags", in.tagsJSON);
    out.add("stats", in.statsJSON ? Value(*in.statsJSON) : Value());
  }
};

namespace {

class JSONColumnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.execute("CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tags TEXT, stats TEXT)"))
        << db_.error();
    // What Swift's insert of Player(id: 1, name: "Ann", tags: ["pro",
    // "left-handed"], stats: .init(wins: 3, losses: 1)) stores.
    ASSERT_TRUE(
        db_.execute(R"(INSERT INTO players VALUES (1, 'Ann', '["pro","left-handed"]', '{"losses":1,"wins":3}'))"))
        << db_.error();
  }

  /// Whether this SQLite has the JSON functions (a build may leave them out:
  /// SQLITE_OMIT_JSON).
  bool hasJSONFunctions() { return db_.execute("SELECT json_extract('[1]', '$[0]')"); }

  Database db_ = Database::open(":memory:");
};

TEST_F(JSONColumnTest, ARecordReadsAndWritesTheJSONText) {
  std::vector<Player> players;
  ASSERT_TRUE(db_.fetch("SELECT * FROM players", {}, players)) << db_.error();
  ASSERT_EQ(players.size(), 1u);
  EXPECT_EQ(players[0].tagsJSON, R"(["pro","left-handed"])");
  EXPECT_EQ(players[0].statsJSON, std::optional<std::string>(R"({"losses":1,"wins":3})"));

  ASSERT_TRUE(db_.insert(Player{2, "Bob", "[]", std::nullopt})) << db_.error();
  Row row;
  ASSERT_TRUE(db_.execute("SELECT tags, stats FROM players WHERE id = 2", row)) << db_.error();
  EXPECT_EQ(row.value(0), Value("[]"));
  EXPECT_EQ(row.value(1), Value());
}

TEST_F(JSONColumnTest, ANonTextJSONColumnFailsTheReadWithMismatchNamingIt) {
  // From the query: the TEXT column would store 5 as '5'.
  std::vector<Player> players;
  EXPECT_FALSE(db_.fetch("SELECT id, name, 5 AS tags, stats FROM players", {}, players));
  EXPECT_TRUE(db_.lastError().is(ResultCode::Mismatch)) << db_.error();
  EXPECT_EQ(db_.lastError().message, "column \"tags\" holds integer 5, which does not convert to string");
  EXPECT_TRUE(players.empty());
}

TEST_F(JSONColumnTest, JSONFunctionsReadTheColumns) {
  if (!hasJSONFunctions()) GTEST_SKIP() << "this SQLite (" << sqlite3_libversion() << ") lacks the JSON functions";
  Row row;
  ASSERT_TRUE(
      db_.execute("SELECT json_extract(tags, '$[0]'), json_extract(stats, '$.wins'), json_valid(tags) "
                  "FROM players",
                  row))
      << db_.error();
  EXPECT_EQ(row.value(0), Value("pro"));
  EXPECT_EQ(row.value(1), Value(3));
  EXPECT_EQ(row.value(2), Value(1));

  std::vector<Player> winners;
  ASSERT_TRUE(db_.fetch("SELECT * FROM players WHERE json_extract(stats, '$.wins') > ?", {Value(2)}, winners))
      << db_.error();
  ASSERT_EQ(winners.size(), 1u);
  EXPECT_EQ(winners[0].name, "Ann");
}

TEST_F(JSONColumnTest, TheArrowOperatorsReadTheColumns) {
  SQLITEBRIDGE_SKIP_UNLESS_SQLITE(3038000, "->>");
  Row row;
  ASSERT_TRUE(db_.execute("SELECT tags ->> '$[1]', stats -> '$.losses' FROM players", row)) << db_.error();
  EXPECT_EQ(row.value(0), Value("left-handed"));
  EXPECT_EQ(row.value(1), Value("1"));
}

}  // namespace
