// Statements the query layer prepares once per connection and steps itself
// (the schema fingerprint's, the fetch hold's): prepared through the
// connection (so that it finalizes them), stepped to their one row. Internal.
#pragma once

#include "Connection.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

/// `*stmt` prepared on first use; false, recorded on `connection`, when it
/// cannot be.
inline bool prepareOnce(Connection& connection, sqlite3_stmt** stmt, const char* sql) noexcept {
  if (*stmt != nullptr) return true;
  const int rc = connection.prepare(sql, -1, stmt, nullptr);
  if (rc == SQLITE_OK) return true;
  *stmt = nullptr;
  return connection.failFromSQLite(rc, sql);
}

/// Steps `stmt` to its row and calls `read(stmt)`; resets it then unless
/// `keep` (a kept statement holds its read transaction open). False,
/// recorded on `connection` (reset), when the step gives no row.
template <typename Read>
bool stepOneRow(Connection& connection, sqlite3_stmt* stmt, bool keep, Read&& read) noexcept {
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) read(stmt);
  if (rc != SQLITE_ROW || !keep) {
    const int reset = sqlite3_reset(stmt);
    if (rc != SQLITE_ROW) return connection.failFromSQLite(reset != SQLITE_OK ? reset : rc, sqlite3_sql(stmt));
  }
  return true;
}

/// `PRAGMA main.schema_version`: the main schema's version, in the read
/// transaction its step opens (or the one already open).
constexpr const char* kMainSchemaVersionSQL = "PRAGMA main.schema_version";

}  // namespace sqlitebridge
