// The read transaction a fetch of a request shares with its render: the
// schema the render reads (primary keys) is the one the fetch runs on, and
// a request's rows and its prefetches are one snapshot. Internal.
#pragma once

#include <cstdint>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

class Connection;

/// A connection's hold: `PRAGMA main.schema_version`, stepped to its row and
/// not reset, so that the read transaction its step opened lasts until the
/// hold ends.
struct FetchHoldState {
  sqlite3_stmt* statement = nullptr;
  bool holding = false;
  /// How many `FetchHold`s are alive (a hold starts only inside one).
  int scopes = 0;
  /// The lent statement whose release ends the hold (`FetchHold::handTo`).
  const sqlite3_stmt* owner = nullptr;

  /// Starts the hold when one is wanted: inside a `FetchHold`, not holding
  /// yet, in autocommit mode (inside a transaction there is nothing to keep
  /// open). Sets `started`, and `mainVersion` to the version its step read
  /// then. False, recorded on `connection`, when the step fails (SQLITE_BUSY
  /// on a locked database).
  bool startIfWanted(Connection& connection, bool& started, std::int64_t& mainVersion) noexcept;
  /// Resets the statement, ending the read transaction it kept open (when
  /// no other statement of the connection is running).
  void end() noexcept;
  /// `end()` when `released` is the owner (Statement::release).
  void endIfOwnedBy(const sqlite3_stmt* released) noexcept {
    if (holding && owner == released) end();
  }
  /// Ends the hold and finalizes the statement (the connection closes).
  void finalize(Connection& connection) noexcept;
};

/// The scope of one fetch of a request (a select or a count): a primary key
/// looked up while it lives (PrimaryKeyCache) opens the read transaction,
/// and the fetch runs in that same transaction, which ends with the scope,
/// or, handed to the lent statement the request runs as, when that
/// statement is released. Without it a fetch by key would open two
/// transactions (schema, then rows), which on a rollback-journal database
/// is twice the file locking, and a schema change could fall between them.
class FetchHold {
 public:
  /// No hold (and nothing to end) when `connection` is null.
  explicit FetchHold(Connection* connection) noexcept;
  ~FetchHold();
  FetchHold(const FetchHold&) = delete;
  FetchHold& operator=(const FetchHold&) = delete;

  /// Opens the read transaction now (a fetch whose statements must all see
  /// one snapshot: a request and its prefetches), when in autocommit mode
  /// and not holding yet. False, recorded on the connection, when it cannot
  /// (SQLITE_BUSY on a locked database).
  bool open() noexcept;
  /// Keeps a hold this scope started until `statement` is released
  /// (Statement::release); nothing when there is none.
  void handTo(const sqlite3_stmt* statement) noexcept;

 private:
  Connection* connection_;
};

}  // namespace sqlitebridge
