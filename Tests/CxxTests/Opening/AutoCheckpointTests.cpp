// Configuration::autoCheckpointPages (issue 27): -1 leaves SQLite's default
// (1000), 0 turns automatic checkpoints off, a positive number sets PRAGMA
// wal_autocheckpoint, any other negative number is SQLITE_MISUSE before any
// file is made; what it does to the WAL file's growth.
#include <string>

#include "TestSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::JournalMode;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

Configuration withAutoCheckpoint(int pages) {
  Configuration configuration;
  configuration.autoCheckpointPages = pages;
  return configuration;
}

// The size of the WAL after 20 commits of about three pages each.
std::uintmax_t walSizeAfterCommits(const std::string& path, int pages) {
  Configuration configuration = withAutoCheckpoint(pages);
  configuration.journalMode = JournalMode::Wal;
  Database db = Database::open(path, configuration);
  EXPECT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.execute("CREATE TABLE t(x)")) << db.error();
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(db.execute("INSERT INTO t VALUES (zeroblob(8000))")) << db.error();
  return fs::file_size(path + "-wal");
}

}  // namespace

TEST(AutoCheckpoint, MinusOneLeavesSQLitesDefault) {
  TempDir dir;
  EXPECT_EQ(Configuration().autoCheckpointPages, -1);
  Database db = Database::open(dir / "a.db", Configuration());
  ASSERT_TRUE(db.isOpen()) << db.error();
  EXPECT_EQ(scalarInteger(db, "PRAGMA wal_autocheckpoint"), 1000);
}

TEST(AutoCheckpoint, ZeroAndPositiveValuesAreSetAtOpen) {
  TempDir dir;
  for (int pages : {0, 1, 7, 5000}) {
    Database db = Database::open(dir / "a.db", withAutoCheckpoint(pages));
    ASSERT_TRUE(db.isOpen()) << pages << ": " << db.error();
    EXPECT_EQ(scalarInteger(db, "PRAGMA wal_autocheckpoint"), pages);
  }
  DatabaseQueue queue(dir / "a.db", withAutoCheckpoint(0));
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "PRAGMA wal_autocheckpoint"); }), 0);
}

TEST(AutoCheckpoint, OtherNegativeValuesAreMisuseBeforeAnyFileIsMade) {
  TempDir dir;
  for (int pages : {-2, -1000}) {
    Database db = Database::open(dir / "a.db", withAutoCheckpoint(pages));
    EXPECT_FALSE(db.isOpen());
    EXPECT_EQ(db.lastError().resultCode(), ResultCode::Misuse) << db.error();
    EXPECT_TRUE(contains(db.error(), "autoCheckpointPages is " + std::to_string(pages))) << db.error();
  }
  EXPECT_FALSE(fileExists(dir / "a.db"));
}

TEST(AutoCheckpoint, OffLetsTheWalGrowWhereOnePageCheckpointsEveryCommit) {
  TempDir dir;
  const std::uintmax_t off = walSizeAfterCommits(dir / "off.db", 0);
  const std::uintmax_t everyCommit = walSizeAfterCommits(dir / "every.db", 1);
  // 20 commits of 2 or more pages each stay in the WAL when nothing checkpoints.
  EXPECT_GT(off, 20u * 2u * 4096u);
  // Checkpointed after each commit, the WAL restarts from its start.
  EXPECT_LT(everyCommit * 4, off) << everyCommit << " vs " << off;
}
