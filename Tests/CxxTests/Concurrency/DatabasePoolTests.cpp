// DatabasePool (issue 12): a WAL file shared by one writer and up to
// maximumReaderCount readers. Opening (the WAL switch, in-memory databases
// and read-only files refused with a reason, a read-only pool,
// maximumReaderCount 0), then interleavings forced with latches: a reader
// keeps its snapshot while a writer commits, readers overlap each other and
// the writer, the reader limit holds; 8 threads x 1,000 writes lose nothing;
// transfers keep their total under 10,000 concurrent reads; interrupt from
// another thread; transient BUSY/PROTOCOL answers retried; checkpoints.
// Every wait is bounded (ThreadSupport.hpp); no assertion depends on time.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sqlitebridge/interop/Interop.hpp>
#include <sqlitebridge/interop/Testing.hpp>

#include "ConcurrencySupport.hpp"
#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::CheckpointMode;
using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge::interop::ConcurrencyAccess;
using sqlitebridge::interop::ConcurrencyTesting;
using namespace sqlitebridge_test;

namespace {

/// A pool on `<dir>/pool.db` holding table t(x INTEGER), opened with
/// `configuration()` (override it for other settings).
class PoolTest : public ::testing::Test {
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

  TempDir dir_;
  std::optional<DatabasePool> pool_;
};

/// The journal mode of the file at `path`, read by a fresh raw connection.
std::string journalModeOnDisk(const std::string& path) {
  Database db = Database::open(path);
  if (!db.isOpen()) return "cannot open: " + db.error();
  return scalarText(db, "PRAGMA journal_mode");
}

}  // namespace

// MARK: Opening

