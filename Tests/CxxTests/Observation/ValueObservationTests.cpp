// observeValue and observeRegion on a DatabasePool and a DatabaseQueue: the
// initial value first, values in commit order, the last value equal to a
// fresh fetch, no fetch for a commit outside the region, fetches on readers
// that never block the writer, removeDuplicates, errors that end the
// observation, cancellation (also racing commits), region observation once
// per commit on the writer, regions recorded per fetch, commits of another
// process with and without the external-change interval, a stress run, and
// on a pool the fetch after a commit reading that commit's state (through a
// snapshot taken on the writer where the engine has the snapshot API, with
// a fresh read when a checkpoint went past it) while the writer is held.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include <sqlitebridge/interop/Testing.hpp>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabasePool;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::DatabaseRegion;
using sqlitebridge::Error;
using sqlitebridge::ObservationHandle;
using sqlitebridge::Row;
using namespace sqlitebridge_test;

namespace {

// The values an observation delivered, waited for with a bound.
class Values {
 public:
  void add(std::int64_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    values_.push_back(value);
    changed_.notify_all();
  }
  void fail(const Error& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    errors_.push_back(error.message);
    changed_.notify_all();
  }
  /// Waits until the last value is `value`; false when the limit ran out.
  bool waitForLast(std::int64_t value) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kThreadWaitLimit, [&] { return !values_.empty() && values_.back() == value; });
  }
  bool waitForCount(std::size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kThreadWaitLimit, [&] { return values_.size() >= count; });
  }
  bool waitForError() {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kThreadWaitLimit, [&] { return !errors_.empty(); });
  }
  std::vector<std::int64_t> all() {
    std::lock_guard<std::mutex> lock(mutex_);
    return values_;
  }
  std::vector<std::string> errors() {
    std::lock_guard<std::mutex> lock(mutex_);
    return errors_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::int64_t> values_;
  std::vector<std::string> errors_;
};

std::int64_t scalar(Database& db, const std::string& sql) {
  Row row;
  if (!db.execute(sql, row) || row.empty()) return -1;
  return row.value(0).asInteger();
}

// A fetch of `sql`'s single integer, counting its runs.
std::function<bool(Database&, std::int64_t&, Error*)> counting(const std::string& sql, std::atomic<int>& fetches) {
  return [sql, &fetches](Database& db, std::int64_t& value, Error* error) {
    ++fetches;
    return fetchInteger(db, sql, value, error);
  };
}

const char* kSchema =
    "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);"
    "CREATE TABLE other(x);"
    "CREATE TABLE keyed(k TEXT PRIMARY KEY) WITHOUT ROWID;"
    "CREATE TABLE flags(on_ INTEGER);"
    "CREATE VIEW item_names AS SELECT name FROM items;";

template <typename Store>
class Observations : public ::testing::Test {
 protected:
  void SetUp() override {
    Database setup = Database::open(path_);
    ASSERT_TRUE(setup.executeScript(kSchema)) << setup.error();
  }
  bool write(const std::string& sql) {
    Error error;
    const bool ok = store_.write([&](Database& db) { return db.execute(sql); }, &error);
    EXPECT_TRUE(ok) << error.message << " in " << sql;
    return ok;
  }
  ObservationHandle observeCount(const std::string& sql, Values& values, std::atomic<int>& fetches,
                                 sqlitebridge::ObservationOptions options = {}) {
    return sqlitebridge::observeValue<std::int64_t>(
        store_, counting(sql, fetches), [&values](const std::int64_t& value) { values.add(value); },
        [&values](const Error& error) { values.fail(error); }, options);
  }

  TempDir dir_;
  std::string path_ = dir_ / "observed.db";
  Store store_{path_};
};

using Stores = ::testing::Types<DatabasePool, DatabaseQueue>;
TYPED_TEST_SUITE(Observations, Stores);

}  // namespace

