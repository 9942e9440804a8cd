// Threads: what DESIGN.md ("Threads") promises. A Database is one connection
// used by one thread at a time; several Databases on one file work from
// several threads at once (WAL, busy timeout), including opening the same new
// database by name at the same moment; a Database or Statement can be handed
// from thread to thread; Rows and Values are plain values that can be copied
// to and read on any thread; Value's text-to-number conversions (a per-thread
// SQLite connection) run on several threads at once; and a Statement keeps
// its connection alive, so the last reference may be dropped on a thread
// other than the one that opened it. Run under ThreadSanitizer by the tsan
// preset (`cmake --workflow --preset tsan`), where every data race fails.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

using sqlitebridge::Configuration;
using sqlitebridge::Database;
using sqlitebridge::Location;
using sqlitebridge::Row;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using namespace sqlitebridge_test;

namespace {

/// The single integer `sql` returns with `arguments`, or -1 (with a failure
/// recorded) — the worker-thread counterpart of scalarInteger.
std::int64_t integerOrFail(Database& db, const std::string& sql, const std::vector<Value>& arguments,
                           Failures& failures, const std::string& who) {
  std::vector<Row> rows;
  if (!db.execute(sql, arguments, &rows)) {
    failures.add(who + ": " + sql + " failed: " + db.error());
    return -1;
  }
  if (rows.size() != 1 || rows[0].size() != 1) {
    failures.add(who + ": " + sql + " did not return one value");
    return -1;
  }
  return rows[0].value(0).asInteger();
}

/// Text that does not fit in a Value's 8 in-place bytes, so that it lives on
/// the heap (the interesting case for copies across threads).
std::string longText(int writer, int sequence) {
  return "writer " + std::to_string(writer) + ", row " + std::to_string(sequence) + ": " + std::string(40, 'x');
}

}  // namespace

