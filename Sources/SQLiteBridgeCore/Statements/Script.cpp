#include "Script.hpp"

#include <climits>
#include <string>

#include "SqlText.hpp"
#include "sqlitebridge/StatementText.hpp"

namespace sqlitebridge {

bool prepareNextStatement(Connection& connection, std::string_view script, std::size_t& offset,
                          sqlite3_stmt** stmt) noexcept {
  *stmt = nullptr;
  // Start at the statement's first keyword, so an error's SQL is the failing
  // statement itself, not the whitespace or comment before it.
  offset = skipIgnorable(script, offset);
  if (offset >= script.size()) return true;
  if (script.size() - offset >= static_cast<std::size_t>(INT_MAX)) {
    return connection.fail(SQLITE_TOOBIG, "the SQL text is too long", std::string());
  }
  const char* start = script.data() + offset;
  const char* end = script.data() + script.size();
  const char* tail = nullptr;
  const int rc = connection.prepare(start, static_cast<int>(end - start), stmt, &tail);
  if (rc != SQLITE_OK) {
    std::string failed;
    try {
      failed.assign(start, tail != nullptr && tail > start ? tail : end);
      // After a syntax error SQLite's tail stops at the offending token;
      // report the whole statement: up to the first `;` that completes it
      // (or the rest of the script when none does).
      if (!isCompleteStatement(failed)) {
        const std::size_t length = firstStatementEnd(std::string_view(start, static_cast<std::size_t>(end - start)));
        failed.assign(start, length == std::string_view::npos ? end : start + length);
      }
    } catch (...) {
    }
    return connection.failFromSQLite(rc, failed);
  }
  if (*stmt == nullptr) {
    // SQLite stops at a NUL byte; text after it must not be silently dropped.
    try {
      return connection.fail(SQLITE_MISUSE, "the SQL text holds a NUL byte", std::string(script));
    } catch (...) {
      return connection.fail(SQLITE_MISUSE, "the SQL text holds a NUL byte", std::string());
    }
  }
  ++connection.preparedCount;
  offset = static_cast<std::size_t>(tail - script.data());
  return true;
}

bool runScript(Connection& connection, std::string_view sql) noexcept {
  std::size_t offset = 0;
  for (;;) {
    sqlite3_stmt* stmt = nullptr;
    if (!prepareNextStatement(connection, sql, offset, &stmt)) return false;
    if (stmt == nullptr) return true;
    int rc;
    do {
      rc = sqlite3_step(stmt);
    } while (rc == SQLITE_ROW);
    if (rc != SQLITE_DONE) connection.failFromSQLite(rc, sqlite3_sql(stmt));
    connection.finalize(stmt);
    connection.deliverObservations();
    if (rc != SQLITE_DONE) return false;
  }
}

}  // namespace sqlitebridge