TEST(DatabasePool, SwitchesAFileInRollbackModeToWal) {
  TempDir dir;
  const std::string path = dir / "rollback.db";
  ASSERT_TRUE(makeDatabaseFile(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1);"));
  ASSERT_EQ(journalModeOnDisk(path), "delete");
  {
    DatabasePool pool(path);
    ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
    EXPECT_FALSE(pool.openError().isError());
    EXPECT_EQ(pool.read([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), "wal");
    EXPECT_EQ(pool.writeWithoutTransaction([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), "wal");
    EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM t"); }), 1);
  }
  EXPECT_EQ(journalModeOnDisk(path), "wal") << "WAL is persistent";
}

TEST(DatabasePool, RefusesInMemoryDatabasesSayingWhy) {
  TempDir dir;
  WorkingDirectory inside(dir.path());  // whatever a name might create lands here
  for (const std::string path : {":memory:", "", "file::memory:"}) {
    DatabasePool pool(path);
    EXPECT_FALSE(pool.isOpen()) << "\"" << path << "\"";
    const Error error = pool.openError();
    EXPECT_TRUE(error.is(ResultCode::CantOpen)) << "\"" << path << "\": " << error.code << " " << error.message;
    EXPECT_NE(error.message.find("in-memory"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("DatabaseQueue"), std::string::npos) << error.message;
    // Every call fails with the open error.
    Error writeError;
    EXPECT_FALSE(pool.write([](Database&) { return true; }, &writeError));
    EXPECT_EQ(writeError.code, error.code);
    EXPECT_EQ(pool.read([](Database& db) { return db.lastError().code; }), error.code);
  }
  EXPECT_EQ(listDirectory(dir.path()), std::vector<std::string>());
}

// What a pool opened on `path` says, as a bit set: 0 when it refused the
// file with SQLITE_READONLY and a message naming the way out.
int readOnlyRefusal(const std::string& path) {
  DatabasePool pool(path);
  const Error error = pool.openError();
  int problems = 0;
  if (pool.isOpen()) problems |= 1;
  if (!error.is(ResultCode::ReadOnly)) problems |= 2;
  if (error.message.find("read-only") == std::string::npos) problems |= 4;
  if (error.message.find("readOnly") == std::string::npos) problems |= 8;
  return problems;
}

TEST(DatabasePool, RefusesAFileItCannotWriteSayingWhy) {
  TempDir dir;
  const std::string path = dir / "locked-down.db";
  ASSERT_TRUE(makeDatabaseFile(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1);"));
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  if (!runningAsRoot()) {
    EXPECT_EQ(readOnlyRefusal(path), 0);
  } else {
    // Root writes any file: the refusal is checked in a child process that
    // gave up root for "nobody" (the directory made reachable for it).
    ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(100);
      ::_exit(readOnlyRefusal(path));
    }
    int status = 0;
    pid_t done = 0;
    const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
    while ((done = ::waitpid(child, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (done == 0) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      FAIL() << "the child did not finish within the wait limit";
    }
    ASSERT_TRUE(WIFEXITED(status)) << "the child died: status " << status;
    if (WEXITSTATUS(status) == 100) GTEST_SKIP() << "cannot switch to the user nobody here";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "bits: 1 opened, 2 not SQLITE_READONLY, 4/8 message lacks the reason";
  }
  EXPECT_EQ(journalModeOnDisk(path), "delete");
}

TEST(DatabasePool, AReadOnlyPoolReadsAndRefusesWrites) {
  TempDir dir;
  const std::string path = dir / "read-only.db";
  ASSERT_NO_FATAL_FAILURE(makeWalDatabase(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2);"));
  Configuration configuration;
  configuration.readOnly = true;
  DatabasePool pool(path, configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM t"); }), 2);
  Error error;
  bool ran = false;
  EXPECT_FALSE(pool.write(
      [&](Database&) {
        ran = true;
        return true;
      },
      &error));
  EXPECT_FALSE(ran);
  EXPECT_TRUE(error.is(ResultCode::ReadOnly)) << error.code << " " << error.message;
  const Error direct = pool.writeWithoutTransaction([](Database& db) { return db.lastError(); });
  EXPECT_TRUE(direct.is(ResultCode::ReadOnly)) << direct.code << " " << direct.message;
  const Error inRead = pool.read([](Database& db) {
    EXPECT_FALSE(db.execute("INSERT INTO t VALUES (3)"));
    return db.lastError();
  });
  EXPECT_TRUE(inRead.is(ResultCode::ReadOnly)) << inRead.code << " " << inRead.message;
  Error checkpointError;
  EXPECT_FALSE(pool.checkpoint(CheckpointMode::Passive, &checkpointError));
  EXPECT_TRUE(checkpointError.is(ResultCode::ReadOnly)) << checkpointError.message;

  Configuration missing = configuration;
  DatabasePool absent(dir / "absent.db", missing);
  EXPECT_FALSE(absent.isOpen());
  EXPECT_TRUE(absent.openError().is(ResultCode::CantOpen)) << absent.openError().message;
  EXPECT_FALSE(fileExists(dir / "absent.db"));
}

TEST(DatabasePool, MaximumReaderCountZeroIsMisuse) {
  TempDir dir;
  Configuration configuration;
  configuration.maximumReaderCount = 0;
  DatabasePool pool(dir / "zero.db", configuration);
  EXPECT_FALSE(pool.isOpen());
  EXPECT_TRUE(pool.openError().is(ResultCode::Misuse)) << pool.openError().message;
  EXPECT_NE(pool.openError().message.find("maximumReaderCount"), std::string::npos) << pool.openError().message;
}

TEST_F(PoolTest, ReadersAreReadOnlyAndWritesCommitOrRollBack) {
  const Error inRead = pool().read([](Database& db) {
    EXPECT_TRUE(db.isInTransaction());
    EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
    return db.lastError();
  });
  EXPECT_TRUE(inRead.is(ResultCode::ReadOnly)) << inRead.code << " " << inRead.message;
  EXPECT_TRUE(insert(1));
  Error error{SQLITE_ERROR, SQLITE_ERROR, "stale", ""};
  EXPECT_FALSE(pool().write(
      [](Database& db) {
        EXPECT_TRUE(db.execute("INSERT INTO t VALUES (2)"));
        return false;
      },
      &error));
  EXPECT_FALSE(error.isError()) << error.message;
  EXPECT_FALSE(pool().write(
      [](Database& db) {
        EXPECT_TRUE(db.execute("INSERT INTO t VALUES (3)"));
        EXPECT_FALSE(db.execute("INSERT INTO missing VALUES (3)"));
        return true;
      },
      &error));
  EXPECT_TRUE(error.is(ResultCode::Error)) << error.code << " " << error.message;
  EXPECT_EQ(count(), 1);
}

TEST_F(PoolTest, ReentrantCallsAndCheckpointInsideABlockFailWithMisuse) {
  BoundedThread caller("the reentrant calls", [&] {
    pool().read([&](Database&) {
      const Error inner = pool().read([](Database& db) { return db.lastError(); });
      EXPECT_TRUE(inner.is(ResultCode::Misuse)) << inner.message;
      EXPECT_NE(inner.message.find("reentrant access"), std::string::npos) << inner.message;
      Error error;
      EXPECT_FALSE(pool().write([](Database&) { return true; }, &error));
      EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.message;
      EXPECT_FALSE(pool().checkpoint(CheckpointMode::Passive, &error));
      EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.message;
      return 0;
    });
    EXPECT_TRUE(pool().write([&](Database& db) {
      Error error;
      EXPECT_FALSE(pool().write([](Database&) { return true; }, &error));
      EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.message;
      const Error inner = pool().read([](Database& inner) { return inner.lastError(); });
      EXPECT_TRUE(inner.is(ResultCode::Misuse)) << inner.message;
      EXPECT_FALSE(pool().checkpoint(CheckpointMode::Truncate, &error));
      EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.message;
      return db.execute("INSERT INTO t VALUES (1)");
    }));
  });
  caller.join();
  EXPECT_EQ(count(), 1);
}

// MARK: Snapshots and overlap

// The reader counts, lets the writer commit, counts again: the same count
// (its snapshot); a read that starts afterwards sees the new row.
TEST_F(PoolTest, AReaderKeepsItsSnapshotWhileAWriterCommits) {
  ASSERT_TRUE(insert(1));
  Failures failures;
  Latch readerCounted(1);
  Latch writerCommitted(1);
  std::int64_t before = -1;
  std::int64_t after = -1;
  BoundedThread reader("the reader", [&] {
    pool().read([&](Database& db) {
      before = integerOrFail(db, "SELECT count(*) FROM t", failures, "reader");
      readerCounted.countDown();
      if (!writerCommitted.waitFor()) failures.add("reader: the writer did not commit");
      after = integerOrFail(db, "SELECT count(*) FROM t", failures, "reader");
      return 0;
    });
  });
  ASSERT_TRUE(readerCounted.waitFor());
  Error error;
  EXPECT_TRUE(pool().write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }, &error))
      << error.message;
  writerCommitted.countDown();
  reader.join();
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(before, 1);
  EXPECT_EQ(after, 1) << "the reader saw a write committed after its read began";
  EXPECT_EQ(count(), 2);
}

// Each reader waits, inside its block, until all of them are inside: it can
// only end if the pool lets them all in at once.
TEST(DatabasePoolConcurrency, ReadersOverlapEachOther) {
  constexpr int kReaders = 4;
  TempDir dir;
  Configuration configuration;
  configuration.maximumReaderCount = kReaders;
  DatabasePool pool(dir / "overlap.db", configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(
      pool.write([](Database& db) { return db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);"); }));
  Failures failures;
  Latch allInside(kReaders);
  runThreads(kReaders, [&](int index) {
    const std::string who = "reader " + std::to_string(index);
    const std::int64_t seen = pool.read([&](Database& db) {
      if (!allInside.arriveAndWait()) failures.add(who + ": the other readers never got in beside it");
      return integerOrFail(db, "SELECT count(*) FROM t", failures, who);
    });
    if (seen != 1) failures.add(who + ": read " + std::to_string(seen));
  });
  EXPECT_EQ(failures.text(), "");
}

// The writer waits inside its block for a reader inside its block, and the
// reader for the writer.
TEST_F(PoolTest, AReaderOverlapsTheWriter) {
  Failures failures;
  Latch writerInside(1);
  Latch readerInside(1);
  std::int64_t readerSaw = -1;
  BoundedThread writer("the writer", [&] {
    Error error;
    const bool committed = pool().write(
        [&](Database& db) {
          writerInside.countDown();
          if (!readerInside.waitFor()) failures.add("writer: no reader got in beside it");
          return db.execute("INSERT INTO t VALUES (1)");
        },
        &error);
    if (!committed) failures.add("writer: " + error.message);
  });
  BoundedThread reader("the reader", [&] {
    readerSaw = pool().read([&](Database& db) {
      readerInside.countDown();
      if (!writerInside.waitFor()) failures.add("reader: the writer never got in beside it");
      return integerOrFail(db, "SELECT count(*) FROM t", failures, "reader");
    });
  });
  writer.join();
  reader.join();
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(readerSaw, 0) << "the reader's snapshot predates the write's commit";
  EXPECT_EQ(count(), 1);
}

// maximumReaderCount 2: two readers hold their blocks; a third read waits
// until one of them ends. At no time are more than two blocks inside.
TEST(DatabasePoolConcurrency, TheReaderLimitIsRespected) {
  TempDir dir;
  Configuration configuration;
  configuration.maximumReaderCount = 2;
  DatabasePool pool(dir / "limit.db", configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  std::mutex mutex;
  int inside = 0;
  int maximumInside = 0;
  int finished = 0;
  int finishedWhenThirdEntered = -1;
  auto enter = [&] {
    std::lock_guard<std::mutex> lock(mutex);
    maximumInside = std::max(maximumInside, ++inside);
  };
  auto leave = [&] {
    std::lock_guard<std::mutex> lock(mutex);
    --inside;
    ++finished;
  };
  Failures failures;
  Latch bothInside(2);
  Latch releaseFirst(1);
  Latch releaseSecond(1);
  Latch thirdCalling(1);
  std::vector<BoundedThread> holders;
  for (int index = 0; index < 2; ++index) {
    holders.emplace_back("holder " + std::to_string(index), [&, index] {
      pool.read([&](Database&) {
        enter();
        bothInside.countDown();
        if (!(index == 0 ? releaseFirst : releaseSecond).waitFor()) failures.add("a holder was never released");
        leave();
        return 0;
      });
    });
  }
  ASSERT_TRUE(bothInside.waitFor());
  BoundedThread third("the third reader", [&] {
    thirdCalling.countDown();
    pool.read([&](Database&) {
      enter();
      {
        std::lock_guard<std::mutex> lock(mutex);
        finishedWhenThirdEntered = finished;
      }
      leave();
      return 0;
    });
  });
  ASSERT_TRUE(thirdCalling.waitFor());
  releaseFirst.countDown();
  holders[0].join();
  third.join();
  releaseSecond.countDown();
  holders[1].join();
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(maximumInside, 2);
  EXPECT_EQ(finishedWhenThirdEntered, 1) << "the third read ran while both readers were inside";
}

// MARK: Many writers, an invariant

TEST(DatabasePoolConcurrency, EightThreadsTimesAThousandWritesLoseNothing) {
  TempDir dir;
  DatabasePool pool(dir / "many.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  expectEightThreadsTimesAThousandWritesLoseNothing(pool);
}

// Writers move amounts between two accounts (two UPDATEs per transaction);
// readers read both balances with two statements in one block, 10,000 reads
// in all, while the writers go on: the total is never seen broken.
TEST(DatabasePoolConcurrency, TransfersKeepTheirTotalForConcurrentReaders) {
  constexpr int kWriters = 2;
  constexpr int kReaders = 4;
  constexpr int kReadsPerReader = 2500;
  constexpr std::int64_t kTotal = 1000;
  TempDir dir;
  DatabasePool pool(dir / "accounts.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.writeWithoutTransaction([](Database& db) {
    return db.execute("PRAGMA synchronous = OFF") &&
           db.executeScript(
               "CREATE TABLE accounts(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);"
               "INSERT INTO accounts VALUES (1, 600), (2, 400);");
  }));
  Failures failures;
  std::atomic<int> readersDone{0};
  std::atomic<std::int64_t> transfers{0};
  std::atomic<std::int64_t> reads{0};
  std::atomic<std::int64_t> readsDuringWrites{0};
  Latch start(kWriters + kReaders);
  runThreads(kWriters + kReaders, [&](int index) {
    const bool isWriter = index < kWriters;
    const std::string who = (isWriter ? "writer " : "reader ") + std::to_string(index);
    if (!start.arriveAndWait()) failures.add(who + ": the others did not start");
    if (isWriter) {
      // Until every reader is done, and at least 100 transfers each.
      const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
      for (std::int64_t n = 0; n < 100 || readersDone.load() < kReaders; ++n) {
        if (std::chrono::steady_clock::now() > deadline) {
          failures.add(who + ": the readers did not finish in time");
          return;
        }
        const int amount = static_cast<int>((n * 7 + index * 13) % 50) - 25;
        Error error;
        const bool committed = pool.write(
            [&](Database& db) {
              return db.execute("UPDATE accounts SET balance = balance - ? WHERE id = 1", {Value(amount)}) &&
                     db.execute("UPDATE accounts SET balance = balance + ? WHERE id = 2", {Value(amount)});
            },
            &error);
        if (!committed) {
          failures.add(who + ": transfer failed: " + error.message);
          return;
        }
        transfers.fetch_add(1);
      }
      return;
    }
    struct Done {
      std::atomic<int>& done;
      ~Done() { done.fetch_add(1); }
    } done{readersDone};
    for (int n = 0; n < kReadsPerReader; ++n) {
      const std::int64_t transfersBefore = transfers.load();
      const std::int64_t total = pool.read([&](Database& db) {
        const std::int64_t first = integerOrFail(db, "SELECT balance FROM accounts WHERE id = 1", failures, who);
        const std::int64_t second = integerOrFail(db, "SELECT balance FROM accounts WHERE id = 2", failures, who);
        return first + second;
      });
      reads.fetch_add(1);
      if (transfers.load() != transfersBefore) readsDuringWrites.fetch_add(1);
      if (total != kTotal) {
        failures.add(who + ": read " + std::to_string(n) + " saw a total of " + std::to_string(total));
        return;
      }
    }
  });
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(reads.load(), kReaders * kReadsPerReader);
  EXPECT_GE(transfers.load(), kWriters * 100);
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT sum(balance) FROM accounts"); }), kTotal);
  // How much the reads overlapped the writes (not asserted: it depends on
  // the scheduler); the overlap itself is proven by AReaderOverlapsTheWriter.
  RecordProperty("readsDuringWrites", std::to_string(readsDuringWrites.load()));
}

// MARK: Interrupt

TEST_F(PoolTest, InterruptFromAnotherThreadStopsARead) {
  ASSERT_TRUE(insert(1));
  const InterruptedBlock result = interruptALongQuery(pool(), false);
  EXPECT_TRUE(result.interrupted) << "the long query did not return";
  EXPECT_TRUE(result.error.is(ResultCode::Interrupt)) << result.error.code << " " << result.error.message;
  EXPECT_EQ(count(), 1);
  EXPECT_TRUE(insert(2));
  EXPECT_EQ(count(), 2);
}

TEST_F(PoolTest, InterruptFromAnotherThreadRollsBackAWrite) {
  const InterruptedBlock result = interruptALongQuery(pool(), true);
  EXPECT_TRUE(result.interrupted) << "the long query did not return";
  EXPECT_FALSE(result.committed);
  EXPECT_TRUE(result.error.is(ResultCode::Interrupt)) << result.error.code << " " << result.error.message;
  EXPECT_EQ(count(), 0);
  EXPECT_TRUE(insert(2));
  EXPECT_EQ(count(), 1);
}

// MARK: Transient answers

TEST_F(PoolTest, TransientProtocolAnswersToAReadAreRetried) {
  ASSERT_TRUE(insert(1));
  const std::int64_t before = ConcurrencyTesting::transientRetryCount(pool());
  ConcurrencyTesting::injectTransientFailures(pool(), 3, SQLITE_PROTOCOL);
  const Error error = pool().read([](Database& db) {
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 1);
    return db.lastError();
  });
  EXPECT_FALSE(error.isError()) << error.message;
  EXPECT_EQ(ConcurrencyTesting::transientRetryCount(pool()) - before, 3);
}

TEST_F(PoolTest, TransientBusyAnswersToAWriteAreRetried) {
  const std::int64_t before = ConcurrencyTesting::transientRetryCount(pool());
  ConcurrencyTesting::injectTransientFailures(pool(), 3, SQLITE_BUSY);
  Error error;
  EXPECT_TRUE(pool().write([](Database& db) { return db.execute("INSERT INTO t VALUES (1)"); }, &error))
      << error.message;
  EXPECT_EQ(ConcurrencyTesting::transientRetryCount(pool()) - before, 3);
  EXPECT_EQ(count(), 1);
}

TEST_F(PoolTest, MoreTransientAnswersThanTheRetryLimitAreReported) {
  constexpr int kRetryLimit = 10;
  const std::int64_t before = ConcurrencyTesting::transientRetryCount(pool());
  ConcurrencyTesting::injectTransientFailures(pool(), kRetryLimit + 1, SQLITE_PROTOCOL);
  bool ran = false;
  const Error error = pool().read([&](Database& db) {
    ran = true;
    return db.lastError();
  });
  EXPECT_TRUE(ran);
  EXPECT_TRUE(error.is(ResultCode::Protocol)) << error.code << " " << error.message;
  EXPECT_EQ(ConcurrencyTesting::transientRetryCount(pool()) - before, kRetryLimit);
  // The pool works afterwards, for reads and writes.
  EXPECT_EQ(count(), 0);
  EXPECT_TRUE(insert(1));
  EXPECT_EQ(count(), 1);

  ConcurrencyTesting::injectTransientFailures(pool(), kRetryLimit + 1, SQLITE_BUSY);
  Error writeError;
  EXPECT_FALSE(pool().write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }, &writeError));
  EXPECT_TRUE(writeError.is(ResultCode::Busy)) << writeError.code << " " << writeError.message;
  EXPECT_TRUE(insert(3));
  EXPECT_EQ(count(), 2);
}

// MARK: Checkpoints

TEST_F(PoolTest, EveryCheckpointModeSucceedsOnAnIdlePool) {
  for (CheckpointMode mode :
       {CheckpointMode::Passive, CheckpointMode::Full, CheckpointMode::Restart, CheckpointMode::Truncate}) {
    ASSERT_TRUE(insert(static_cast<int>(mode)));
    Error error{SQLITE_ERROR, SQLITE_ERROR, "stale", ""};
    EXPECT_TRUE(pool().checkpoint(mode, &error)) << static_cast<int>(mode) << ": " << error.message;
    EXPECT_FALSE(error.isError()) << error.message;
  }
  EXPECT_TRUE(pool().checkpoint());
  EXPECT_EQ(count(), 4);
}

TEST_F(PoolTest, TruncateLeavesAnEmptyWalFile) {
  for (int x = 0; x < 20; ++x) ASSERT_TRUE(insert(x));
  struct stat info{};
  ASSERT_EQ(::stat((path() + "-wal").c_str(), &info), 0);
  EXPECT_GT(info.st_size, 0);
  Error error;
  ASSERT_TRUE(pool().checkpoint(CheckpointMode::Truncate, &error)) << error.message;
  ASSERT_EQ(::stat((path() + "-wal").c_str(), &info), 0);
  EXPECT_EQ(info.st_size, 0);
  EXPECT_EQ(count(), 20);
  // A raw connection sees every row in the database file itself.
  pool_.reset();
  Database raw = Database::open(path());
  EXPECT_EQ(scalarInteger(raw, "SELECT count(*) FROM t"), 20);
}

// A reader holds a snapshot older than the last commit (held in its block by
// a latch): Full, Restart and Truncate cannot finish and fail with
// SQLITE_BUSY after the (short) busy timeout; Passive copies what it can.
TEST_F(PoolTest, CheckpointsThatMustWaitForAReaderFailWithBusy) {
  Configuration configuration;
  configuration.busyTimeoutMilliseconds = 100;
  ASSERT_NO_FATAL_FAILURE(open(configuration));
  ASSERT_TRUE(insert(1));
  Failures failures;
  Latch readerInside(1);
  Latch checkpointsDone(1);
  BoundedThread reader("the reader", [&] {
    pool().read([&](Database& db) {
      integerOrFail(db, "SELECT count(*) FROM t", failures, "reader");
      readerInside.countDown();
      if (!checkpointsDone.waitFor()) failures.add("reader: the checkpoints did not end");
      return 0;
    });
  });
  ASSERT_TRUE(readerInside.waitFor());
  EXPECT_TRUE(insert(2));  // the reader's snapshot is now older than the log
  for (CheckpointMode mode : {CheckpointMode::Full, CheckpointMode::Restart, CheckpointMode::Truncate}) {
    Error error;
    EXPECT_FALSE(pool().checkpoint(mode, &error)) << static_cast<int>(mode);
    EXPECT_TRUE(error.is(ResultCode::Busy)) << static_cast<int>(mode) << ": " << error.code << " " << error.message;
  }
  Error passive;
  EXPECT_TRUE(pool().checkpoint(CheckpointMode::Passive, &passive)) << passive.message;
  checkpointsDone.countDown();
  reader.join();
  EXPECT_EQ(failures.text(), "");
  // With the reader gone, they succeed.
  Error error;
  EXPECT_TRUE(pool().checkpoint(CheckpointMode::Truncate, &error)) << error.message;
  EXPECT_EQ(count(), 2);
}
