// The busy timeout: every connection waits 5 s by default for another
// connection's lock, from before its first read of the file, so an open
// (by path or by name) while another connection writes waits instead of
// failing with "database is locked"; a lock that outlives the timeout fails
// the open with SQLITE_BUSY and says so; setBusyTimeout(0) fails at once.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::Location;
using sqlitebridge::Row;
using namespace sqlitebridge_test;

namespace {

const char* const kLockedMessage = "another connection held the lock for longer than the busy timeout";

/// A database file with table t holding one row, in the journal mode the
/// test is instantiated with, and a second connection that holds an
/// exclusive lock on it (an uncommitted INSERT after BEGIN EXCLUSIVE, which
/// in WAL mode blocks readers only with locking_mode EXCLUSIVE) until
/// `release()`.
class ExclusiveLock : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    documents_ = dir_.makeSubdirectory("documents");
    Database setup("locked.db", "CREATE TABLE t(x); INSERT INTO t VALUES (1);", Location{documents_, ""});
    ASSERT_TRUE(setup.isOpen()) << setup.error();
    Row mode;
    ASSERT_TRUE(setup.execute(std::string("PRAGMA journal_mode = ") + journalMode(), mode)) << setup.error();
    ASSERT_EQ(mode.value(0).asText(), journalMode());
    holder_.emplace(Database::open(path()));
    ASSERT_TRUE(holder().isOpen()) << holder().error();
    lock(2);
  }

  const char* journalMode() const { return GetParam(); }
  bool wal() const { return std::string(journalMode()) == "wal"; }
  Database& holder() { return *holder_; }
  /// Takes the exclusive lock again, inserting `row` without committing.
  void lock(int row) {
    if (wal()) ASSERT_TRUE(holder().execute("PRAGMA locking_mode = EXCLUSIVE")) << holder().error();
    ASSERT_TRUE(holder().execute("BEGIN EXCLUSIVE")) << holder().error();
    ASSERT_TRUE(holder().execute("INSERT INTO t VALUES (?)", {sqlitebridge::Value(row)})) << holder().error();
  }
  /// Commits the holder's row and lets the lock go.
  void release() {
    ASSERT_TRUE(holder().execute("COMMIT")) << holder().error();
    if (!wal()) return;
    // In locking_mode EXCLUSIVE the lock stays until NORMAL is set and the
    // file is read once more.
    ASSERT_TRUE(holder().execute("PRAGMA locking_mode = NORMAL")) << holder().error();
    EXPECT_GE(scalarInteger(holder(), "SELECT count(*) FROM t"), 2);
  }
  std::string path() const { return documents_ + "/locked.db"; }
  Location location() const { return Location{documents_, ""}; }

  /// Runs `open` on another thread while the lock is held, releases the lock
  /// once the open has had a moment to meet it, and returns what it opened.
  /// The open cannot succeed while the lock is held, so one that returned
  /// before the release failed there: exactly the defect this guards.
  template <typename Open>
  Database openWhileLocked(Open open) {
    Latch starting(1);
    std::atomic<bool> returned{false};
    std::optional<Database> opened;
    BoundedThread opener("the open", [&] {
      starting.countDown();
      opened.emplace(open());
      returned = true;
    });
    EXPECT_TRUE(starting.waitFor()) << "the opening thread did not start";
    // Only gives the open time to reach the lock; the result does not depend
    // on it (an open that starts after the release succeeds too).
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(returned.load()) << "the open returned while another connection held an exclusive lock";
    release();
    opener.join();
    return std::move(*opened);
  }

  TempDir dir_;
  std::string documents_;
  std::optional<Database> holder_;
};

using Clock = std::chrono::steady_clock;

std::int64_t millisecondsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

}  // namespace

