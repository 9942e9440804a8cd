// The async jobs of DatabaseQueue and DatabasePool, as the Swift facade uses
// them (interop::ConcurrencyAccess): a job runs on one of the pool's threads
// with a usable lease (the block finishes it, the core releases it); a job
// cancelled before it is submitted gets a null lease and never touches the
// database; cancelling a job stops its long query with SQLITE_INTERRUPT and
// the connection works afterwards; 100 jobs submitted at once all complete.
// Every wait is bounded (ThreadSupport.hpp).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include <sqlitebridge/interop/Interop.hpp>
#include <sqlitebridge/interop/Testing.hpp>

#include "ConcurrencySupport.hpp"
#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::ConnectionLease;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Error;
using sqlitebridge::LeaseKind;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using sqlitebridge::interop::AsyncJobHandle;
using sqlitebridge::interop::ConcurrencyAccess;
using sqlitebridge::interop::ConcurrencyTesting;
using namespace sqlitebridge_test;

namespace {

/// What a job runs, and a latch it opens when it has completed (the core's
/// last use of the job's context, after the lease went back). Declare these
/// before the queue or pool: the pool's destructor may still call a job
/// that did not start (with a null lease).
struct Job {
  explicit Job(std::function<void(ConnectionLease*)> body) : body(std::move(body)) {}
  std::function<void(ConnectionLease*)> body;
  Latch ran{1};
  std::thread::id thread;
  bool gotLease = false;

  static void run(void* context, ConnectionLease* lease) {
    auto* job = static_cast<Job*>(context);
    job->thread = std::this_thread::get_id();
    job->gotLease = lease != nullptr;
    job->body(lease);
  }
  static void complete(void* context) { static_cast<Job*>(context)->ran.countDown(); }
  AsyncJobHandle make(LeaseKind kind) { return ConcurrencyAccess::makeJob(kind, &Job::run, &Job::complete, this); }
};

std::int64_t countRows(DatabasePool& pool) {
  return pool.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM t"); });
}
std::int64_t countRows(DatabaseQueue& queue) {
  return queue.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM t"); });
}

/// A block that inserts `x` and commits.
std::function<void(ConnectionLease*)> insertAndCommit(int x, Failures& failures) {
  return [x, &failures](ConnectionLease* lease) {
    if (lease == nullptr || lease->database == nullptr) {
      failures.add("job " + std::to_string(x) + ": no lease" + (lease ? ": " + lease->error.message : ""));
      return;
    }
    if (!lease->database->execute("INSERT INTO t VALUES (?)", {Value(x)})) {
      failures.add("job " + std::to_string(x) + ": " + lease->database->error());
    }
    if (!ConcurrencyAccess::finish(*lease, true))
      failures.add("job " + std::to_string(x) + ": " + lease->error.message);
  };
}

}  // namespace

// MARK: A job runs

TEST(ConcurrencyAsyncJobs, AJobRunsOnAPoolThreadWithAUsableLease) {
  TempDir dir;
  Failures failures;
  Job write(insertAndCommit(7, failures));
  std::int64_t seen = -1;
  bool readInTransaction = false;
  Job read([&](ConnectionLease* lease) {
    if (lease == nullptr || lease->database == nullptr) {
      failures.add("read: no lease");
      return;
    }
    readInTransaction = lease->database->isInTransaction();
    // The Swift facade's Database shares the lease's connection.
    Database shared = ConcurrencyAccess::share(*lease);
    seen = integerOrFail(shared, "SELECT sum(x) FROM t", failures, "read");
    ConcurrencyAccess::finish(*lease, false);
  });
  DatabasePool pool(dir / "jobs.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));

  const AsyncJobHandle writeJob = write.make(LeaseKind::Write);
  ASSERT_TRUE(writeJob.job);
  ASSERT_TRUE(ConcurrencyAccess::submitToPool(pool, writeJob));
  ASSERT_TRUE(write.ran.waitFor());
  EXPECT_TRUE(write.gotLease);
  EXPECT_NE(write.thread, std::this_thread::get_id());
  EXPECT_FALSE(ConcurrencyAccess::isCancelled(writeJob));

  const AsyncJobHandle readJob = read.make(LeaseKind::Read);
  ASSERT_TRUE(ConcurrencyAccess::submitToPool(pool, readJob));
  ASSERT_TRUE(read.ran.waitFor());
  EXPECT_NE(read.thread, std::this_thread::get_id());
  EXPECT_EQ(failures.text(), "");
  EXPECT_TRUE(readInTransaction);
  EXPECT_EQ(seen, 7);
  // The core released both leases: the writer and the reader are free.
  EXPECT_TRUE(pool.write([](Database& db) { return db.execute("INSERT INTO t VALUES (1)"); }));
  EXPECT_EQ(countRows(pool), 2);
}

TEST(ConcurrencyAsyncJobs, AJobRunsOnAQueueThreadWithAUsableLease) {
  TempDir dir;
  Failures failures;
  Job write(insertAndCommit(7, failures));
  DatabaseQueue queue(dir / "jobs.db");
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));
  ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, write.make(LeaseKind::Write)));
  ASSERT_TRUE(write.ran.waitFor());
  EXPECT_TRUE(write.gotLease);
  EXPECT_NE(write.thread, std::this_thread::get_id());
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(countRows(queue), 1);
}

