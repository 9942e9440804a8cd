// Database::backup: a round trip between files and memory, progress step by
// step, and the failures (itself, closed, 0 pages, a busy destination, a
// throwing progress callback).
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

constexpr const char* kNotes =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body BLOB);"
    "CREATE INDEX notes_title ON notes(title);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)"
    "  INSERT INTO notes(title, body) SELECT 'note ' || i, randomblob(1000) FROM n;";

class Backup : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(source_.isOpen()) << source_.error();
    ASSERT_TRUE(source_.executeScript(kNotes)) << source_.error();
  }
  std::vector<std::string> contents(Database& db) {
    std::vector<std::string> rows = schemaOf(db);
    for (const std::string& row : dump(db, "SELECT id, title, hex(body) FROM notes ORDER BY id")) rows.push_back(row);
    return rows;
  }

  TempDir dir_;
  Database source_ = Database::open(dir_ / "source.db");
};

}  // namespace

TEST_F(Backup, CopiesAFileIntoMemoryAndBackIntoAnotherFile) {
  Database memory = Database::open(":memory:");
  ASSERT_TRUE(source_.backup(memory)) << source_.error();
  EXPECT_EQ(contents(memory), contents(source_));
  EXPECT_EQ(scalarInteger(memory, "SELECT count(*) FROM notes"), 300);

  ASSERT_TRUE(memory.execute("INSERT INTO notes(title) VALUES ('made in memory')")) << memory.error();
  Database copy = Database::open(dir_ / "copy.db");
  ASSERT_TRUE(copy.execute("CREATE TABLE replaced(x)")) << copy.error();
  ASSERT_TRUE(memory.backup(copy)) << memory.error();
  EXPECT_EQ(contents(copy), contents(memory));
  EXPECT_EQ(scalarInteger(copy, "SELECT count(*) FROM sqlite_master WHERE name = 'replaced'"), 0)
      << "the destination's old content is replaced";
  EXPECT_EQ(scalarText(copy, "PRAGMA integrity_check"), "ok");
  copy.close();
  Database reopened = Database::open(dir_ / "copy.db");
  EXPECT_EQ(scalarText(reopened, "SELECT title FROM notes ORDER BY id DESC LIMIT 1"), "made in memory");
}

TEST_F(Backup, ReportsProgressAfterEveryStep) {
  const std::int64_t pages = scalarInteger(source_, "PRAGMA page_count");
  ASSERT_GT(pages, 50);
  Database copy = Database::open(dir_ / "copy.db");
  std::vector<std::pair<int, int>> steps;
  ASSERT_TRUE(source_.backup(copy, 10, [&](int remaining, int total) { steps.emplace_back(remaining, total); }))
      << source_.error();
  ASSERT_EQ(static_cast<std::int64_t>(steps.size()), (pages + 9) / 10);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].second, pages);
    EXPECT_EQ(steps[i].first, std::max<std::int64_t>(0, pages - 10 * static_cast<std::int64_t>(i + 1)));
  }
  EXPECT_EQ(contents(copy), contents(source_));

  steps.clear();
  Database memory = Database::open(":memory:");
  ASSERT_TRUE(source_.backup(memory, -1, [&](int remaining, int total) { steps.emplace_back(remaining, total); }));
  EXPECT_EQ(steps, (std::vector<std::pair<int, int>>{{0, static_cast<int>(pages)}})) << "-1 copies all at once";
}

TEST_F(Backup, RefusesItselfAClosedDatabaseAndZeroPagesPerStep) {
  EXPECT_FALSE(source_.backup(source_));
  EXPECT_EQ(source_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_NE(source_.error().find("into itself"), std::string::npos) << source_.error();

  Database closed = Database::open(":memory:");
  closed.close();
  EXPECT_FALSE(source_.backup(closed));
  EXPECT_EQ(source_.lastError().resultCode(), ResultCode::Misuse);
  Database memory = Database::open(":memory:");
  EXPECT_FALSE(closed.backup(memory));
  EXPECT_EQ(closed.lastError().resultCode(), ResultCode::Misuse);

  EXPECT_FALSE(source_.backup(memory, 0));
  EXPECT_EQ(source_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_NE(source_.error().find("pagesPerStep"), std::string::npos) << source_.error();
  EXPECT_EQ(scalarInteger(memory, "SELECT count(*) FROM sqlite_master"), 0);
}

TEST_F(Backup, ADestinationInATransactionFailsAndKeepsItsContent) {
  Database copy = Database::open(dir_ / "copy.db");
  ASSERT_TRUE(copy.execute("CREATE TABLE mine(x)"));
  ASSERT_TRUE(copy.begin());
  ASSERT_TRUE(copy.execute("INSERT INTO mine VALUES (1)"));
  EXPECT_FALSE(source_.backup(copy));
  EXPECT_TRUE(source_.lastError().isError());
  EXPECT_NE(source_.error().find("backup failed"), std::string::npos) << source_.error();
  ASSERT_TRUE(copy.commit()) << copy.error();
  EXPECT_EQ(scalarInteger(copy, "SELECT count(*) FROM mine"), 1);
  EXPECT_TRUE(source_.execute("SELECT 1")) << "the source stays usable";
}

TEST_F(Backup, AThrowingProgressCallbackStopsTheCopyWithAbort) {
  Database copy = Database::open(dir_ / "copy.db");
  ASSERT_TRUE(copy.execute("CREATE TABLE mine(x)"));
  int calls = 0;
  EXPECT_FALSE(source_.backup(copy, 5, [&](int, int) {
    if (++calls == 2) throw std::runtime_error("stop");
  }));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(source_.lastError().resultCode(), ResultCode::Abort);
  EXPECT_EQ(scalarText(copy, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(scalarInteger(copy, "SELECT count(*) FROM mine"), 0) << "a stopped copy is rolled back";
  EXPECT_EQ(scalarInteger(copy, "SELECT count(*) FROM sqlite_master WHERE name = 'notes'"), 0);
}