TEST(BusyTimeout, EveryConnectionStartsWithFiveSecondsAndReadsBackAChange) {
  TempDir dir;
  Database byPath = Database::open(dir / "a.db");
  ASSERT_TRUE(byPath.isOpen()) << byPath.error();
  EXPECT_EQ(byPath.busyTimeout(), 5000);
  EXPECT_EQ(Configuration().busyTimeoutMilliseconds, 5000);

  const std::string documents = dir.makeSubdirectory("documents");
  Database created("b.db", "CREATE TABLE t(x)", Location{documents, ""});
  ASSERT_TRUE(created.isOpen()) << created.error();
  EXPECT_EQ(created.busyTimeout(), 5000);
  Database reopened("b.db", "", Location{documents, ""});
  ASSERT_TRUE(reopened.isOpen()) << reopened.error();
  EXPECT_EQ(reopened.busyTimeout(), 5000);
  Database memory = Database::open(":memory:");
  EXPECT_EQ(memory.busyTimeout(), 5000);

  Database configured = Database::open(dir / "a.db", Configuration{250});
  ASSERT_TRUE(configured.isOpen()) << configured.error();
  EXPECT_EQ(configured.busyTimeout(), 250);
  Database configuredByName("b.db", "", Location{documents, ""}, Configuration{0});
  ASSERT_TRUE(configuredByName.isOpen()) << configuredByName.error();
  EXPECT_EQ(configuredByName.busyTimeout(), 0);

  ASSERT_TRUE(byPath.setBusyTimeout(1234)) << byPath.error();
  EXPECT_EQ(byPath.busyTimeout(), 1234);
  ASSERT_TRUE(byPath.setBusyTimeout(-7)) << byPath.error();
  EXPECT_EQ(byPath.busyTimeout(), 0);
  byPath.close();
  EXPECT_EQ(byPath.busyTimeout(), 0);
  EXPECT_FALSE(byPath.setBusyTimeout(10));
  EXPECT_TRUE(byPath.lastError().code == SQLITE_MISUSE);
}

TEST_P(ExclusiveLock, OpeningByPathWaitsForALockReleasedWithinTheTimeout) {
  Database opened = openWhileLocked([&] { return Database::open(path()); });
  ASSERT_TRUE(opened.isOpen()) << opened.error();
  EXPECT_EQ(scalarInteger(opened, "SELECT count(*) FROM t"), 2) << "the holder's committed row is not seen";
}

TEST_P(ExclusiveLock, OpeningByNameWaitsForALockReleasedWithinTheTimeout) {
  Database opened = openWhileLocked([&] { return Database("locked.db", "", location()); });
  ASSERT_TRUE(opened.isOpen()) << opened.error();
  EXPECT_EQ(opened.path(), path());
  EXPECT_EQ(scalarInteger(opened, "SELECT count(*) FROM t"), 2);
}