// A block that does not call finish is rolled back when the core releases it.
TEST(ConcurrencyAsyncJobs, AWriteJobThatDoesNotFinishIsRolledBack) {
  TempDir dir;
  Failures failures;
  Job write([&](ConnectionLease* lease) {
    if (lease == nullptr || lease->database == nullptr) {
      failures.add("no lease");
      return;
    }
    if (!lease->database->execute("INSERT INTO t VALUES (1)")) failures.add(lease->database->error());
  });
  DatabaseQueue queue(dir / "jobs.db");
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));
  ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, write.make(LeaseKind::Write)));
  ASSERT_TRUE(write.ran.waitFor());
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(countRows(queue), 0);
}

// MARK: Cancellation

TEST(ConcurrencyAsyncJobs, AJobCancelledBeforeItIsSubmittedNeverTouchesTheDatabase) {
  TempDir dir;
  // One flag per job: the two run on different threads.
  bool poolTouched = false;
  bool queueTouched = false;
  Job pooled([&](ConnectionLease* lease) { poolTouched = lease != nullptr; });
  Job queued([&](ConnectionLease* lease) { queueTouched = lease != nullptr; });
  DatabasePool pool(dir / "pool.db");
  DatabaseQueue queue(dir / "queue.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));

  const AsyncJobHandle poolJob = pooled.make(LeaseKind::Write);
  const AsyncJobHandle queueJob = queued.make(LeaseKind::Write);
  ConcurrencyAccess::cancel(poolJob);
  ConcurrencyAccess::cancel(queueJob);
  EXPECT_TRUE(ConcurrencyAccess::isCancelled(poolJob));
  ASSERT_TRUE(ConcurrencyAccess::submitToPool(pool, poolJob));
  ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, queueJob));
  ASSERT_TRUE(pooled.ran.waitFor());
  ASSERT_TRUE(queued.ran.waitFor());
  EXPECT_FALSE(pooled.gotLease);
  EXPECT_FALSE(queued.gotLease);
  EXPECT_FALSE(poolTouched);
  EXPECT_FALSE(queueTouched);
  EXPECT_EQ(countRows(pool), 0);
  EXPECT_EQ(countRows(queue), 0);
}