// N threads, each with its own Database on one file in WAL mode with a busy
// timeout, insert in transactions while a reader thread watches: every
// transaction becomes visible whole (never part of one), each writer reads its
// own writes at once, and at the end every row of every writer is there once.
TEST(Threads, ConnectionsOnOneWalFileInsertAndReadAtTheSameTime) {
  constexpr int kWriters = 4;
  constexpr int kTransactions = 25;
  constexpr int kRowsPerTransaction = 4;
  constexpr int kBusyTimeoutMs = 60000;  // generous: TSan makes everything slower
  TempDir dir;
  const std::string path = dir / "shared.db";
  ASSERT_NO_FATAL_FAILURE(
      makeWalDatabase(path,
                      "CREATE TABLE items(id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, "
                      "sequence INTEGER NOT NULL, payload TEXT NOT NULL, UNIQUE(writer, sequence))"));

  Failures failures;
  Latch start(kWriters + 1);
  std::mutex doneMutex;
  int writersDone = 0;
  int readerPasses = 0;
  runThreads(kWriters + 1, [&](int index) {
    const bool isWriter = index < kWriters;
    const std::string who = isWriter ? "writer " + std::to_string(index) : "reader";
    // However a writer ends (a failed open included), it counts itself done,
    // or the reader would wait for it forever.
    struct CountWriterDone {
      bool isWriter;
      std::mutex& mutex;
      int& done;
      ~CountWriterDone() {
        if (!isWriter) return;
        std::lock_guard<std::mutex> lock(mutex);
        ++done;
      }
    } countDone{isWriter, doneMutex, writersDone};
    Database db = Database::open(path, Configuration{kBusyTimeoutMs});
    if (!db.isOpen()) failures.add(who + ": cannot open: " + db.error());
    if (!start.arriveAndWait()) failures.add(who + ": the other threads did not reach the start line");
    if (!db.isOpen()) return;
    if (index == kWriters) {
      // The reader: until every writer is done, each writer's row count is a
      // whole number of transactions and never goes down.
      std::vector<std::int64_t> lastSeen(kWriters, 0);
      const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
      for (bool finished = false; !finished;) {
        {
          std::lock_guard<std::mutex> lock(doneMutex);
          finished = writersDone == kWriters;  // one more pass after the last commit
        }
        if (!finished && std::chrono::steady_clock::now() > deadline) {
          failures.add(who + ": the writers did not finish within " + std::to_string(kThreadWaitLimit.count()) + " s");
          return;
        }
        std::vector<Row> counts;
        if (!db.execute("SELECT writer, count(*) FROM items GROUP BY writer", &counts)) {
          failures.add(who + ": count failed: " + db.error());
          return;
        }
        for (const Row& row : counts) {
          const std::int64_t writer = row.value(0).asInteger();
          const std::int64_t count = row.value(1).asInteger();
          if (writer < 0 || writer >= kWriters) {
            failures.add(who + ": unknown writer " + std::to_string(writer));
            return;
          }
          if (count % kRowsPerTransaction != 0) {
            failures.add(who + ": saw " + std::to_string(count) + " rows of writer " + std::to_string(writer) +
                         ", part of a transaction");
          }
          if (count < lastSeen[static_cast<std::size_t>(writer)]) {
            failures.add(who + ": rows of writer " + std::to_string(writer) + " went down");
          }
          lastSeen[static_cast<std::size_t>(writer)] = count;
        }
        std::lock_guard<std::mutex> lock(doneMutex);
        ++readerPasses;
      }
      return;
    }
    const int writer = index;
    for (int transaction = 0; transaction < kTransactions; ++transaction) {
      // IMMEDIATE takes the write lock up front, so a busy writer waits (busy
      // timeout) instead of failing to upgrade a read transaction.
      if (!db.execute("BEGIN IMMEDIATE")) {
        failures.add(who + ": BEGIN IMMEDIATE failed: " + db.error());
        break;
      }
      bool ok = true;
      for (int row = 0; row < kRowsPerTransaction && ok; ++row) {
        const int sequence = transaction * kRowsPerTransaction + row;
        ok = db.execute("INSERT INTO items(writer, sequence, payload) VALUES (?, ?, ?)",
                        {Value(writer), Value(sequence), Value(longText(writer, sequence))});
        if (!ok) failures.add(who + ": INSERT failed: " + db.error());
      }
      if (!ok || !db.execute("COMMIT")) {
        failures.add(who + ": transaction " + std::to_string(transaction) + " failed: " + db.error());
        db.execute("ROLLBACK");
        break;
      }
      const std::int64_t own =
          integerOrFail(db, "SELECT count(*) FROM items WHERE writer = ?", {Value(writer)}, failures, who);
      if (own != (transaction + 1) * kRowsPerTransaction) {
        failures.add(who + ": reads " + std::to_string(own) + " of its own rows after transaction " +
                     std::to_string(transaction));
      }
    }
  });
  EXPECT_EQ(failures.text(), "");
  EXPECT_GT(readerPasses, 0);

  Database check = Database::open(path);
  ASSERT_TRUE(check.isOpen()) << check.error();
  EXPECT_EQ(scalarInteger(check, "SELECT count(*) FROM items"), kWriters * kTransactions * kRowsPerTransaction);
  for (int writer = 0; writer < kWriters; ++writer) {
    std::vector<Row> rows;
    ASSERT_TRUE(
        check.execute("SELECT sequence, payload FROM items WHERE writer = ? ORDER BY sequence", {Value(writer)}, &rows))
        << check.error();
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kTransactions * kRowsPerTransaction)) << "writer " << writer;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].value(0).asInteger(), static_cast<std::int64_t>(i));
      EXPECT_EQ(rows[i].value(1).asText(), longText(writer, static_cast<int>(i)));
    }
  }
  EXPECT_EQ(scalarText(check, "PRAGMA integrity_check"), "ok");
}

// N threads open the same new database by name at the same moment: each
// races to create it, exactly one creation is published (the script's row is
// there once), every thread gets a working connection to that one file, and
// no temporary file is left behind.
TEST(Threads, OpeningOneNewDatabaseByNameFromSeveralThreadsCreatesItOnce) {
  constexpr int kThreads = 4;
  TempDir dir;
  const std::string docs = dir.makeSubdirectory("docs");
  const Location location{docs, ""};
  const std::string createSQL =
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL);"
      "INSERT INTO notes(title) VALUES ('created once');";

  Failures failures;
  Latch start(kThreads);
  Latch allOpen(kThreads);
  runThreads(kThreads, [&](int index) {
    const std::string who = "thread " + std::to_string(index);
    if (!start.arriveAndWait()) failures.add(who + ": the other threads did not reach the start line");
    Database db("notes.db", createSQL, location);
    // Counted before anyone inserts: only the creation script's row.
    std::int64_t count = -1;
    if (!db.isOpen()) {
      failures.add(who + ": cannot open by name: " + db.error());
    } else {
      count = integerOrFail(db, "SELECT count(*) FROM notes", {}, failures, who);
    }
    if (!allOpen.arriveAndWait()) failures.add(who + ": the other threads did not finish opening");
    if (!db.isOpen()) return;
    if (count != 1) failures.add(who + ": found " + std::to_string(count) + " rows, not 1");
    if (db.path() != docs + "/notes.db") failures.add(who + ": opened " + db.path());
    if (!db.setBusyTimeout(60000) || !db.execute("INSERT INTO notes(title) VALUES (?)", {Value("from " + who)})) {
      failures.add(who + ": INSERT failed: " + db.error());
    }
  });
  EXPECT_EQ(failures.text(), "");

  Database check("notes.db", "", location);
  ASSERT_TRUE(check.isOpen()) << check.error();
  EXPECT_EQ(scalarInteger(check, "SELECT count(*) FROM notes WHERE title = 'created once'"), 1);
  EXPECT_EQ(scalarInteger(check, "SELECT count(*) FROM notes"), 1 + kThreads);
  EXPECT_EQ(listDirectory(docs), std::vector<std::string>{"notes.db"});
}

