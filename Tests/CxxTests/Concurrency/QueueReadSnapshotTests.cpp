// DatabaseQueue::read reads one snapshot: the block runs in a read
// transaction (as a pool's reader does), so a commit of another connection
// or process never lands between two of its statements, an observation's
// fetch included; the transaction and `query_only` end with the block
// however it ends, and the block still cannot write.
#include <condition_variable>
#include <mutex>
#include <optional>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Error;
using sqlitebridge::JournalMode;
using sqlitebridge::ObservationHandle;
using sqlitebridge::ResultCode;
using namespace sqlitebridge_test;

namespace {

class QueueReadSnapshot : public ::testing::TestWithParam<JournalMode> {
 protected:
  void SetUp() override {
    path_ = dir_ / "snapshot.db";
    Configuration configuration;
    configuration.journalMode = GetParam();
    queue_.emplace(path_, configuration);
    ASSERT_TRUE(queue_->isOpen()) << queue_->openError().message;
    ASSERT_TRUE(queue_->write([](Database& db) {
      return db.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY); INSERT INTO items DEFAULT VALUES;");
    }));
  }
  DatabaseQueue& queue() { return *queue_; }
  std::int64_t count() {
    return queue().read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM items"); });
  }
  /// Another connection to the file, as another process would hold; it
  /// never waits for a lock (a busy one answers SQLITE_BUSY at once).
  Database other() {
    Configuration configuration;
    configuration.busyTimeoutMilliseconds = 0;
    return Database::open(path_, configuration);
  }

  TempDir dir_;
  std::string path_;
  std::optional<DatabaseQueue> queue_;
};

}  // namespace

TEST_P(QueueReadSnapshot, ACommitOfAnotherConnectionNeverLandsBetweenTwoStatementsOfARead) {
  Database writer = other();
  ASSERT_TRUE(writer.isOpen()) << writer.lastError().message;
  bool otherCommitted = false;
  const std::pair<std::int64_t, std::int64_t> seen = queue().read([&](Database& db) {
    const std::int64_t first = scalarInteger(db, "SELECT count(*) FROM items");
    // Between the block's two statements, another connection commits (in
    // WAL it can, the block keeps its snapshot; in a rollback journal the
    // block's read lock keeps it out until the block ends).
    otherCommitted = writer.execute("INSERT INTO items DEFAULT VALUES");
    return std::make_pair(first, scalarInteger(db, "SELECT count(*) FROM items"));
  });
  EXPECT_EQ(seen.first, 1);
  EXPECT_EQ(seen.second, 1) << "the block's second statement saw another snapshot";
  if (GetParam() == JournalMode::Wal) {
    EXPECT_TRUE(otherCommitted) << writer.lastError().message;
  } else {
    EXPECT_FALSE(otherCommitted) << "the block's read lock let a writer in";
    EXPECT_TRUE(writer.lastError().is(ResultCode::Busy)) << writer.lastError().message;
    EXPECT_TRUE(writer.execute("INSERT INTO items DEFAULT VALUES")) << "the lock ended with the block";
  }
  // The next block reads the database as it is then.
  EXPECT_EQ(count(), 2);
}