TEST_P(ExclusiveLock, OpeningByPathFailsWithBusyWhenTheLockOutlivesTheTimeout) {
  const Clock::time_point start = Clock::now();
  Database opened = Database::open(path(), Configuration{100});
  ASSERT_FALSE(opened.isOpen());
  EXPECT_GE(millisecondsSince(start), 90) << "the open did not wait for the timeout";
  const sqlitebridge::Error error = opened.lastError();
  EXPECT_EQ(error.code, SQLITE_BUSY);
  EXPECT_NE(error.message.find(kLockedMessage), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("(100 ms)"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find(path()), std::string::npos) << error.message;
  // Nothing was lost: the holder commits, and a later open sees both rows.
  release();
  Database later = Database::open(path());
  ASSERT_TRUE(later.isOpen()) << later.error();
  EXPECT_EQ(scalarInteger(later, "SELECT count(*) FROM t"), 2);
  EXPECT_EQ(scalarText(later, "PRAGMA integrity_check"), "ok");
}

TEST_P(ExclusiveLock, OpeningByNameFailsWithBusyWhenTheLockOutlivesTheTimeout) {
  Database opened("locked.db", "", location(), Configuration{100});
  ASSERT_FALSE(opened.isOpen());
  const sqlitebridge::Error error = opened.lastError();
  EXPECT_EQ(error.code, SQLITE_BUSY);
  EXPECT_NE(error.message.find(kLockedMessage), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("locked.db"), std::string::npos) << error.message;
  // The failed open made no file of its own (only SQLite's companions of
  // locked.db are there).
  for (const std::string& name : listDirectory(documents_)) EXPECT_EQ(name.rfind("locked.db", 0), 0u) << name;
  release();
  Database later("locked.db", "", location());
  ASSERT_TRUE(later.isOpen()) << later.error();
  EXPECT_EQ(scalarInteger(later, "SELECT count(*) FROM t"), 2);
}

TEST_P(ExclusiveLock, AZeroTimeoutFailsAtOnceAndSaysSo) {
  Database opened = Database::open(path(), Configuration{0});
  ASSERT_FALSE(opened.isOpen());
  EXPECT_EQ(opened.lastError().code, SQLITE_BUSY);
  EXPECT_NE(opened.error().find("the busy timeout is 0"), std::string::npos) << opened.error();
}

INSTANTIATE_TEST_SUITE_P(JournalModes, ExclusiveLock, ::testing::Values("delete", "wal"));

// Rollback journal only: in WAL mode a reader's open connection keeps the
// holder from taking an exclusive lock again.
using ExclusiveLockRollback = ExclusiveLock;

// setBusyTimeout(0) on an open connection takes the default wait away: a
// statement meeting the lock fails at once rather than after 5 s.
TEST_P(ExclusiveLockRollback, SetBusyTimeoutZeroRestoresFailingAtOnce) {
  release();
  Database reader = Database::open(path());
  ASSERT_TRUE(reader.isOpen()) << reader.error();
  ASSERT_TRUE(reader.setBusyTimeout(0)) << reader.error();
  lock(3);
  const Clock::time_point start = Clock::now();
  EXPECT_FALSE(reader.execute("SELECT count(*) FROM t"));
  // Far below the 5 s the default would have waited.
  EXPECT_LT(millisecondsSince(start), 2500);
  EXPECT_EQ(reader.lastError().code, SQLITE_BUSY) << reader.error();
  release();
  EXPECT_EQ(scalarInteger(reader, "SELECT count(*) FROM t"), 3);
}

INSTANTIATE_TEST_SUITE_P(RollbackJournal, ExclusiveLockRollback, ::testing::Values("delete"));

// In WAL mode readers do not wait for writers, but an open can still meet
// the lock of a checkpoint: the last connection to close checkpoints and
// deletes the WAL under an exclusive lock (with a zero timeout about half of
// the runs of this test fail an open that way). With the default busy
// timeout, opening again and again while connections write, checkpoint
// (TRUNCATE) and close never fails. The checkpointer waits only briefly for
// readers, so that the writer, which waits for it, is never starved.
TEST(BusyTimeoutWal, OpeningWhileOtherConnectionsWriteCheckpointAndCloseSucceeds) {
  constexpr int kOpens = 300;
  TempDir dir;
  const std::string path = dir / "wal.db";
  ASSERT_NO_FATAL_FAILURE(makeWalDatabase(path, "CREATE TABLE t(id INTEGER PRIMARY KEY, payload BLOB)"));
  Failures failures;
  std::atomic<bool> openerDone{false};
  std::atomic<int> checkpoints{0};
  // The writer counts down after its first row is in, so that the opens see
  // rows however the threads are scheduled (a loaded machine once ran all
  // the opens of the Swift twin before the writer's first insert).
  Latch started(2);
  BoundedThread writer("writer", [&] {
    // Each round is a connection of its own: when it is the last one on the
    // file, its close checkpoints and deletes the WAL under an exclusive lock.
    bool committed = false;
    while (!openerDone.load()) {
      Database db = Database::open(path);
      if (!db.isOpen() || !db.execute("INSERT INTO t(payload) VALUES (randomblob(2000))")) {
        failures.add("writer: " + db.error());
        break;
      }
      if (!committed) {
        committed = true;
        started.countDown();
      }
    }
  });
  BoundedThread checkpointer("checkpointer", [&] {
    started.countDown();
    while (!openerDone.load()) {
      Database db = Database::open(path, Configuration{20});
      Row result;  // busy, log frames, checkpointed frames
      if (!db.isOpen() || !db.execute("PRAGMA wal_checkpoint(TRUNCATE)", result)) {
        // Its own 20 ms timeout ran out (a closing writer's checkpoint can
        // hold the lock longer on a loaded machine): only the opens with
        // the default timeout are held to "never fails", as in Swift.
        if (db.lastError().code == SQLITE_BUSY) continue;
        failures.add("checkpointer: " + db.error());
        break;
      }
      if (result.value(0).asInteger() == 0) ++checkpoints;
    }
  });
  if (!started.waitFor()) {
    openerDone = true;
    FAIL() << "the writer did not commit a row or the checkpointer did not start: " << failures.text();
  }
  std::int64_t lastCount = 0;
  for (int i = 0; i < kOpens; ++i) {
    Database db = Database::open(path);
    if (!db.isOpen()) {
      failures.add("open " + std::to_string(i) + " failed: " + db.error());
      continue;
    }
    std::vector<Row> rows;
    if (!db.execute("SELECT count(*) FROM t", &rows) || rows.size() != 1) {
      failures.add("read after open " + std::to_string(i) + " failed: " + db.error());
      continue;
    }
    const std::int64_t count = rows[0].value(0).asInteger();
    if (count < lastCount) failures.add("open " + std::to_string(i) + " saw fewer rows than before");
    lastCount = count;
  }
  openerDone = true;
  writer.join();
  checkpointer.join();
  EXPECT_EQ(failures.text(), "");
  EXPECT_GT(lastCount, 0);
  RecordProperty("completedCheckpoints", checkpoints.load());
}