// Cancelled while its long query runs (the block says when it starts it):
// the query fails with SQLITE_INTERRUPT, the block's write is rolled back,
// and the connection works afterwards.
// A job waiting for a connection another block holds (the writer, or the
// only reader) ends as soon as it is cancelled, without the connection and
// without touching the database, while the holder still holds it.
TEST(ConcurrencyAsyncJobs, CancellingAJobEndsItsWaitForAConnection) {
  for (const LeaseKind kind : {LeaseKind::Write, LeaseKind::Read}) {
    SCOPED_TRACE(kind == LeaseKind::Write ? "waiting for the writer" : "waiting for the only reader");
    TempDir dir;
    bool touched = false;
    Job waiting([&](ConnectionLease* lease) { touched = lease != nullptr; });
    Configuration configuration;
    configuration.maximumReaderCount = 1;
    DatabasePool pool(dir / "pool.db", configuration);
    ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
    Latch holding(1);
    Latch release(1);
    BoundedThread holder("the holder", [&] {
      auto hold = [&](Database&) {
        holding.countDown();
        EXPECT_TRUE(release.waitFor()) << "the test did not release the connection";
        return true;
      };
      if (kind == LeaseKind::Write) {
        pool.write(hold);
      } else {
        pool.read(hold);
      }
    });
    ASSERT_TRUE(holding.waitFor());
    const AsyncJobHandle job = waiting.make(kind);
    ASSERT_TRUE(ConcurrencyAccess::submitToPool(pool, job));
    // Cancel only once the job waits for the connection (a cancel before it
    // starts is another test's).
    const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
    while (ConcurrencyTesting::waitingCount(pool) == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    const bool waited = ConcurrencyTesting::waitingCount(pool) == 1;
    EXPECT_TRUE(waited) << "the job never waited for the connection";
    ConcurrencyAccess::cancel(job);
    // Were the job to wait for the connection, this would time out.
    const bool completedWhileHeld = waiting.ran.waitFor();
    release.countDown();
    holder.join();
    EXPECT_TRUE(completedWhileHeld) << "the cancelled job waited for the holder";
    EXPECT_EQ(ConcurrencyTesting::waitingCount(pool), 0);
    EXPECT_FALSE(waiting.gotLease);
    EXPECT_FALSE(touched);
  }
}

TEST(ConcurrencyAsyncJobs, CancellingAJobInterruptsItsLongQuery) {
  TempDir dir;
  Failures failures;
  struct Outcome {
    Latch started{1};
    Error error;
    bool queryOk = true;
    bool laterOk = true;
    Error laterError;
  };
  Outcome onPool;
  Outcome onQueue;
  auto longBlock = [&failures](Outcome& outcome, bool write) {
    return [&failures, &outcome, write](ConnectionLease* lease) {
      if (lease == nullptr || lease->database == nullptr) {
        failures.add("no lease");
        outcome.started.countDown();
        return;
      }
      Database& db = *lease->database;
      if (write && !db.execute("INSERT INTO t VALUES (1)")) failures.add(db.error());
      outcome.started.countDown();
      Row row;
      outcome.queryOk = db.execute(kLongQuery, row);
      outcome.error = db.lastError();
      // Every later statement of the block fails too, however short.
      outcome.laterOk = db.execute("SELECT 1");
      outcome.laterError = db.lastError();
      // Cancelled: roll back, as the Swift facade does.
      ConcurrencyAccess::finish(*lease, outcome.queryOk);
    };
  };
  Job pooled(longBlock(onPool, false));
  Job queued(longBlock(onQueue, true));
  DatabasePool pool(dir / "pool.db");
  DatabaseQueue queue(dir / "queue.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));

  const AsyncJobHandle poolJob = pooled.make(LeaseKind::Read);
  const AsyncJobHandle queueJob = queued.make(LeaseKind::Write);
  ASSERT_TRUE(ConcurrencyAccess::submitToPool(pool, poolJob));
  ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, queueJob));
  // One cancel is enough, even one that lands before the query starts: the
  // core's progress handler checks the job's flag while a statement runs.
  ASSERT_TRUE(onPool.started.waitFor());
  ConcurrencyAccess::cancel(poolJob);
  ASSERT_TRUE(onQueue.started.waitFor());
  ConcurrencyAccess::cancel(queueJob);
  ASSERT_TRUE(pooled.ran.waitFor());
  ASSERT_TRUE(queued.ran.waitFor());
  EXPECT_EQ(failures.text(), "");
  EXPECT_FALSE(onPool.queryOk);
  EXPECT_TRUE(onPool.error.is(ResultCode::Interrupt)) << onPool.error.code << " " << onPool.error.message;
  EXPECT_FALSE(onQueue.queryOk);
  EXPECT_TRUE(onQueue.error.is(ResultCode::Interrupt)) << onQueue.error.code << " " << onQueue.error.message;

  EXPECT_FALSE(onPool.laterOk);
  EXPECT_TRUE(onPool.laterError.is(ResultCode::Interrupt)) << onPool.laterError.message;
  EXPECT_FALSE(onQueue.laterOk);
  EXPECT_TRUE(onQueue.laterError.is(ResultCode::Interrupt)) << onQueue.laterError.message;
  EXPECT_EQ(countRows(queue), 0) << "the cancelled write was rolled back";
  EXPECT_TRUE(queue.write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }));
  EXPECT_EQ(countRows(queue), 1);
  EXPECT_EQ(countRows(pool), 0);
  EXPECT_TRUE(pool.write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }));
  EXPECT_EQ(countRows(pool), 1);
  // A later job on the same connections is not cancelled.
  Job after(insertAndCommit(3, failures));
  ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, after.make(LeaseKind::Write)));
  ASSERT_TRUE(after.ran.waitFor());
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(countRows(queue), 2);
}

