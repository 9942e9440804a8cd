// Helpers shared by the DatabaseQueue, DatabasePool and async-job tests: a
// query long enough to be interrupted, a bounded loop that interrupts until
// the interrupted block says its query returned, and the worker-thread
// counterpart of scalarInteger, and the many-writers check both kinds run.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "ThreadSupport.hpp"

namespace sqlitebridge_test {

/// Counts to a billion: minutes of work, so it only ends by an interrupt.
inline const char* const kLongQuery =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c";

/// Calls `interrupt()` again and again until `returned` opens (the
/// interrupted query came back): an interrupt that lands before the
/// statement starts is forgotten by SQLite, so one call is not enough. False
/// (with nothing else done) when the query did not return within the limit.
inline bool interruptUntilReturned(const std::function<void()>& interrupt, Latch& returned) {
  const auto deadline = std::chrono::steady_clock::now() + kThreadWaitLimit;
  for (;;) {
    interrupt();
    if (returned.waitFor(std::chrono::milliseconds(1))) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
  }
}

/// The single integer `sql` returns, or -1 with a failure recorded in
/// `failures` (for worker threads, where an ASSERT would only leave the
/// lambda).
inline std::int64_t integerOrFail(sqlitebridge::Database& db, const std::string& sql, Failures& failures,
                                  const std::string& who) {
  sqlitebridge::Row row;
  if (!db.execute(sql, row)) {
    failures.add(who + ": " + sql + " failed: " + db.error());
    return -1;
  }
  if (row.size() != 1) {
    failures.add(who + ": " + sql + " did not return one value");
    return -1;
  }
  return row.value(0).asInteger();
}

/// 8 threads x 1,000 write transactions through `shared` (a DatabaseQueue
/// or DatabasePool), started together: afterwards every row is there, once,
/// with the right values (count, sum, writers, sequence numbers).
template <typename Shared>
void expectEightThreadsTimesAThousandWritesLoseNothing(Shared& shared) {
  using sqlitebridge::Database;
  using sqlitebridge::Error;
  using sqlitebridge::Value;
  constexpr int kThreads = 8;
  constexpr int kWrites = 1000;
  // The file's durability is not what this tests: no fsync per commit.
  ASSERT_TRUE(shared.writeWithoutTransaction([](Database& db) {
    return db.execute("PRAGMA synchronous = OFF") &&
           db.execute(
               "CREATE TABLE items(writer INTEGER NOT NULL, seq INTEGER NOT NULL, amount INTEGER NOT NULL, "
               "PRIMARY KEY(writer, seq))");
  }));
  Failures failures;
  Latch start(kThreads);
  runThreads(kThreads, [&](int writer) {
    const std::string who = "writer " + std::to_string(writer);
    if (!start.arriveAndWait()) failures.add(who + ": the others did not start");
    for (int seq = 0; seq < kWrites; ++seq) {
      Error error;
      const bool committed = shared.write(
          [&](Database& db) {
            return db.execute("INSERT INTO items VALUES (?, ?, ?)",
                              {Value(writer), Value(seq), Value(writer * 100000 + seq)});
          },
          &error);
      if (!committed) {
        failures.add(who + ": write " + std::to_string(seq) + " failed: " + error.message);
        return;
      }
    }
  });
  EXPECT_EQ(failures.text(), "");
  std::int64_t expectedSum = 0;
  for (int writer = 0; writer < kThreads; ++writer) {
    for (int seq = 0; seq < kWrites; ++seq) expectedSum += writer * 100000 + seq;
  }
  shared.read([&](Database& db) {
    EXPECT_EQ(scalarInteger(db, "SELECT count(*) FROM items"), kThreads * kWrites);
    EXPECT_EQ(scalarInteger(db, "SELECT sum(amount) FROM items"), expectedSum);
    EXPECT_EQ(scalarInteger(db, "SELECT count(DISTINCT writer) FROM items"), kThreads);
    EXPECT_EQ(scalarInteger(db, "SELECT max(seq) - min(seq) + 1 FROM items"), kWrites);
    return 0;
  });
}

/// What an interrupted block reports.
struct InterruptedBlock {
  /// The interrupter saw the long query return.
  bool interrupted = false;
  /// `write` committed (false for a read).
  bool committed = false;
  /// The long query's error (read) or the write's `*error`.
  sqlitebridge::Error error;
};

/// Runs kLongQuery in a block of `shared` (a DatabaseQueue or DatabasePool:
/// a read, or a write that first inserts 1 into `t`) while another thread
/// calls `shared.interrupt()` until the query returns; the interrupter is
/// done before the block ends, so no interrupt lands on what runs after it.
template <typename Shared>
InterruptedBlock interruptALongQuery(Shared& shared, bool inWrite) {
  using sqlitebridge::Database;
  using sqlitebridge::Error;
  using sqlitebridge::Row;
  Latch started(1);
  Latch returned(1);
  Latch interrupterDone(1);
  InterruptedBlock result;
  BoundedThread interrupter("the interrupter", [&] {
    if (started.waitFor()) result.interrupted = interruptUntilReturned([&] { shared.interrupt(); }, returned);
    interrupterDone.countDown();
  });
  auto longQuery = [&](Database& db) {
    started.countDown();
    Row row;
    EXPECT_FALSE(db.execute(kLongQuery, row));
    const Error failure = db.lastError();
    returned.countDown();
    EXPECT_TRUE(interrupterDone.waitFor());
    return failure;
  };
  if (inWrite) {
    result.committed = shared.write(
        [&](Database& db) {
          EXPECT_TRUE(db.execute("INSERT INTO t VALUES (1)"));
          longQuery(db);
          return true;
        },
        &result.error);
  } else {
    result.error = shared.read(longQuery);
  }
  interrupter.join();
  return result;
}

}  // namespace sqlitebridge_test
