// DatabaseQueue (issue 12): one connection shared by any number of threads,
// every block alone on it. Opening by path and by name, read (read-only, its
// value returned), write (commit on true, rollback on false, on a failed
// statement or an exception), writeWithoutTransaction, transactions a block
// leaves open, reentrancy refused with SQLITE_MISUSE (never a deadlock), a
// moved-from queue, the Configuration, interrupt from another thread (and
// Database::interrupt), and 8 threads x 1,000 write transactions that lose
// nothing. Every wait is bounded (ThreadSupport.hpp).
#include <atomic>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ConcurrencySupport.hpp"
#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::DatabaseQueue;
using sqlitebridge::Error;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

/// A queue on `<dir>/queue.db` holding table t(x INTEGER).
class QueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    queue_.emplace(dir_ / "queue.db");
    ASSERT_TRUE(queue().isOpen()) << queue().openError().message;
    Error error;
    ASSERT_TRUE(queue().write([](Database& db) { return db.execute("CREATE TABLE t(x INTEGER)"); }, &error))
        << error.message;
  }
  DatabaseQueue& queue() { return *queue_; }
  std::int64_t count() {
    return queue().read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM t"); });
  }

  TempDir dir_;
  std::optional<DatabaseQueue> queue_;
};

}  // namespace

// MARK: Opening

TEST(DatabaseQueue, OpensByPath) {
  TempDir dir;
  DatabaseQueue queue(dir / "by-path.db");
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  EXPECT_FALSE(queue.openError().isError());
  Error error;
  ASSERT_TRUE(queue.write([](Database& db) { return db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (7)"); },
                          &error));
  EXPECT_TRUE(fileExists(dir / "by-path.db"));
  EXPECT_EQ(queue.read([](Database& db) { return db.path(); }), dir / "by-path.db");
}

TEST_F(DocumentsAndBundle, DatabaseQueueOpensByName) {
  DatabaseQueue queue("named.db", "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('first');", location());
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  EXPECT_TRUE(fileExists(docs("named.db")));
  EXPECT_EQ(queue.read([](Database& db) { return scalarText(db, "SELECT body FROM notes"); }), "first");
  // Opened again, the file is reused, not created again.
  Error error;
  ASSERT_TRUE(queue.write([](Database& db) { return db.execute("INSERT INTO notes VALUES ('second')"); }, &error))
      << error.message;
  DatabaseQueue again("named.db", "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('first');", location());
  ASSERT_TRUE(again.isOpen()) << again.openError().message;
  EXPECT_EQ(again.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM notes"); }), 2);
}

TEST(DatabaseQueue, OpenErrorOnADirectoryAndEveryCallFailsWithIt) {
  TempDir dir;
  DatabaseQueue queue(dir.path());
  ASSERT_FALSE(queue.isOpen());
  const Error openError = queue.openError();
  ASSERT_TRUE(openError.isError());
  EXPECT_TRUE(openError.is(ResultCode::CantOpen)) << openError.code << " " << openError.message;
  EXPECT_FALSE(openError.message.empty());

  // A refused block runs on a closed Database that says why.
  int readRuns = 0;
  const Error inRead = queue.read([&](Database& db) {
    ++readRuns;
    EXPECT_FALSE(db.isOpen());
    EXPECT_FALSE(db.execute("SELECT 1"));
    return db.lastError();
  });
  EXPECT_EQ(readRuns, 1);
  EXPECT_EQ(inRead.code, openError.code);

  bool writeRan = false;
  Error writeError;
  EXPECT_FALSE(queue.write(
      [&](Database&) {
        writeRan = true;
        return true;
      },
      &writeError));
  EXPECT_FALSE(writeRan) << "a write block runs only once the transaction began";
  EXPECT_EQ(writeError.code, openError.code);

  const int code = queue.writeWithoutTransaction([](Database& db) { return db.lastError().code; });
  EXPECT_EQ(code, openError.code);
}

// MARK: read

TEST_F(QueueTest, ReadReturnsWhatTheBlockReturns) {
  ASSERT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (1), (2), (39)"); }));
  EXPECT_EQ(queue().read([](Database& db) { return scalarInteger(db, "SELECT sum(x) FROM t"); }), 42);
  EXPECT_EQ(queue().read([](Database&) { return std::string("a value of any type"); }), "a value of any type");
}

TEST_F(QueueTest, ReadIsReadOnlyAndTheConnectionIsWritableAgainAfterwards) {
  const Error inRead = queue().read([](Database& db) {
    EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));
    return db.lastError();
  });
  EXPECT_TRUE(inRead.is(ResultCode::ReadOnly)) << inRead.code << " " << inRead.message;
  EXPECT_EQ(count(), 0);

  Error error;
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (1)"); }, &error))
      << error.message;
  EXPECT_EQ(queue().writeWithoutTransaction([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }), true);
  EXPECT_EQ(count(), 2);
}