TYPED_TEST(Observations, TheInitialValueComesFirstThenOneValuePerCommitInOrder) {
  Values values;
  std::atomic<int> fetches{0};
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ObservationHandle handle = this->observeCount("SELECT count(*) FROM items", values, fetches);
  ASSERT_TRUE(handle.isActive());
  ASSERT_TRUE(values.waitForCount(1));
  EXPECT_EQ(values.all().front(), 1);
  for (int i = 2; i <= 5; ++i) {
    ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('x')"));
    ASSERT_TRUE(values.waitForLast(i)) << "value " << i;
  }
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
}

TYPED_TEST(Observations, ACommitOutsideTheRegionCausesNoFetch) {
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = this->observeCount("SELECT count(*) FROM items", values, fetches);
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_EQ(fetches.load(), 1);
  ASSERT_TRUE(this->write("INSERT INTO other VALUES (1)"));
  ASSERT_TRUE(this->write("INSERT INTO keyed VALUES ('k')"));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(values.waitForLast(1));
  // Had an unrelated commit fetched, the last one would have been a third.
  EXPECT_EQ(fetches.load(), 2);
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 1}));
}

TYPED_TEST(Observations, TheCoresOwnLookupsWhilePreparingAFetchAreNotRead) {
  Values values;
  std::atomic<int> fetches{0};
  // The first fetch prepares its statement: the core then asks SQLite
  // whether `id` is the rowid alias, which the fetch itself does not read.
  ObservationHandle handle = this->observeCount("SELECT ifnull(max(id), 0) FROM items", values, fetches);
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_EQ(fetches.load(), 1);
  ASSERT_TRUE(this->write("INSERT INTO other VALUES (1)"));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(values.waitForLast(1));
  EXPECT_EQ(fetches.load(), 2) << "the commit to `other` fetched nothing";
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 1}));
}

TYPED_TEST(Observations, ColumnsOutsideTheRegionCauseNoFetch) {
  Values values;
  std::atomic<int> fetches{0};
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ObservationHandle handle = this->observeCount("SELECT length(group_concat(name)) FROM item_names", values, fetches);
  ASSERT_TRUE(values.waitForLast(1));
  ASSERT_TRUE(this->write("UPDATE items SET id = id"));  // the rowid alias: a change of every column
  ASSERT_TRUE(this->write("UPDATE items SET name = 'abc'"));
  ASSERT_TRUE(values.waitForLast(3));
}

TYPED_TEST(Observations, ChangesTheUpdateHookDoesNotSeeAreObserved) {
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = this->observeCount("SELECT count(*) FROM keyed", values, fetches);
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(this->write("INSERT INTO keyed VALUES ('a')"));
  ASSERT_TRUE(values.waitForLast(1));
  ASSERT_TRUE(this->write("DELETE FROM keyed"));
  ASSERT_TRUE(values.waitForLast(0));
  Values items;
  std::atomic<int> itemFetches{0};
  ObservationHandle second = this->observeCount("SELECT count(*) FROM items", items, itemFetches);
  ASSERT_TRUE(items.waitForLast(0));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(items.waitForLast(1));
  ASSERT_TRUE(this->write("DELETE FROM items"));  // truncation turned off while observed
  ASSERT_TRUE(items.waitForLast(0));
}

TYPED_TEST(Observations, ARegionThatDependsOnTheDataIsRecordedPerFetch) {
  Values values;
  std::atomic<int> fetches{0};
  auto fetch = [&](Database& db, std::int64_t& value, Error*) {
    ++fetches;
    // Reads `other` only once a flag is set.
    value = scalar(db, "SELECT count(*) FROM flags") > 0 ? 100 + scalar(db, "SELECT count(*) FROM other") : 0;
    return true;
  };
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      this->store_, fetch, [&](const std::int64_t& value) { values.add(value); },
      [&](const Error& error) { values.fail(error); });
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(this->write("INSERT INTO other VALUES (1)"));  // not read yet: no fetch
  ASSERT_TRUE(this->write("INSERT INTO flags VALUES (1)"));
  ASSERT_TRUE(values.waitForLast(101));
  ASSERT_TRUE(this->write("INSERT INTO other VALUES (2)"));  // read now
  ASSERT_TRUE(values.waitForLast(102));
  EXPECT_EQ(fetches.load(), 3);
}

