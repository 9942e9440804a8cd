// DatabaseSnapshot (issue 39): DatabasePool::makeSnapshot and reads that see
// the database as it was then, whatever the writer commits and checkpoints
// (PASSIVE) later; snapshots of an empty write-ahead log (a fresh pool,
// after a TRUNCATE checkpoint); two reads of one snapshot at once (forced
// with latches); writes refused; a snapshot outliving or racing its pool's
// close. On an SQLite without the snapshot API (the system build here), each
// test asserts the clear error instead. Every wait is bounded.
#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <sqlitebridge/sqlitebridge.hpp>

#include "ConcurrencySupport.hpp"
#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::CheckpointMode;
using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::DatabaseSnapshot;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(open(Configuration())); }
  void open(const Configuration& configuration) {
    pool_.reset();
    pool_.emplace(path(), configuration);
    ASSERT_TRUE(pool().isOpen()) << pool().openError().message;
    Error error;
    ASSERT_TRUE(
        pool().write([](Database& db) { return db.execute("CREATE TABLE IF NOT EXISTS t(x INTEGER)"); }, &error))
        << error.message;
  }
  std::string path() const { return dir_ / "pool.db"; }
  DatabasePool& pool() { return *pool_; }
  std::int64_t count() {
    return pool().read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM t"); });
  }
  bool insert(int x) {
    return pool().write([x](Database& db) { return db.execute("INSERT INTO t VALUES (?)", {Value(x)}); });
  }
  /// The count of t the snapshot sees; -1 (with a test failure) when the
  /// read fails.
  static std::int64_t countIn(DatabaseSnapshot& snapshot) {
    std::int64_t seen = -1;
    Error error;
    EXPECT_TRUE(snapshot.read(
        [&](Database& db) {
          seen = scalarInteger(db, "SELECT count(*) FROM t");
          return true;
        },
        &error))
        << error.message;
    return seen;
  }
  /// Makes a snapshot of the pool; false (the test then ends) when the
  /// linked SQLite has no snapshot API, after checking the error says so.
  bool makeSnapshot(DatabaseSnapshot& snapshot) {
    Error error;
    const bool made = pool().makeSnapshot(snapshot, &error);
    if (!sqlitebridge::snapshotsAvailable()) {
      EXPECT_FALSE(made);
      EXPECT_TRUE(error.is(ResultCode::Error)) << error.code;
      EXPECT_NE(error.message.find("SQLITE_ENABLE_SNAPSHOT"), std::string::npos) << error.message;
      EXPECT_NE(error.message.find(Database::sqliteVersion()), std::string::npos) << error.message;
      EXPECT_FALSE(snapshot.isValid());
      return false;
    }
    EXPECT_TRUE(made) << error.message;
    EXPECT_EQ(error.code, 0);
    EXPECT_TRUE(snapshot.isValid());
    return made;
  }
  /// Whether the write-ahead log file is empty (or missing).
  bool walIsEmpty() const {
    struct stat info{};
    return ::stat((path() + "-wal").c_str(), &info) != 0 || info.st_size == 0;
  }

  TempDir dir_;
  std::optional<DatabasePool> pool_;
};

// The API is there exactly when the linked SQLite was built with it.
TEST(DatabaseSnapshotEngine, SnapshotsAreAvailableExactlyWhenSQLiteWasBuiltWithThem) {
  EXPECT_EQ(sqlitebridge::snapshotsAvailable(), sqlite3_compileoption_used("ENABLE_SNAPSHOT") == 1)
      << "SQLite " << Database::sqliteVersion();
}