// MARK: write

TEST_F(QueueTest, WriteCommitsWhenTheBlockReturnsTrue) {
  Error error{SQLITE_ERROR, SQLITE_ERROR, "stale", ""};
  const bool committed = queue().write(
      [](Database& db) {
        EXPECT_TRUE(db.isInTransaction());
        return db.execute("INSERT INTO t VALUES (1)") && db.execute("INSERT INTO t VALUES (2)");
      },
      &error);
  EXPECT_TRUE(committed);
  EXPECT_FALSE(error.isError()) << error.message;
  EXPECT_EQ(count(), 2);
}

TEST_F(QueueTest, WriteRollsBackWhenTheBlockReturnsFalseWithTheErrorClear) {
  Error error{SQLITE_ERROR, SQLITE_ERROR, "stale", ""};
  const bool committed = queue().write(
      [](Database& db) {
        EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)"));
        return false;
      },
      &error);
  EXPECT_FALSE(committed);
  EXPECT_FALSE(error.isError()) << "a rollback the block asked for is no error: " << error.message;
  EXPECT_EQ(count(), 0);
}

TEST_F(QueueTest, WriteRollsBackWhenAStatementFailedEvenIfTheBlockReturnsTrue) {
  ASSERT_TRUE(
      queue().writeWithoutTransaction([](Database& db) { return db.execute("CREATE UNIQUE INDEX t_x ON t(x)"); }));
  Error error;
  const bool committed = queue().write(
      [](Database& db) {
        EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)"));
        EXPECT_FALSE(db.execute("INSERT INTO t VALUES (1)"));  // dropped by the block
        EXPECT_TRUE(db.execute("INSERT INTO t VALUES (2)"));
        return true;
      },
      &error);
  EXPECT_FALSE(committed);
  EXPECT_TRUE(error.is(ResultCode::Constraint)) << error.code << " " << error.message;
  EXPECT_EQ(error.extendedCode, SQLITE_CONSTRAINT_UNIQUE);
  EXPECT_EQ(count(), 0);
}

TEST_F(QueueTest, WriteReportsTheFailedStatementWhenTheBlockReturnsItsFalse) {
  Error error;
  const bool committed = queue().write(
      [](Database& db) {
        return db.execute("INSERT INTO t VALUES (1)") && db.execute("INSERT INTO nowhere VALUES (1)");
      },
      &error);
  EXPECT_FALSE(committed);
  EXPECT_TRUE(error.is(ResultCode::Error)) << error.code << " " << error.message;
  EXPECT_NE(error.message.find("no such table: nowhere"), std::string::npos) << error.message;
  EXPECT_EQ(count(), 0);
}