TYPED_TEST(Observations, RemoveDuplicatesDropsAValueEqualToThePreviousOne) {
  Values values;
  std::atomic<int> fetches{0};
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  sqlitebridge::ObservationOptions options;
  options.removeDuplicates = true;
  ObservationHandle handle = this->observeCount("SELECT count(*) FROM items", values, fetches, options);
  ASSERT_TRUE(values.waitForLast(1));
  ASSERT_TRUE(this->write("UPDATE items SET name = 'b'"));  // fetched again, same count
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('c')"));
  ASSERT_TRUE(values.waitForLast(2));
  EXPECT_GE(fetches.load(), 2);
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{1, 2}));
}

TYPED_TEST(Observations, AFailedFetchIsDeliveredAndEndsTheObservation) {
  Values values;
  std::atomic<int> fetches{0};
  auto fetch = [&](Database& db, std::int64_t& value, Error* error) {
    if (++fetches == 2) {
      *error = Error{1, 1, "the fetch gave up", ""};
      return false;
    }
    value = scalar(db, "SELECT count(*) FROM items");
    return true;
  };
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      this->store_, fetch, [&](const std::int64_t& value) { values.add(value); },
      [&](const Error& error) { values.fail(error); });
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(values.waitForError());
  EXPECT_EQ(values.errors(), (std::vector<std::string>{"the fetch gave up"}));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('b')"));
  EXPECT_FALSE(handle.isActive());
  EXPECT_EQ(fetches.load(), 2);
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0}));
}

TYPED_TEST(Observations, AfterCancelReturnsNoCallbackRuns) {
  for (int round = 0; round < 500; ++round) {
    std::atomic<bool> cancelled{false};
    std::atomic<bool> lateCall{false};
    std::atomic<int> fetches{0};
    Latch started(1);
    ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
        this->store_, counting("SELECT count(*) FROM items", fetches),
        [&](const std::int64_t&) {
          if (cancelled.load()) lateCall = true;
          started.countDown();
        },
        [&](const Error&) {});
    ASSERT_TRUE(started.waitFor());
    BoundedThread writer("writer", [&] { this->write("INSERT INTO items(name) VALUES ('r')"); });
    handle.cancel();
    cancelled = true;
    writer.join();
    EXPECT_FALSE(handle.isActive());
    ASSERT_FALSE(lateCall.load()) << "round " << round;
  }
}

TYPED_TEST(Observations, CancelFromInsideTheCallbackIsTheLastCallback) {
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle;
  std::mutex handleMutex;
  std::atomic<int> calls{0};
  // The second write waits for the cancel, not only for the value the
  // callback delivers before it cancels.
  Latch cancelled(1);
  {
    std::lock_guard<std::mutex> lock(handleMutex);
    handle = sqlitebridge::observeValue<std::int64_t>(
        this->store_, counting("SELECT count(*) FROM items", fetches),
        [&](const std::int64_t& value) {
          values.add(value);
          if (++calls == 2) {
            std::lock_guard<std::mutex> inner(handleMutex);
            handle.cancel();
            cancelled.countDown();
          }
        },
        [&](const Error&) {});
  }
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(values.waitForLast(1));
  ASSERT_TRUE(cancelled.waitFor()) << "the second callback did not cancel";
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('b')"));
  std::lock_guard<std::mutex> lock(handleMutex);
  EXPECT_FALSE(handle.isActive());
  EXPECT_EQ(calls.load(), 2);
}

TYPED_TEST(Observations, RegionObservationIsCalledOnTheWriterOncePerCommit) {
  std::vector<std::int64_t> seen;  // written on the writer only, read after
  std::atomic<int> calls{0};
  Error startError;
  ObservationHandle handle = sqlitebridge::observeRegion(
      this->store_, DatabaseRegion::table("items"),
      [&](Database& db) {
        EXPECT_FALSE(db.isInTransaction());
        seen.push_back(scalar(db, "SELECT count(*) FROM items"));
        ++calls;
      },
      [&](const Error& error) { startError = error; });
  ASSERT_TRUE(handle.isActive()) << startError.message;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(this->write("INSERT INTO other VALUES (1)"));
  // Called before write() returned: no wait needed.
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 2, 3}));
  handle.cancel();
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  EXPECT_EQ(calls.load(), 3);
}