TEST_F(SnapshotTest, ReadsSeeTheStateOfMakeSnapshotAcrossCommitsAndPassiveCheckpoints) {
  ASSERT_TRUE(insert(0));
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  constexpr int kRows = 50;
  for (int x = 1; x <= kRows; ++x) ASSERT_TRUE(insert(x));
  Error error;
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Passive, &error)) << error.message;
  // Commits after the checkpoint, where the writer would restart the log
  // if nothing held it.
  for (int x = 1; x <= kRows; ++x) ASSERT_TRUE(insert(-x));
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Passive, &error)) << error.message;
  ASSERT_TRUE(insert(1000));
  EXPECT_EQ(countIn(snapshot), 1);
  EXPECT_EQ(count(), 2 * kRows + 2) << "a fresh read sees every commit";
  // A snapshot made now sees the new state, the old one still the old.
  DatabaseSnapshot later;
  ASSERT_TRUE(makeSnapshot(later));
  ASSERT_TRUE(insert(2000));
  EXPECT_EQ(countIn(later), 2 * kRows + 2);
  EXPECT_EQ(countIn(snapshot), 1);
}

TEST_F(SnapshotTest, ASnapshotOfAFreshPoolWhoseLogIsEmpty) {
  ASSERT_TRUE(insert(1));
  Error error;
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Truncate, &error)) << error.message;
  pool_.reset();  // closing leaves no log at all
  pool_.emplace(path());
  ASSERT_TRUE(pool().isOpen()) << pool().openError().message;
  ASSERT_TRUE(walIsEmpty());
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  ASSERT_TRUE(insert(2));
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Passive, &error)) << error.message;
  ASSERT_TRUE(insert(3));
  EXPECT_EQ(countIn(snapshot), 1);
  EXPECT_EQ(count(), 3);
}

TEST_F(SnapshotTest, ASnapshotRightAfterATruncateCheckpoint) {
  ASSERT_TRUE(insert(1));
  ASSERT_TRUE(insert(2));
  Error error;
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Truncate, &error)) << error.message;
  ASSERT_TRUE(walIsEmpty());
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  for (int x = 3; x <= 10; ++x) ASSERT_TRUE(insert(x));
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Passive, &error)) << error.message;
  ASSERT_TRUE(insert(11));
  EXPECT_EQ(countIn(snapshot), 2);
  EXPECT_EQ(count(), 11);
}

// Each read waits inside its block until both are inside: it can only end if
// the snapshot lets them run at once.
TEST_F(SnapshotTest, TwoReadsOfOneSnapshotRunAtOnce) {
  Configuration configuration;
  configuration.maximumReaderCount = 2;
  ASSERT_NO_FATAL_FAILURE(open(configuration));
  ASSERT_TRUE(insert(1));
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  ASSERT_TRUE(insert(2));
  Failures failures;
  Latch bothInside(2);
  runThreads(2, [&](int index) {
    const std::string who = "read " + std::to_string(index);
    std::int64_t seen = -1;
    Error error;
    const bool read = snapshot.read(
        [&](Database& db) {
          if (!bothInside.arriveAndWait()) failures.add(who + ": the other read never got in beside it");
          seen = integerOrFail(db, "SELECT count(*) FROM t", failures, who);
          return true;
        },
        &error);
    if (!read) failures.add(who + ": " + error.message);
    if (seen != 1) failures.add(who + ": saw " + std::to_string(seen) + " rows");
  });
  EXPECT_EQ(failures.text(), "");
}

TEST_F(SnapshotTest, AWriteInsideASnapshotReadFailsWithReadOnly) {
  ASSERT_TRUE(insert(1));
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  Error error;
  EXPECT_FALSE(snapshot.read([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }, &error));
  EXPECT_TRUE(error.is(ResultCode::ReadOnly)) << error.code << " " << error.message;
  EXPECT_EQ(countIn(snapshot), 1);
  EXPECT_EQ(count(), 1);
}

TEST_F(SnapshotTest, ReadsOfASnapshotWhosePoolClosedFailWithMisuse) {
  ASSERT_TRUE(insert(1));
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  pool_.reset();
  EXPECT_FALSE(snapshot.isValid());
  Error error;
  bool ran = false;
  EXPECT_FALSE(snapshot.read(
      [&](Database&) {
        ran = true;
        return true;
      },
      &error));
  EXPECT_FALSE(ran);
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.code;
  EXPECT_NE(error.message.find("closed"), std::string::npos) << error.message;
}

