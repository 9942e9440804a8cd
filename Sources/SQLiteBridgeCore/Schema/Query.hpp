// Queries the core runs for itself (schema lookups), with text arguments and
// a per-row callback. Internal.
#pragma once

#include <initializer_list>
#include <string>
#include <type_traits>

#include "Connection.hpp"
#include "ConnectionObservation.hpp"

namespace sqlitebridge {

/// Runs the single statement `sql` with `arguments` bound as text to ?1, ?2,
/// ... and calls `onRow(stmt)` for each row; an `onRow` that returns bool
/// stops the query (successfully) by returning false. Records the error on
/// `connection` and returns false on failure.
/// The core's own statements run while it lives: the observation leaves
/// them out of what a recorded fetch reads (ConnectionObservation).
class OwnLookup {
 public:
  explicit OwnLookup(Connection& connection) noexcept : observation_(connection.observation.get()) {
    if (observation_ != nullptr) observation_->beginOwnLookup();
  }
  ~OwnLookup() {
    if (observation_ != nullptr) observation_->endOwnLookup();
  }
  OwnLookup(const OwnLookup&) = delete;
  OwnLookup& operator=(const OwnLookup&) = delete;

 private:
  ConnectionObservation* observation_;
};

template <typename OnRow>
bool query(Connection& connection, const std::string& sql, std::initializer_list<std::string> arguments, OnRow onRow) {
  const OwnLookup own(connection);
  sqlite3_stmt* stmt = nullptr;
  int rc = connection.prepare(sql.c_str(), -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return connection.failFromSQLite(rc, sql);
  int index = 1;
  for (const std::string& argument : arguments) {
    sqlite3_bind_text64(stmt, index++, argument.data(), argument.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if constexpr (std::is_same_v<decltype(onRow(stmt)), bool>) {
      if (!onRow(stmt)) {
        rc = SQLITE_DONE;
        break;
      }
    } else {
      onRow(stmt);
    }
  }
  if (rc != SQLITE_DONE) connection.failFromSQLite(rc, sql);
  connection.finalize(stmt);
  return rc == SQLITE_DONE;
}

/// The text of column `index` of `stmt`'s current row ("" for NULL).
inline std::string columnText(sqlite3_stmt* stmt, int index) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, index));
  return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, index))) : std::string();
}

}  // namespace sqlitebridge