TYPED_TEST(Observations, AWriteInTheRegionCallbackIsACommitOfItsOwnToldAfterTheCallback) {
  std::vector<std::int64_t> seen;  // written on the writer only, read after
  std::atomic<int> depth{0};
  std::atomic<bool> nested{false};
  Error startError;
  ObservationHandle handle = sqlitebridge::observeRegion(
      this->store_, DatabaseRegion::table("items"),
      [&](Database& db) {
        if (++depth > 1) nested = true;
        seen.push_back(scalar(db, "SELECT count(*) FROM items"));
        // The first call writes once more: that commit is told too, after
        // this call returns (not from inside it, which used to deadlock).
        if (seen.size() == 1) EXPECT_TRUE(db.execute("INSERT INTO items(name) VALUES ('from the callback')"));
        --depth;
      },
      [&](const Error& error) { startError = error; });
  ASSERT_TRUE(handle.isActive()) << startError.message;
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 2}));
  EXPECT_FALSE(nested.load());
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('b')"));
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 2, 3}));
}

TYPED_TEST(Observations, StartingFromInsideABlockFailsWithMisuse) {
  Error error;
  bool failed = false;
  this->store_.writeWithoutTransaction([&](Database&) {
    ObservationHandle handle = sqlitebridge::observeRegion(
        this->store_, DatabaseRegion::table("items"), [](Database&) {},
        [&](const Error& reason) {
          failed = true;
          error = reason;
        });
    EXPECT_FALSE(handle.isActive());
    return true;
  });
  EXPECT_TRUE(failed);
  EXPECT_EQ(error.code, SQLITE_MISUSE);
}

TYPED_TEST(Observations, CommitsOfAnotherProcessAreSeenWithTheExternalInterval) {
  Configuration configuration;
  configuration.externalChangeCheckMilliseconds = 20;
  TypeParam watching(this->path_, configuration);
  Values seen;
  Values unseen;
  std::atomic<int> seenFetches{0};
  std::atomic<int> unseenFetches{0};
  ObservationHandle withInterval = sqlitebridge::observeValue<std::int64_t>(
      watching, counting("SELECT count(*) FROM items", seenFetches),
      [&](const std::int64_t& value) { seen.add(value); }, [&](const Error& error) { seen.fail(error); });
  ObservationHandle without = this->observeCount("SELECT count(*) FROM items", unseen, unseenFetches);
  ASSERT_TRUE(seen.waitForLast(0));
  ASSERT_TRUE(unseen.waitForLast(0));
  // Another process: Python's sqlite3 module, a SQLite of its own.
  const std::string command =
      "python3 -c \"import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=5); "
      "c.execute('INSERT INTO items(name) VALUES (1)'); c.commit()\" '" +
      this->path_ + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  ASSERT_TRUE(seen.waitForLast(1)) << "the external commit was seen";
  EXPECT_EQ(unseenFetches.load(), 1) << "without the interval, nothing was fetched again";
  EXPECT_EQ(unseen.all(), (std::vector<std::int64_t>{0}));
}

TEST(PoolObservation, ASlowFetchNeverBlocksTheWriter) {
  TempDir dir;
  DatabasePool pool(dir / "slow.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY)"); }));
  Latch fetchStarted(1);
  Latch releaseFetch(1);
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      pool,
      [&](Database& db, std::int64_t& value, Error*) {
        value = scalar(db, "SELECT count(*) FROM items");
        if (++fetches == 2) {
          fetchStarted.countDown();
          EXPECT_TRUE(releaseFetch.waitFor());
        }
        return true;
      },
      [&](const std::int64_t& value) { values.add(value); }, [](const Error&) {});
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("INSERT INTO items DEFAULT VALUES"); }));
  ASSERT_TRUE(fetchStarted.waitFor());
  // The second fetch holds its reader: writes still go through.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(pool.write([](Database& db) { return db.execute("INSERT INTO items DEFAULT VALUES"); }));
  }
  releaseFetch.countDown();
  // The fetch that was blocked read 1; the commits during it are fetched after.
  ASSERT_TRUE(values.waitForLast(4));
  const std::vector<std::int64_t> all = values.all();
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
}

