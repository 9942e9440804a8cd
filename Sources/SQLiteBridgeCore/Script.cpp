#include "Script.hpp"

#include <climits>

#include "SqlText.hpp"

namespace sqlitebridge {

bool runScript(Connection& connection, const std::string& sql) noexcept {
  if (sql.size() >= static_cast<std::size_t>(INT_MAX)) {
    return connection.fail(SQLITE_TOOBIG, "the SQL text is too long", std::string());
  }
  const char* next = sql.data();
  const char* const end = sql.data() + sql.size();
  while (next < end) {
    // Start each statement at its first keyword, so an error's SQL is the
    // failing statement itself, not the whitespace or comment before it.
    next = sql.data() + skipIgnorable(sql, static_cast<std::size_t>(next - sql.data()));
    if (next == end) break;
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    int rc = sqlite3_prepare_v2(connection.db, next, static_cast<int>(end - next), &stmt, &tail);
    if (rc != SQLITE_OK) {
      // Name the statement that failed, not the whole script.
      std::string failed;
      try {
        failed.assign(next, tail != nullptr && tail > next ? tail : end);
      } catch (...) {
      }
      return connection.failFromSQLite(rc, failed);
    }
    if (stmt == nullptr) {
      // Only whitespace and comments were left, unless SQLite stopped at a
      // NUL byte with text after it, which must not be silently dropped.
      if (tail != nullptr && tail < end) {
        return connection.fail(SQLITE_MISUSE, "the SQL text holds a NUL byte", sql);
      }
      break;
    }
    do {
      rc = sqlite3_step(stmt);
    } while (rc == SQLITE_ROW);
    if (rc != SQLITE_DONE) {
      connection.failFromSQLite(rc, sqlite3_sql(stmt));
      sqlite3_finalize(stmt);
      return false;
    }
    sqlite3_finalize(stmt);
    next = tail;
  }
  return true;
}

}  // namespace sqlitebridge
