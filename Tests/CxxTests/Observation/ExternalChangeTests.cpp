// The check for other connections' commits (Configuration::
// externalChangeCheckMilliseconds) of a DatabasePool: `PRAGMA data_version`
// counts per connection, so it is read on one connection of the pool's own,
// never on whichever reader is free (a read-only pool was told of commits
// that never happened) and never on the writer (a read-write pool's check
// waited for every write block, and held writes up at every interval).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include <sqlitebridge/interop/Interop.hpp>
#include <sqlitebridge/interop/Testing.hpp>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::DatabaseRegion;
using sqlitebridge::Error;
using sqlitebridge::JournalMode;
using sqlitebridge::ObservationHandle;
using sqlitebridge::interop::ConcurrencyAccess;
using sqlitebridge::interop::ConcurrencyTesting;
using namespace sqlitebridge_test;

namespace {

/// Waits until `pool`'s observations finished `count` more checks than
/// `after`; false when the limit ran out.
bool waitForChecks(const DatabasePool& pool, std::uint64_t after, std::uint64_t count) {
  const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
  while (ConcurrencyTesting::externalCheckCount(pool) < after + count) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

/// Waits until `value` is at least `least`; false when the limit ran out.
bool waitForAtLeast(const std::atomic<int>& value, int least) {
  const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
  while (value.load() < least) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

/// A WAL database with one table, made by `writer`, a connection of its own
/// (as another process would hold).
Database makeDatabase(const std::string& path) {
  Configuration configuration;
  configuration.journalMode = JournalMode::Wal;
  Database writer = Database::open(path, configuration);
  EXPECT_TRUE(writer.isOpen()) << writer.lastError().message;
  EXPECT_TRUE(writer.execute("CREATE TABLE items(id INTEGER PRIMARY KEY)")) << writer.lastError().message;
  return writer;
}

}  // namespace

TEST(ExternalChanges, AReadOnlyPoolIsToldOfEachCommitOfAnotherConnectionOnceAndOfNothingElse) {
  TempDir dir;
  const std::string path = dir / "read-only.db";
  Database writer = makeDatabase(path);
  Configuration configuration;
  configuration.readOnly = true;
  configuration.maximumReaderCount = 2;
  configuration.externalChangeCheckMilliseconds = 1;
  DatabasePool pool(path, configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;

  // Two readers that have counted different numbers of changes: the first
  // read before the other connection's commit, the second opened after it.
  Latch holding(1);
  Latch releaseFirst(1);
  BoundedThread first("the first reader's block", [&] {
    pool.read([&](Database& db) {
      EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM items"), 0);
      holding.countDown();
      EXPECT_TRUE(releaseFirst.waitFor());
      return 0;
    });
  });
  ASSERT_TRUE(holding.waitFor());
  ASSERT_TRUE(writer.execute("INSERT INTO items DEFAULT VALUES")) << writer.lastError().message;
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items"); }), 1);

  // Observed while the first reader is lent (a check then could only use
  // the second one), then with both free (a check on a free reader takes
  // the first).
  std::atomic<int> told{0};
  std::atomic<int> failures{0};
  ObservationHandle handle = sqlitebridge::observeRegion(
      pool, DatabaseRegion::fullDatabase(), [&](Database&) { ++told; }, [&](const Error&) { ++failures; });
  ASSERT_TRUE(handle.isActive());
  releaseFirst.countDown();
  first.join();

  // No commit: checks tell nothing.
  ASSERT_TRUE(waitForChecks(pool, ConcurrencyTesting::externalCheckCount(pool), 3));
  EXPECT_EQ(told.load(), 0) << "told of a commit that never happened";

  // One commit each time: told once each time, never missed.
  for (int commit = 1; commit <= 3; ++commit) {
    ASSERT_TRUE(writer.execute("INSERT INTO items DEFAULT VALUES")) << writer.lastError().message;
    EXPECT_TRUE(waitForAtLeast(told, commit)) << "commit " << commit << " was missed";
    ASSERT_TRUE(waitForChecks(pool, ConcurrencyTesting::externalCheckCount(pool), 2));
    EXPECT_EQ(told.load(), commit) << "after commit " << commit;
  }
  EXPECT_EQ(failures.load(), 0);
}

TEST(ExternalChanges, AReadWritePoolChecksWithoutTheWriter) {
  TempDir dir;
  const std::string path = dir / "read-write.db";
  Database writer = makeDatabase(path);
  Configuration configuration;
  configuration.externalChangeCheckMilliseconds = 1;
  DatabasePool pool(path, configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;

  Latch first(1);
  Latch changed(1);
  std::atomic<std::int64_t> last{-1};
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      pool,
      [](Database& db, std::int64_t& value, Error* error) {
        return fetchInteger(db, "SELECT count(*) FROM items", value, error);
      },
      [&](const std::int64_t& value) {
        last = value;
        first.countDown();
        if (value == 1) changed.countDown();
      },
      [](const Error& error) { ADD_FAILURE() << "the observation reported: " << error.message; });
  ASSERT_TRUE(first.waitFor());
  EXPECT_EQ(last.load(), 0);

  // A long write block holds the pool's writer: checks go on meanwhile, and
  // another connection's commit is told and fetched before it ends.
  Latch holding(1);
  Latch releaseWriter(1);
  BoundedThread block("the long write block", [&] {
    pool.writeWithoutTransaction([&](Database&) {
      holding.countDown();
      EXPECT_TRUE(releaseWriter.waitFor());
      return 0;
    });
  });
  ASSERT_TRUE(holding.waitFor());
  const bool checked = waitForChecks(pool, ConcurrencyTesting::externalCheckCount(pool), 2);
  ASSERT_TRUE(writer.execute("INSERT INTO items DEFAULT VALUES")) << writer.lastError().message;
  const bool told = checked && changed.waitFor();
  releaseWriter.countDown();
  block.join();
  EXPECT_TRUE(checked) << "the checks waited for the writer";
  EXPECT_TRUE(told) << "the commit was told only after the write block";
  EXPECT_EQ(last.load(), 1);
}
