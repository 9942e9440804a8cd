// Database::createCollation and removeCollation: ORDER BY, an index, a
// comparison, removal, and the state released on replace, remove and close.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

// ASCII case-insensitive order.
int compareNoCase(std::string_view a, std::string_view b) {
  const std::size_t size = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < size; ++i) {
    const int x = std::tolower(static_cast<unsigned char>(a[i]));
    const int y = std::tolower(static_cast<unsigned char>(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

struct Tracked {
  explicit Tracked(std::atomic<int>& live) : live(live) { ++live; }
  Tracked(const Tracked& other) : live(other.live) { ++live; }
  ~Tracked() { --live; }
  std::atomic<int>& live;
};

class Collations : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.isOpen()) << db_.error();
    ASSERT_TRUE(db_.createCollation("nocase_like", compareNoCase)) << db_.error();
    ASSERT_TRUE(db_.executeScript("CREATE TABLE words(w TEXT); INSERT INTO words VALUES ('b'), ('A'), ('c'), ('B');"));
  }
  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(Collations, OrdersByInOrderBy) {
  EXPECT_EQ(dump(db_, "SELECT w FROM words ORDER BY w COLLATE nocase_like, w"),
            (std::vector<std::string>{"w=text:A", "w=text:B", "w=text:b", "w=text:c"}));
  EXPECT_EQ(dump(db_, "SELECT w FROM words ORDER BY w"),
            (std::vector<std::string>{"w=text:A", "w=text:B", "w=text:b", "w=text:c"}));
  EXPECT_EQ(dump(db_, "SELECT w FROM words ORDER BY w COLLATE nocase_like DESC, w DESC"),
            (std::vector<std::string>{"w=text:c", "w=text:b", "w=text:B", "w=text:A"}));
}

TEST_F(Collations, ComparesInAnExpressionAndTheTextKeepsNulBytes) {
  EXPECT_EQ(scalarInteger(db_, "SELECT 'a' = 'A' COLLATE nocase_like"), 1);
  EXPECT_EQ(scalarInteger(db_, "SELECT 'a' = 'A'"), 0);
  std::vector<std::string> seen;
  ASSERT_TRUE(db_.createCollation("record", [&](std::string_view a, std::string_view b) {
    seen.emplace_back(a);
    seen.emplace_back(b);
    return compareNoCase(a, b);
  }));
  std::vector<sqlitebridge::Row> rows;
  ASSERT_TRUE(db_.execute("SELECT ? = ? COLLATE record",
                          {sqlitebridge::Value(std::string("x\0y", 3)), sqlitebridge::Value(std::string("X\0Y", 3))},
                          &rows))
      << db_.error();
  EXPECT_EQ(rows.at(0).value(0).asInteger(), 1);
  EXPECT_EQ(seen, (std::vector<std::string>{std::string("x\0y", 3), std::string("X\0Y", 3)}));
}

TEST_F(Collations, BacksAnIndexAndAColumn) {
  ASSERT_TRUE(db_.executeScript("CREATE UNIQUE INDEX words_nocase ON words(w COLLATE nocase_like);") ? false : true)
      << "'b' and 'B' are the same under nocase_like";
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Constraint) << db_.error();
  ASSERT_TRUE(db_.execute("DELETE FROM words WHERE w = 'B'"));
  ASSERT_TRUE(db_.execute("CREATE UNIQUE INDEX words_nocase ON words(w COLLATE nocase_like)")) << db_.error();
  EXPECT_FALSE(db_.execute("INSERT INTO words VALUES ('C')"));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Constraint);
  const std::vector<std::string> plan =
      dump(db_, "EXPLAIN QUERY PLAN SELECT w FROM words WHERE w = 'a' COLLATE nocase_like");
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_NE(plan[0].find("words_nocase"), std::string::npos) << plan[0];
  EXPECT_EQ(scalarText(db_, "SELECT w FROM words WHERE w = 'a' COLLATE nocase_like"), "A");
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE tags(t TEXT COLLATE nocase_like PRIMARY KEY);"
                        "INSERT INTO tags VALUES ('Swift');"));
  EXPECT_FALSE(db_.execute("INSERT INTO tags VALUES ('SWIFT')"));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Constraint);
}

TEST_F(Collations, RemovalReleasesTheStateAndTheCollationIsGone) {
  std::atomic<int> live{0};
  {
    Tracked state(live);
    ASSERT_TRUE(db_.createCollation("tracked",
                                    [state](std::string_view a, std::string_view b) { return compareNoCase(a, b); }));
  }
  EXPECT_EQ(live.load(), 1);
  EXPECT_EQ(scalarInteger(db_, "SELECT 'x' = 'X' COLLATE tracked"), 1);
  ASSERT_TRUE(db_.removeCollation("tracked")) << db_.error();
  EXPECT_EQ(live.load(), 0);
  EXPECT_FALSE(db_.execute("SELECT 'x' = 'X' COLLATE tracked"));
  EXPECT_NE(db_.error().find("no such collation sequence: tracked"), std::string::npos) << db_.error();
  EXPECT_TRUE(db_.removeCollation("never_registered"));
}

TEST_F(Collations, ReplacingReleasesTheOldStateAndCloseReleasesEverything) {
  std::atomic<int> live{0};
  const auto make = [&](bool reversed) {
    Tracked state(live);
    return [state, reversed](std::string_view a, std::string_view b) {
      return reversed ? -compareNoCase(a, b) : compareNoCase(a, b);
    };
  };
  ASSERT_TRUE(db_.createCollation("order", make(false)));
  ASSERT_TRUE(db_.createCollation("order", make(true)));
  EXPECT_EQ(live.load(), 1);
  EXPECT_EQ(scalarText(db_, "SELECT w FROM words ORDER BY w COLLATE \"order\" LIMIT 1"), "c");
  db_.close();
  EXPECT_EQ(live.load(), 0);
}

TEST_F(Collations, AThrowingCompareFallsBackToBytesAndBadNamesAreRefused) {
  ASSERT_TRUE(
      db_.createCollation("throws", [](std::string_view, std::string_view) -> int { throw std::runtime_error("no"); }));
  EXPECT_EQ(dump(db_, "SELECT w FROM words ORDER BY w COLLATE throws"),
            (std::vector<std::string>{"w=text:A", "w=text:B", "w=text:b", "w=text:c"}));
  EXPECT_FALSE(db_.createCollation(std::string("a\0b", 3), compareNoCase));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.createCollation("empty", nullptr));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  db_.close();
  EXPECT_FALSE(db_.createCollation("late", compareNoCase));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.removeCollation("late"));
}