TEST(PoolObservation, EightWritersAgainstTwentyObservationsEndWithFreshValues) {
  TempDir dir;
  Configuration configuration;
  configuration.synchronous = sqlitebridge::Synchronous::Off;
  DatabasePool pool(dir / "stress.db", configuration);
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) {
    return db.executeScript(
        "CREATE TABLE counters(writer INTEGER PRIMARY KEY, n INTEGER);"
        "WITH RECURSIVE w(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM w WHERE i < 7) "
        "INSERT INTO counters SELECT i, 0 FROM w;");
  }));
  constexpr int kWriters = 8;
  constexpr int kCommits = 1000;
  constexpr int kObservations = 20;
  std::vector<Values> values(kObservations);
  std::vector<std::atomic<int>> fetches(kObservations);
  std::vector<ObservationHandle> handles;
  for (int i = 0; i < kObservations; ++i) {
    // Half watch one writer's counter, half the sum.
    const std::string sql = i % 2 == 0 ? "SELECT n FROM counters WHERE writer = " + std::to_string(i % kWriters)
                                       : "SELECT sum(n) FROM counters";
    handles.push_back(sqlitebridge::observeValue<std::int64_t>(
        pool, counting(sql, fetches[static_cast<std::size_t>(i)]),
        [&values, i](const std::int64_t& value) { values[static_cast<std::size_t>(i)].add(value); },
        [&values, i](const Error& error) { values[static_cast<std::size_t>(i)].fail(error); }));
  }
  runThreads(kWriters, [&](int writer) {
    for (int commit = 0; commit < kCommits; ++commit) {
      pool.write([&](Database& db) {
        return db.execute("UPDATE counters SET n = n + 1 WHERE writer = ?", {sqlitebridge::Value(writer)});
      });
    }
  });
  for (int i = 0; i < kObservations; ++i) {
    const std::int64_t expected = i % 2 == 0 ? kCommits : kWriters * kCommits;
    ASSERT_TRUE(values[static_cast<std::size_t>(i)].waitForLast(expected)) << "observation " << i;
    const std::vector<std::int64_t> all = values[static_cast<std::size_t>(i)].all();
    EXPECT_TRUE(std::is_sorted(all.begin(), all.end())) << "observation " << i << " went back in time";
    EXPECT_TRUE(values[static_cast<std::size_t>(i)].errors().empty());
  }
}

// MARK: Fetches after a commit read that commit (snapshots)

namespace {

using sqlitebridge::interop::ConcurrencyTesting;

// A pool with one reader, held by `hold` (on a thread of its own) without a
// read transaction, so that fetches wait for it and checkpoints pass it.
class HeldReader {
 public:
  explicit HeldReader(DatabasePool& pool)
      : thread_("held reader", [this, &pool] {
          const bool read = pool.read([this](Database& db) {
            // The block's read transaction ends: it pins nothing.
            const bool ended = db.execute("COMMIT");
            held_.countDown();
            return ended && release_.waitFor();
          });
          if (!read) failures_.add("the held read failed");
        }) {}
  bool waitUntilHeld() { return held_.waitFor(); }
  std::string release() {
    release_.countDown();
    thread_.join();
    return failures_.text();
  }

 private:
  Latch held_{1};
  Latch release_{1};
  Failures failures_;
  BoundedThread thread_;
};

Configuration oneReader() {
  Configuration configuration;
  configuration.maximumReaderCount = 1;
  return configuration;
}

bool insertItem(DatabasePool& pool) {
  return pool.write([](Database& db) { return db.execute("INSERT INTO items DEFAULT VALUES"); });
}

}  // namespace