TEST_F(SnapshotTest, EmptyMovedFromSnapshotsAndClosedPoolsFailClearly) {
  DatabaseSnapshot empty;
  Error error;
  EXPECT_FALSE(empty.isValid());
  EXPECT_FALSE(empty.read([](Database&) { return true; }, &error));
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.code;

  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  DatabaseSnapshot moved(std::move(snapshot));
  EXPECT_FALSE(snapshot.isValid());  // NOLINT(bugprone-use-after-move): moved-from is specified
  EXPECT_FALSE(snapshot.read([](Database&) { return true; }, &error));
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.code;
  EXPECT_EQ(countIn(moved), 0);

  DatabasePool other(std::move(pool()));
  DatabaseSnapshot fromMovedPool;
  EXPECT_FALSE(pool().makeSnapshot(fromMovedPool, &error));
  EXPECT_NE(error.code, 0);
  EXPECT_FALSE(fromMovedPool.isValid());
  EXPECT_EQ(countIn(moved), 0) << "the snapshot follows its pool when the pool moves";
}

TEST_F(SnapshotTest, MakeSnapshotInsideABlockOfThePoolIsReentrantMisuse) {
  if (!sqlitebridge::snapshotsAvailable()) return;  // the API check comes first
  Error error;
  bool made = true;
  pool().read([&](Database&) {
    DatabaseSnapshot snapshot;
    made = pool().makeSnapshot(snapshot, &error);
    return 0;
  });
  EXPECT_FALSE(made);
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.code;
  EXPECT_NE(error.message.find("reentrant"), std::string::npos) << error.message;
}

// The read holds its block open while another thread destroys the pool: the
// destructor waits for it, the read ends normally, later reads fail.
TEST_F(SnapshotTest, APoolClosingDuringASnapshotReadWaitsForIt) {
  ASSERT_TRUE(insert(1));
  DatabaseSnapshot snapshot;
  if (!makeSnapshot(snapshot)) return;
  Failures failures;
  Latch readInside(1);
  Latch closing(1);
  std::int64_t seen = -1;
  BoundedThread reader("the snapshot read", [&] {
    Error error;
    const bool read = snapshot.read(
        [&](Database& db) {
          readInside.countDown();
          if (!closing.waitFor()) failures.add("reader: the pool did not start closing");
          seen = integerOrFail(db, "SELECT count(*) FROM t", failures, "reader");
          return true;
        },
        &error);
    if (!read) failures.add("reader: " + error.message);
  });
  ASSERT_TRUE(readInside.waitFor());
  BoundedThread closer("the closer", [&] {
    closing.countDown();
    pool_.reset();
  });
  closer.join();
  reader.join();
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(seen, 1);
  Error error;
  EXPECT_FALSE(snapshot.read([](Database&) { return true; }, &error));
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.code;
}

// A TRUNCATE checkpoint cannot pass a living snapshot: it fails with
// SQLITE_BUSY after the (short) busy timeout; once the snapshot is gone it
// succeeds.
TEST_F(SnapshotTest, TruncateCheckpointsWaitForALivingSnapshot) {
  Configuration configuration;
  configuration.busyTimeoutMilliseconds = 100;
  ASSERT_NO_FATAL_FAILURE(open(configuration));
  ASSERT_TRUE(insert(1));
  std::optional<DatabaseSnapshot> snapshot(std::in_place);
  if (!makeSnapshot(*snapshot)) return;
  ASSERT_TRUE(insert(2));
  Error error;
  EXPECT_FALSE(pool().checkpoint(CheckpointMode::Truncate, &error));
  EXPECT_TRUE(error.is(ResultCode::Busy)) << error.code << " " << error.message;
  EXPECT_EQ(countIn(*snapshot), 1);
  snapshot.reset();
  EXPECT_TRUE(pool().checkpoint(CheckpointMode::Truncate, &error)) << error.message;
  EXPECT_TRUE(walIsEmpty());
  EXPECT_EQ(count(), 2);
}

}  // namespace