// A Database is used by one thread at a time, not by one thread forever: one
// Database object (one connection) opened on this thread is used by one
// worker thread after another and then here again; its statement cache keeps
// serving the same prepared statement on every thread.
TEST(Threads, ADatabaseHandedFromThreadToThreadKeepsWorking) {
  TempDir dir;
  Database db = Database::open(dir / "handed.db");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, owner TEXT NOT NULL)")) << db.error();
  const std::string insert = "INSERT INTO t(owner) VALUES (?)";
  ASSERT_TRUE(db.execute(insert, {Value("main")})) << db.error();
  const std::int64_t preparedBefore = db.preparedStatementCount();

  Failures failures;
  for (int hop = 0; hop < 3; ++hop) {
    // Joined before the next hop: one thread at a time, each a different one.
    BoundedThread worker("hop " + std::to_string(hop), [&, hop] {
      const std::string who = "hop " + std::to_string(hop);
      for (int i = 0; i < 10; ++i) {
        if (!db.execute(insert, {Value(who)})) failures.add(who + ": INSERT failed: " + db.error());
      }
    });
    worker.join();
  }
  // Moved to a worker and back: the object itself travels too.
  BoundedThread mover("mover", [&] {
    Database travelling = std::move(db);
    if (!travelling.execute(insert, {Value("moved")})) failures.add("mover: INSERT failed: " + travelling.error());
    db = std::move(travelling);
  });
  mover.join();
  EXPECT_EQ(failures.text(), "");
  ASSERT_TRUE(db.isOpen());
  EXPECT_EQ(db.preparedStatementCount(), preparedBefore) << "the cached INSERT was prepared again on a worker";
  EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM t"), 32);
  EXPECT_EQ(scalarInteger(db, "SELECT count(DISTINCT owner) FROM t"), 5);
}