TEST(PoolObservation, TheFetchAfterACommitDeliversItWhileTheWriterIsHeld) {
  TempDir dir;
  DatabasePool pool(dir / "held.db");
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY)"); }));
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      pool, counting("SELECT count(*) FROM items", fetches), [&](const std::int64_t& value) { values.add(value); },
      [&](const Error& error) { values.fail(error); });
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(insertItem(pool));
  // Right after the commit, the writer is taken again and held (with a
  // change of its own not committed yet) until the commit's value came.
  bool deliveredWhileHeld = false;
  ASSERT_TRUE(pool.write([&](Database& db) {
    if (!db.execute("INSERT INTO items DEFAULT VALUES")) return false;
    deliveredWhileHeld = values.waitForLast(1);
    return true;
  }));
  EXPECT_TRUE(deliveredWhileHeld) << "the fetch after the first commit waited for the writer";
  ASSERT_TRUE(values.waitForLast(2));
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_TRUE(values.errors().empty());
}

TEST(PoolObservation, AFetchDelayedPastALaterCommitReadsTheCommitItFollows) {
  TempDir dir;
  DatabasePool pool(dir / "delayed.db", oneReader());
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY)"); }));
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      pool, counting("SELECT count(*) FROM items", fetches), [&](const std::int64_t& value) { values.add(value); },
      [&](const Error& error) { values.fail(error); });
  ASSERT_TRUE(values.waitForLast(0));
  // The first value is delivered before its fetch is done: a commit before
  // that would be folded into it rather than start a fetch of its own.
  ASSERT_TRUE(ConcurrencyTesting::waitUntilObservationsIdle(pool, std::chrono::milliseconds(kThreadWaitLimit).count()));
  const std::uint64_t opened = ConcurrencyTesting::observationSnapshotFetchCount(pool);
  HeldReader reader(pool);
  ASSERT_TRUE(reader.waitUntilHeld());
  // The fetch the first commit schedules waits for the reader until the
  // second commit is in.
  ASSERT_TRUE(insertItem(pool));
  ASSERT_TRUE(insertItem(pool));
  EXPECT_EQ(reader.release(), "");
  ASSERT_TRUE(values.waitForCount(3));
  EXPECT_TRUE(values.errors().empty());
  if (sqlitebridge::snapshotsAvailable()) {
    // Each fetch read the state its commit left: 1, then 2.
    EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 1, 2}));
    EXPECT_EQ(ConcurrencyTesting::observationSnapshotFetchCount(pool) - opened, 2u);
    EXPECT_EQ(ConcurrencyTesting::observationSnapshotFallbackCount(pool), 0u);
  } else {
    // Without the snapshot API, the delayed fetch reads the database as it
    // is then: it skips to 2 (and the fetch its second commit asked for
    // reads 2 again).
    EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 2, 2}));
    EXPECT_EQ(ConcurrencyTesting::observationSnapshotFetchCount(pool), 0u);
  }
}