// A statement whose failure makes SQLite roll the whole transaction back
// itself (RAISE(ROLLBACK) here; SQLITE_FULL, an I/O error or SQLITE_NOMEM
// may too): the block returns that statement's false, and the write reports
// the statement's error, not a clear one (the CI run of 40bd9a6, on a disk
// that filled up, said "write 368 failed: " with nothing after it).
TEST_F(QueueTest, WriteReportsTheFailedStatementWhenSQLiteRolledTheTransactionBack) {
  ASSERT_TRUE(queue().writeWithoutTransaction([](Database& db) {
    return db.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON t WHEN NEW.x < 0 BEGIN SELECT RAISE(ROLLBACK, 'refused'); END");
  }));
  Error error;
  const bool committed = queue().write(
      [](Database& db) { return db.execute("INSERT INTO t VALUES (1)") && db.execute("INSERT INTO t VALUES (-1)"); },
      &error);
  EXPECT_FALSE(committed);
  EXPECT_TRUE(error.is(ResultCode::Constraint)) << error.code << " " << error.message;
  EXPECT_EQ(error.extendedCode, SQLITE_CONSTRAINT_TRIGGER);
  EXPECT_EQ(error.message, "refused");
  EXPECT_EQ(count(), 0);
  // The connection writes again.
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }, &error))
      << error.message;
  EXPECT_EQ(count(), 1);
}

TEST_F(QueueTest, WriteRollsBackAndPropagatesAnException) {
  EXPECT_THROW(queue().write([](Database& db) -> bool {
    EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)"));
    throw std::runtime_error("from the block");
  }),
               std::runtime_error);
  EXPECT_EQ(count(), 0);
  EXPECT_THROW(queue().read([](Database&) -> int { throw std::runtime_error("from a read"); }), std::runtime_error);
  // Neither the transaction nor query_only outlived the block.
  Error error;
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }, &error))
      << error.message;
  EXPECT_EQ(count(), 1);
}

// MARK: writeWithoutTransaction and transactions left open

TEST_F(QueueTest, WriteWithoutTransactionRunsWhatATransactionCannot) {
  EXPECT_FALSE(queue().writeWithoutTransaction([](Database& db) { return db.isInTransaction(); }));
  EXPECT_EQ(queue().writeWithoutTransaction([](Database& db) { return scalarText(db, "PRAGMA journal_mode = WAL"); }),
            "wal");
  const Error vacuum = queue().writeWithoutTransaction([](Database& db) {
    EXPECT_TRUE(db.execute("VACUUM")) << db.error();
    return db.lastError();
  });
  EXPECT_FALSE(vacuum.isError()) << vacuum.message;
  EXPECT_EQ(queue().read([](Database& db) { return scalarText(db, "PRAGMA journal_mode"); }), "wal");
}

TEST_F(QueueTest, ATransactionLeftOpenInsideWriteWithoutTransactionIsRolledBack) {
  queue().writeWithoutTransaction([](Database& db) {
    EXPECT_TRUE(db.execute("BEGIN"));
    EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)"));
    return 0;
  });
  EXPECT_FALSE(queue().writeWithoutTransaction([](Database& db) { return db.isInTransaction(); }));
  EXPECT_EQ(count(), 0);
  Error error;
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }, &error))
      << error.message;
  EXPECT_EQ(count(), 1);
}

TEST_F(QueueTest, ATransactionLeftOpenInsideReadIsRolledBack) {
  queue().read([](Database& db) {
    // The block reads in a transaction of the queue's (one snapshot): a
    // block that ends it and begins its own leaves that one open.
    EXPECT_FALSE(db.execute("BEGIN"));
    EXPECT_TRUE(db.execute("ROLLBACK"));
    EXPECT_TRUE(db.execute("BEGIN"));
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 0);
    return 0;
  });
  EXPECT_FALSE(queue().writeWithoutTransaction([](Database& db) { return db.isInTransaction(); }));
  Error error;
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (1)"); }, &error))
      << error.message;
  EXPECT_EQ(count(), 1);
}

// MARK: Reentrancy

namespace {

void expectReentrant(const Error& error, const std::string& what) {
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << what << ": " << error.code << " " << error.message;
  EXPECT_NE(error.message.find("reentrant access"), std::string::npos) << what << ": " << error.message;
}

}  // namespace