// Rows and Values own their bytes (long text and blobs on the heap, column
// names shared between the rows of a query): copies made on several threads
// at once from one shared result read back the same, also after the thread
// that made the result has dropped it.
TEST(Threads, RowsAndValuesCopiedAcrossThreadsKeepTheirContent) {
  constexpr int kThreads = 4;
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();
  ASSERT_TRUE(db.execute("CREATE TABLE v(i INTEGER, r REAL, short TEXT, long TEXT, b BLOB, n)")) << db.error();
  for (int k = 0; k < 50; ++k) {
    std::string nul("a\0b", 3);
    const std::vector<std::uint8_t> bytes(static_cast<std::size_t>(k) + 1, static_cast<std::uint8_t>(k));
    ASSERT_TRUE(db.execute(
        "INSERT INTO v VALUES (?, ?, ?, ?, ?, NULL)",
        {Value(std::int64_t{k} * 1000003), Value(k + 0.25), Value(nul), Value(longText(0, k)), Value::fromBlob(bytes)}))
        << db.error();
  }
  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT i, r, short, long, b, n AS \"nothing\" FROM v ORDER BY i", &rows)) << db.error();
  ASSERT_EQ(rows.size(), 50u);
  std::vector<std::string> expected;
  for (const Row& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += row.columnName(i) + "=" + describe(row.value(i)) + "|";
    expected.push_back(line);
  }

  Failures failures;
  Latch copied(kThreads + 1);
  Latch dropped(kThreads + 1);
  std::vector<BoundedThread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back("thread " + std::to_string(t), [&, t] {
      const std::string who = "thread " + std::to_string(t);
      // Copied at the same time as the other threads copy the same rows.
      std::vector<Row> mine = rows;
      // Values moved out of one copy and copied out of another.
      std::vector<Value> longValues;
      for (Row& row : mine) longValues.push_back(row.value("LONG"));
      if (!copied.arriveAndWait() || !dropped.arriveAndWait()) {  // then the original rows are gone
        failures.add(who + ": the other threads did not arrive");
        return;
      }
      if (mine.size() != expected.size()) {
        failures.add(who + ": has " + std::to_string(mine.size()) + " rows");
        return;
      }
      for (std::size_t r = 0; r < mine.size(); ++r) {
        std::string line;
        const Row copy = mine[r];  // a copy of a copy, names still shared
        for (std::size_t i = 0; i < copy.size(); ++i) line += copy.columnName(i) + "=" + describe(copy.value(i)) + "|";
        if (line != expected[r]) failures.add(who + ": row " + std::to_string(r) + " reads " + line);
        if (longValues[r] != Value(longText(0, static_cast<int>(r)))) {
          failures.add(who + ": long value " + std::to_string(r) + " reads " + longValues[r].asText());
        }
      }
    });
  }
  ASSERT_TRUE(copied.arriveAndWait()) << "the threads did not copy the rows";
  rows.clear();  // drops the original rows (and this thread's share of the names)
  rows.shrink_to_fit();
  ASSERT_TRUE(dropped.arriveAndWait()) << "the threads did not arrive";
  for (BoundedThread& thread : threads) thread.join();
  EXPECT_EQ(failures.text(), "");
}

// Value::asInteger, asReal and asText convert text, blobs and numbers with a
// per-thread in-memory SQLite connection. Several threads converting at once
// get SQLite's answers (the same as this thread's), and each thread's
// converter is made and closed on that thread.
TEST(Threads, ValueConversionsRunOnSeveralThreadsAtOnce) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 200;
  const std::vector<Value> inputs = {
      Value("12abc"),
      Value("  -7  "),
      Value("2.5e3"),
      Value("0x10"),
      Value("9223372036854775808"),
      Value("text that is longer than eight bytes 42"),
      Value(std::string("4\0"
                        "2",
                        3)),
      Value::fromBlob("314", 3),
      Value(std::int64_t{7}),
      Value(2.5),
      Value(-0.1),
      Value(1e300),
      Value(),
  };
  struct Converted {
    std::int64_t integer;
    double real;
    std::string text;
    bool operator==(const Converted& other) const {
      return integer == other.integer && real == other.real && text == other.text;
    }
  };
  const auto convert = [](const Value& value) { return Converted{value.asInteger(), value.asReal(), value.asText()}; };
  // SQLite's own answers, from this thread.
  std::vector<Converted> expected;
  for (const Value& value : inputs) expected.push_back(convert(value));
  EXPECT_EQ(expected[0].integer, 12);
  EXPECT_EQ(expected[1].integer, -7);
  EXPECT_EQ(expected[2].real, 2500.0);
  EXPECT_EQ(expected[3].integer, 0);
  EXPECT_EQ(expected[4].integer, INT64_MAX);
  EXPECT_EQ(expected[7].integer, 314);
  EXPECT_EQ(expected[8].text, "7");
  EXPECT_EQ(expected[9].text, "2.5");

  Failures failures;
  Latch start(kThreads);
  runThreads(kThreads, [&](int t) {
    if (!start.arriveAndWait()) {
      failures.add("thread " + std::to_string(t) + ": the other threads did not reach the start line");
      return;
    }
    for (int round = 0; round < kRounds; ++round) {
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        // Rotated per thread, so that different threads convert different
        // values at the same moment.
        const std::size_t k = (i + static_cast<std::size_t>(t)) % inputs.size();
        if (!(convert(inputs[k]) == expected[k])) {
          failures.add("thread " + std::to_string(t) + ": input " + std::to_string(k) + " converts differently");
          return;
        }
      }
    }
  });
  EXPECT_EQ(failures.text(), "");
}

