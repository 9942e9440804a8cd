// Helpers shared by the DatabaseQueue, DatabasePool and async-job tests: a
// query long enough to be interrupted, a bounded loop that interrupts until
// the interrupted block says its query returned, and the worker-thread
// counterpart of scalarInteger.
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

}  // namespace sqlitebridge_test