// On a thread of its own, so that a deadlock fails the test (after the
// bounded wait) instead of hanging it.
TEST_F(QueueTest, ReentrantCallsFailWithMisuseInsteadOfDeadlocking) {
  BoundedThread caller("the reentrant calls", [&] {
    queue().read([&](Database& outer) {
      expectReentrant(queue().read([](Database& inner) { return inner.lastError(); }), "read in read");
      Error error;
      bool ran = false;
      EXPECT_FALSE(queue().write(
          [&](Database&) {
            ran = true;
            return true;
          },
          &error));
      EXPECT_FALSE(ran);
      expectReentrant(error, "write in read");
      expectReentrant(queue().writeWithoutTransaction([](Database& inner) { return inner.lastError(); }),
                      "writeWithoutTransaction in read");
      // The outer block's connection is unharmed.
      EXPECT_EQ(scalarInteger(outer, "SELECT count(*) FROM t"), 0);
      return 0;
    });
    Error outerError;
    EXPECT_TRUE(queue().write(
        [&](Database& outer) {
          Error error;
          EXPECT_FALSE(queue().write([](Database&) { return true; }, &error));
          expectReentrant(error, "write in write");
          expectReentrant(queue().read([](Database& inner) { return inner.lastError(); }), "read in write");
          return outer.execute("INSERT INTO t VALUES (1)");
        },
        &outerError))
        << outerError.message;
  });
  caller.join();
  EXPECT_EQ(count(), 1);
}

// MARK: Moved from

TEST(DatabaseQueue, AMovedFromQueueFailsWithMisuse) {
  TempDir dir;
  DatabaseQueue original(dir / "moved.db");
  ASSERT_TRUE(original.isOpen());
  DatabaseQueue moved(std::move(original));
  EXPECT_TRUE(moved.isOpen());
  EXPECT_FALSE(original.isOpen());  // NOLINT(bugprone-use-after-move): the point of the test
  EXPECT_TRUE(original.openError().isError());
  const Error inRead = original.read([](Database& db) { return db.lastError(); });
  EXPECT_TRUE(inRead.is(ResultCode::Misuse)) << inRead.code << " " << inRead.message;
  Error error;
  EXPECT_FALSE(original.write([](Database&) { return true; }, &error));
  EXPECT_TRUE(error.is(ResultCode::Misuse)) << error.code << " " << error.message;
  original.interrupt();  // does nothing, and does not crash
  EXPECT_TRUE(moved.write([](Database& db) { return db.execute("CREATE TABLE t(x)"); }));

  DatabaseQueue assigned(dir / "other.db");
  assigned = std::move(moved);
  EXPECT_TRUE(assigned.read([](Database& db) { return db.tableExists("t"); }));
}

// MARK: Configuration

TEST(DatabaseQueue, HonoursTheConfiguration) {
  TempDir dir;
  const std::string path = dir / "configured.db";
  ASSERT_TRUE(makeDatabaseFile(path,
                               "CREATE TABLE parent(id INTEGER PRIMARY KEY);"
                               "CREATE TABLE child(parent INTEGER REFERENCES parent(id));"));
  {
    Configuration configuration;
    configuration.busyTimeoutMilliseconds = 1234;
    configuration.foreignKeys = false;
    DatabaseQueue queue(path, configuration);
    ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
    EXPECT_EQ(queue.read([](Database& db) { return db.busyTimeout(); }), 1234);
    EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "PRAGMA foreign_keys"); }), 0);
    EXPECT_TRUE(queue.write([](Database& db) { return db.execute("INSERT INTO child VALUES (99)"); }));
  }
  {
    DatabaseQueue queue(path);  // the defaults: 5 s, foreign keys on
    ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
    EXPECT_EQ(queue.read([](Database& db) { return db.busyTimeout(); }), 5000);
    EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "PRAGMA foreign_keys"); }), 1);
    Error error;
    // The block returns true: a failed statement, not a rollback it asked for.
    EXPECT_FALSE(queue.write(
        [](Database& db) {
          EXPECT_FALSE(db.execute("INSERT INTO child VALUES (100)"));
          return true;
        },
        &error));
    EXPECT_TRUE(error.is(ResultCode::Constraint)) << error.code << " " << error.message;
  }
  {
    Configuration configuration;
    configuration.readOnly = true;
    DatabaseQueue queue(path, configuration);
    ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
    EXPECT_EQ(queue.read([](Database& db) { return scalarInteger(db, "SELECT count(*) FROM child"); }), 1);
    Error error;
    // The block returns true: a failed statement, not a rollback it asked for.
    EXPECT_FALSE(queue.write(
        [](Database& db) {
          EXPECT_FALSE(db.execute("INSERT INTO parent VALUES (1)"));
          return true;
        },
        &error));
    EXPECT_TRUE(error.is(ResultCode::ReadOnly)) << error.code << " " << error.message;
    const Error direct = queue.writeWithoutTransaction([](Database& db) {
      EXPECT_FALSE(db.execute("INSERT INTO parent VALUES (1)"));
      return db.lastError();
    });
    EXPECT_TRUE(direct.is(ResultCode::ReadOnly)) << direct.code << " " << direct.message;
  }
  Configuration readOnly;
  readOnly.readOnly = true;
  DatabaseQueue missing(dir / "missing.db", readOnly);
  EXPECT_FALSE(missing.isOpen());
  EXPECT_TRUE(missing.openError().is(ResultCode::CantOpen)) << missing.openError().message;
  EXPECT_FALSE(fileExists(dir / "missing.db"));
}