TEST(PoolObservation, ACheckpointPastTheCommitsSnapshotFallsBackToAFreshReadOfTheRightValue) {
  TempDir dir;
  DatabasePool pool(dir / "checkpointed.db", oneReader());
  ASSERT_TRUE(pool.isOpen()) << pool.openError().message;
  ASSERT_TRUE(pool.write([](Database& db) {
    return db.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY); CREATE TABLE other(x);");
  }));
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      pool, counting("SELECT count(*) FROM items", fetches), [&](const std::int64_t& value) { values.add(value); },
      [&](const Error& error) { values.fail(error); });
  ASSERT_TRUE(values.waitForLast(0));
  // The first value is delivered before its fetch is done: a commit before
  // that would be folded into it rather than start a fetch of its own.
  ASSERT_TRUE(ConcurrencyTesting::waitUntilObservationsIdle(pool, std::chrono::milliseconds(kThreadWaitLimit).count()));
  HeldReader reader(pool);
  ASSERT_TRUE(reader.waitUntilHeld());
  ASSERT_TRUE(insertItem(pool));
  // Between the commit and its fetch: every frame of the log copied into
  // the database (no reader holds one back), then a write elsewhere, which
  // starts the log over: the commit's snapshot cannot be opened any more.
  Row checkpoint;
  ASSERT_TRUE(pool.writeWithoutTransaction(
      [&](Database& db) { return db.execute("PRAGMA wal_checkpoint(PASSIVE)", checkpoint); }));
  ASSERT_EQ(checkpoint.size(), 3u);
  EXPECT_EQ(checkpoint.value(0).asInteger(), 0) << "the checkpoint was not blocked";
  EXPECT_EQ(checkpoint.value(1).asInteger(), checkpoint.value(2).asInteger()) << "every frame was copied";
  ASSERT_TRUE(pool.write([](Database& db) { return db.execute("INSERT INTO other VALUES (1)"); }));
  EXPECT_EQ(reader.release(), "");
  ASSERT_TRUE(values.waitForCount(2));
  // A later commit still reads its own snapshot.
  ASSERT_TRUE(insertItem(pool));
  ASSERT_TRUE(values.waitForLast(2));
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 1, 2}));
  EXPECT_TRUE(values.errors().empty());
  if (sqlitebridge::snapshotsAvailable()) {
    EXPECT_EQ(ConcurrencyTesting::observationSnapshotFallbackCount(pool), 1u);
    EXPECT_GE(ConcurrencyTesting::observationSnapshotFetchCount(pool), 1u);
  } else {
    EXPECT_EQ(ConcurrencyTesting::observationSnapshotFallbackCount(pool), 0u);
    EXPECT_EQ(ConcurrencyTesting::observationSnapshotFetchCount(pool), 0u);
  }
}

TYPED_TEST(Observations, AQueryRequestIsNotifiedOnlyForTheTablesItReads) {
  using sqlitebridge::Association;
  using sqlitebridge::IncludeKind;
  using sqlitebridge::QueryRequest;
  ASSERT_TRUE(this->write("CREATE TABLE owners(id INTEGER PRIMARY KEY, name TEXT)"));
  ASSERT_TRUE(
      this->write("CREATE TABLE pets(id INTEGER PRIMARY KEY, ownerId INTEGER REFERENCES owners(id), name TEXT)"));
  ASSERT_TRUE(this->write("INSERT INTO owners VALUES (1, 'o')"));
  // Pets with their owner: the request reads pets and owners, no other table
  // (not `items`, which the schema's view `item_names` reads: SQLite compiles
  // it while the core looks the foreign key up, the first time).
  const QueryRequest request = QueryRequest::table("pets").including(
      Association::belongsTo("owners").filter(sqlitebridge::column("name") != "nobody"),
      IncludeKind::IncludingRequired);
  Values values;
  std::atomic<int> fetches{0};
  ObservationHandle handle = sqlitebridge::observeValue<std::int64_t>(
      this->store_,
      [&](Database& db, std::int64_t& value, Error* error) {
        ++fetches;
        std::vector<Row> rows;
        if (!db.fetch(request, &rows)) {
          *error = db.lastError();
          return false;
        }
        value = static_cast<std::int64_t>(rows.size());
        return true;
      },
      [&values](const std::int64_t& value) { values.add(value); }, [&values](const Error& e) { values.fail(e); });
  ASSERT_TRUE(values.waitForLast(0));
  ASSERT_TRUE(this->write("INSERT INTO items(name) VALUES ('a')"));
  ASSERT_TRUE(this->write("INSERT INTO other VALUES (1)"));
  ASSERT_TRUE(this->write("INSERT INTO pets VALUES (1, 1, 'p')"));
  ASSERT_TRUE(values.waitForLast(1));
  EXPECT_EQ(fetches.load(), 2);  // the commits to items and other fetched nothing
  ASSERT_TRUE(this->write("UPDATE owners SET name = 'nobody'"));
  ASSERT_TRUE(values.waitForLast(0));
  EXPECT_EQ(fetches.load(), 3);
  EXPECT_EQ(values.all(), (std::vector<std::int64_t>{0, 1, 0}));
  EXPECT_TRUE(values.errors().empty());
}