// A cancel that lands between two statements of a job's block (where
// sqlite3_interrupt alone would be forgotten) stops the next one, however
// short, and the rollback the block then asks for still happens.
TEST(ConcurrencyAsyncJobs, ACancelBetweenTwoShortStatementsStopsTheNextOne) {
  TempDir dir;
  Failures failures;
  Latch inserted(1);
  Latch cancelled(1);
  bool nextOk = true;
  Error nextError;
  Job write([&](ConnectionLease* lease) {
    if (lease == nullptr || lease->database == nullptr) {
      failures.add("no lease");
      inserted.countDown();
      return;
    }
    Database& db = *lease->database;
    if (!db.execute("INSERT INTO t VALUES (1)")) failures.add(db.error());
    inserted.countDown();
    if (!cancelled.waitFor()) failures.add("the job was never cancelled");
    nextOk = db.execute("INSERT INTO t VALUES (2)");
    nextError = db.lastError();
    if (!ConcurrencyAccess::finish(*lease, false)) failures.add("rollback: " + lease->error.message);
  });
  DatabaseQueue queue(dir / "queue.db");
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));
  const AsyncJobHandle job = write.make(LeaseKind::Write);
  ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, job));
  ASSERT_TRUE(inserted.waitFor());
  ConcurrencyAccess::cancel(job);
  cancelled.countDown();
  ASSERT_TRUE(write.ran.waitFor());
  EXPECT_EQ(failures.text(), "");
  EXPECT_FALSE(nextOk);
  EXPECT_TRUE(nextError.is(ResultCode::Interrupt)) << nextError.code << " " << nextError.message;
  EXPECT_EQ(countRows(queue), 0);
  EXPECT_TRUE(queue.write([](Database& db) { return db.execute("INSERT INTO t VALUES (3)"); }));
  EXPECT_EQ(countRows(queue), 1);
}

// MARK: Many jobs

// 100 jobs submitted at once (half writes, half reads) to a pool, and 100 to
// a queue: every one runs once, with a lease, and every write is there.
TEST(ConcurrencyAsyncJobs, AHundredJobsSubmittedAtOnceAllComplete) {
  constexpr int kJobs = 100;
  TempDir dir;
  Failures failures;
  std::atomic<int> runs{0};
  std::mutex threadsMutex;
  std::set<std::thread::id> readThreads;
  std::vector<std::unique_ptr<Job>> poolJobs;
  std::vector<std::unique_ptr<Job>> queueJobs;
  for (int index = 0; index < kJobs; ++index) {
    for (auto* jobs : {&poolJobs, &queueJobs}) {
      if (index % 2 == 0) {
        auto insert = insertAndCommit(index, failures);
        jobs->push_back(std::make_unique<Job>([&runs, insert](ConnectionLease* lease) {
          runs.fetch_add(1);
          insert(lease);
        }));
      } else {
        jobs->push_back(std::make_unique<Job>([&, index](ConnectionLease* lease) {
          runs.fetch_add(1);
          if (lease == nullptr || lease->database == nullptr) {
            failures.add("read " + std::to_string(index) + ": no lease");
            return;
          }
          {
            std::lock_guard<std::mutex> lock(threadsMutex);
            readThreads.insert(std::this_thread::get_id());
          }
          const std::int64_t seen = integerOrFail(*lease->database, "SELECT count(*) FROM t", failures, "read");
          if (seen < 0 || seen > kJobs / 2) failures.add("read " + std::to_string(index) + ": " + std::to_string(seen));
          ConcurrencyAccess::finish(*lease, false);
        }));
      }
    }
  }
  DatabasePool pool(dir / "pool.db");
  DatabaseQueue queue(dir / "queue.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }));

  for (int index = 0; index < kJobs; ++index) {
    const LeaseKind kind = index % 2 == 0 ? LeaseKind::Write : LeaseKind::Read;
    ASSERT_TRUE(ConcurrencyAccess::submitToPool(pool, poolJobs[index]->make(kind)));
    ASSERT_TRUE(ConcurrencyAccess::submitToQueue(queue, queueJobs[index]->make(kind)));
  }
  for (int index = 0; index < kJobs; ++index) {
    ASSERT_TRUE(poolJobs[index]->ran.waitFor()) << "pool job " << index;
    ASSERT_TRUE(queueJobs[index]->ran.waitFor()) << "queue job " << index;
    EXPECT_TRUE(poolJobs[index]->gotLease);
    EXPECT_TRUE(queueJobs[index]->gotLease);
  }
  EXPECT_EQ(failures.text(), "");
  EXPECT_EQ(runs.load(), 2 * kJobs);
  EXPECT_EQ(countRows(pool), kJobs / 2);
  EXPECT_EQ(countRows(queue), kJobs / 2);
  std::int64_t expectedSum = 0;
  for (int index = 0; index < kJobs; index += 2) expectedSum += index;
  EXPECT_EQ(pool.read([](Database& db) { return scalarInteger(db, "SELECT sum(x) FROM t"); }), expectedSum);
  EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "SELECT sum(x) FROM t"); }), expectedSum);
  EXPECT_FALSE(readThreads.count(std::this_thread::get_id()));
}