TEST_P(QueueReadSnapshot, AnObservationFetchOnAQueueReadsOneSnapshot) {
  Database writer = other();
  ASSERT_TRUE(writer.isOpen()) << writer.lastError().message;
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<std::int64_t, std::int64_t>> fetched;
  std::vector<std::int64_t> delivered;
  // A fetch still running when the test cancels is interrupted (the
  // observation drops it); any other failure is reported here.
  std::vector<std::string> errors;
  bool otherCommitted = false;
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      queue(),
      [&](Database& db, std::int64_t& value, Error* error) {
        std::int64_t first = 0;
        if (!fetchInteger(db, "SELECT count(*) FROM items", first, error)) return false;
        std::unique_lock<std::mutex> lock(mutex);
        // The first fetch is cut in two by another connection's commit.
        if (fetched.empty()) otherCommitted = writer.execute("INSERT INTO items DEFAULT VALUES");
        lock.unlock();
        if (!fetchInteger(db, "SELECT count(*) FROM items", value, error)) return false;
        lock.lock();
        fetched.emplace_back(first, value);
        changed.notify_all();
        return true;
      },
      [&](const std::int64_t& value) {
        std::lock_guard<std::mutex> lock(mutex);
        delivered.push_back(value);
        changed.notify_all();
      },
      [&](const Error& error) {
        std::lock_guard<std::mutex> lock(mutex);
        errors.push_back(error.message);
      });
  ASSERT_TRUE(handle.isActive());
  // A commit of the queue itself makes another fetch.
  ASSERT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO items DEFAULT VALUES"); }));
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, kThreadWaitLimit, [&] { return !fetched.empty(); }));
    const std::int64_t last = otherCommitted ? 3 : 2;
    EXPECT_EQ(otherCommitted, GetParam() == JournalMode::Wal) << writer.lastError().message;
    ASSERT_TRUE(changed.wait_for(lock, kThreadWaitLimit, [&] {
      return !delivered.empty() && delivered.back() == last;
    })) << "the observation never delivered the last count";
  }
  handle.cancel();
  std::lock_guard<std::mutex> lock(mutex);
  // The first fetch is the one the commit cut in two; later ones may still
  // have run (a fetch the queue's commit made before the first ran).
  ASSERT_FALSE(fetched.empty());
  for (const auto& [first, second] : fetched) EXPECT_EQ(first, second) << "a fetch read two snapshots";
  EXPECT_TRUE(errors.empty()) << "the observation reported: " << errors.front();
}

TEST_P(QueueReadSnapshot, TheReadTransactionEndsWithTheBlockHoweverItEnds) {
  // A block whose statement fails, one that throws, one that ends the
  // transaction itself: each time the next block starts afresh, and the
  // queue can write again.
  const Error failed = queue().read([](Database& db) {
    EXPECT_TRUE(db.isInTransaction()) << "the read runs in a transaction";
    EXPECT_FALSE(db.execute("SELECT nothing FROM nowhere"));
    EXPECT_TRUE(db.isInTransaction()) << "a failed statement does not end it";
    return db.lastError();
  });
  EXPECT_TRUE(failed.isError());
  EXPECT_FALSE(queue().writeWithoutTransaction([](Database& db) { return db.isInTransaction(); }));
  EXPECT_THROW(queue().read([](Database& db) -> int {
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM items"), 1);
    throw std::runtime_error("from a read");
  }),
               std::runtime_error);
  EXPECT_FALSE(queue().writeWithoutTransaction([](Database& db) { return db.isInTransaction(); }));
  queue().read([](Database& db) { return db.execute("COMMIT"); });
  EXPECT_FALSE(queue().writeWithoutTransaction([](Database& db) { return db.isInTransaction(); }));
  Error error;
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO items DEFAULT VALUES"); }, &error))
      << error.message;
  EXPECT_EQ(count(), 2);
  // Another connection can write once the blocks are over (no lock left).
  Database writer = other();
  EXPECT_TRUE(writer.execute("INSERT INTO items DEFAULT VALUES")) << writer.lastError().message;
  EXPECT_EQ(count(), 3);
}

TEST_P(QueueReadSnapshot, AReadStillCannotWriteNorBeginATransactionOfItsOwn) {
  const std::pair<Error, Error> errors = queue().read([](Database& db) {
    db.execute("INSERT INTO items DEFAULT VALUES");
    Error write = db.lastError();
    db.execute("BEGIN IMMEDIATE");
    return std::make_pair(write, db.lastError());
  });
  EXPECT_TRUE(errors.first.is(ResultCode::ReadOnly)) << errors.first.message;
  EXPECT_TRUE(errors.second.isError()) << "BEGIN inside the read's transaction";
  EXPECT_EQ(count(), 1);
}

INSTANTIATE_TEST_SUITE_P(JournalModes, QueueReadSnapshot, ::testing::Values(JournalMode::Wal, JournalMode::Delete),
                         [](const ::testing::TestParamInfo<JournalMode>& info) {
                           return info.param == JournalMode::Wal ? std::string("Wal") : std::string("Delete");
                         });