// A Statement keeps its connection (a shared_ptr) alive. Handed to another
// thread, it runs there and is destroyed there: a cached statement goes back
// to its Database's cache (reused afterwards on the first thread); an
// uncached one that outlived its Database closes the connection on that
// thread (in WAL mode the last close removes the -wal file, which shows it).
TEST(Threads, StatementsAreReleasedOnAnotherThreadThanTheOneThatMadeThem) {
  TempDir dir;
  const std::string path = dir / "statements.db";
  {
    Database db = Database::open(path);
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_TRUE(db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")) << db.error();
    ASSERT_TRUE(db.execute("INSERT INTO t(name) VALUES ('a'), ('b'), ('c')")) << db.error();

    const std::string select = "SELECT name FROM t WHERE id = ?1";
    Statement cached = db.cachedStatement(select);
    ASSERT_TRUE(cached.isValid()) << db.error();
    ASSERT_TRUE(cached.bindInteger(1, 2)) << db.error();
    const std::int64_t prepared = db.preparedStatementCount();
    std::string read;
    BoundedThread worker("worker", [&read, lent = std::move(cached)]() mutable {
      Statement statement = std::move(lent);
      if (statement.step() == StepResult::Row) read = statement.columnValue(0).asText();
      // `statement` is destroyed here, on the worker: back into the cache.
    });
    worker.join();
    EXPECT_EQ(read, "b");
    // Back in the cache: lent again without preparing, and reset.
    Statement again = db.cachedStatement(select);
    ASSERT_TRUE(again.isValid()) << db.error();
    EXPECT_EQ(db.preparedStatementCount(), prepared);
    ASSERT_TRUE(again.bindInteger(1, 3));
    ASSERT_EQ(again.step(), StepResult::Row) << db.error();
    EXPECT_EQ(again.columnValue(0).asText(), "c");
  }

  Statement outliving;
  {
    Database db = Database::open(path);
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_NO_FATAL_FAILURE(switchToWal(db));
    ASSERT_TRUE(db.execute("INSERT INTO t(name) VALUES ('d')")) << db.error();
    outliving = db.prepare("SELECT group_concat(name, '') FROM t");
    ASSERT_TRUE(outliving.isValid()) << db.error();
  }  // the Database is gone; the statement holds the connection open
  ASSERT_TRUE(fileExists(path + "-wal"));
  std::string read;
  BoundedThread worker("worker", [&read, last = std::move(outliving)]() mutable {
    Statement statement = std::move(last);
    if (statement.step() == StepResult::Row) read = statement.columnValue(0).asText();
  });
  worker.join();
  EXPECT_EQ(read, "abcd");
  EXPECT_FALSE(fileExists(path + "-wal")) << "the connection was not closed when its last statement went";
}

// The last two owners of a connection, a Database on one thread and a
// Statement on another, let go at the same moment: whichever is last closes
// it, with no race (a cached statement returning to the cache while the
// Database is destroyed included).
TEST(Threads, ADatabaseAndItsStatementDestroyedOnTwoThreadsAtOnce) {
  constexpr int kRounds = 50;
  TempDir dir;
  const std::string path = dir / "race.db";
  {
    Database setup = Database::open(path);
    ASSERT_TRUE(setup.isOpen()) << setup.error();
    ASSERT_TRUE(setup.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")) << setup.error();
    ASSERT_TRUE(setup.execute("INSERT INTO t(name) VALUES ('a'), ('b')")) << setup.error();
  }
  Failures failures;
  for (int round = 0; round < kRounds; ++round) {
    auto db = std::make_unique<Database>(Database::open(path));
    ASSERT_TRUE(db->isOpen()) << db->error();
    Statement cached = db->cachedStatement("SELECT name FROM t ORDER BY id");
    Statement plain = db->prepare("SELECT count(*) FROM t");
    ASSERT_TRUE(cached.isValid() && plain.isValid()) << db->error();
    Latch start(2);
    BoundedThread worker(
        "worker", [&failures, &start, round, cachedOne = std::move(cached), plainOne = std::move(plain)]() mutable {
          Statement first = std::move(cachedOne);
          Statement second = std::move(plainOne);
          if (first.step() != StepResult::Row || first.columnValue(0).asText() != "a" ||
              second.step() != StepResult::Row || second.columnValue(0).asInteger() != 2) {
            failures.add("round " + std::to_string(round) + ": wrong rows on the worker");
          }
          if (!start.arriveAndWait())
            failures.add("round " + std::to_string(round) + ": the test thread did not arrive");
          // Both statements are destroyed as the worker returns, while the
          // Database goes away on the test's thread.
        });
    ASSERT_TRUE(start.arriveAndWait()) << "round " << round << ": the worker did not arrive";
    db.reset();
    worker.join();
  }
  EXPECT_EQ(failures.text(), "");
}