// MARK: Interrupt

// A read's long query, interrupted from another thread once the block says
// the query is about to start: it fails with SQLITE_INTERRUPT, and the queue
// works afterwards.
TEST_F(QueueTest, InterruptFromAnotherThreadStopsARead) {
  const InterruptedBlock result = interruptALongQuery(queue(), false);
  EXPECT_TRUE(result.interrupted) << "the long query did not return";
  EXPECT_TRUE(result.error.is(ResultCode::Interrupt)) << result.error.code << " " << result.error.message;
  EXPECT_EQ(queue().read([](Database& db) { return scalarInteger(db, "SELECT 6 * 7"); }), 42);
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (1)"); }));
  EXPECT_EQ(count(), 1);
}

TEST_F(QueueTest, InterruptFromAnotherThreadRollsBackAWrite) {
  const InterruptedBlock result = interruptALongQuery(queue(), true);
  EXPECT_TRUE(result.interrupted) << "the long query did not return";
  EXPECT_FALSE(result.committed);
  EXPECT_TRUE(result.error.is(ResultCode::Interrupt)) << result.error.code << " " << result.error.message;
  EXPECT_EQ(count(), 0);
  EXPECT_TRUE(queue().write([](Database& db) { return db.execute("INSERT INTO t VALUES (2)"); }));
  EXPECT_EQ(count(), 1);
}

TEST(ConcurrencyInterrupt, DatabaseInterruptFromAnotherThread) {
  TempDir dir;
  Database db = Database::open(dir / "plain.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  Latch started(1);
  Latch returned(1);
  bool interrupted = false;
  BoundedThread interrupter("the interrupter", [&] {
    if (started.waitFor()) interrupted = interruptUntilReturned([&] { db.interrupt(); }, returned);
  });
  started.countDown();
  Row row;
  const bool ok = db.execute(kLongQuery, row);
  const Error error = db.lastError();
  returned.countDown();
  interrupter.join();
  EXPECT_TRUE(interrupted);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(error.is(ResultCode::Interrupt)) << error.code << " " << error.message;
  EXPECT_EQ(scalarInteger(db, "SELECT 6 * 7"), 42);
}

// MARK: Many writers

// 8 threads x 1,000 write transactions through one queue: every row is
// there, once, with the right values.
TEST(DatabaseQueue, EightThreadsTimesAThousandWritesLoseNothing) {
  TempDir dir;
  DatabaseQueue queue(dir / "many.db");
  ASSERT_TRUE(queue.isOpen()) << queue.openError().message;
  expectEightThreadsTimesAThousandWritesLoseNothing(queue);
}
