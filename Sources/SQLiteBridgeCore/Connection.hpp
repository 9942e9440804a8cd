// The state behind a Database and the Statements it prepares: the sqlite3
// handle and the last error. Shared (std::shared_ptr) so that statements keep
// it alive and record their errors where the Database reports them. Internal.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "CommitPreparation.hpp"
#include "FetchHold.hpp"
#include "Hooks.hpp"
#include "OpenFiles.hpp"
#include "PrimaryKeyCache.hpp"
#include "SessionRegistry.hpp"
#include "StatementCache.hpp"
#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

class ConnectionObservation;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection() noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  /// Closes the handle. Statements hold the connection, so none is left.
  ~Connection();

  sqlite3* db = nullptr;
  std::string path;
  /// The busy timeout given to SQLite (which cannot be asked for it), in
  /// milliseconds; 0 when statements fail at once.
  int busyTimeoutMilliseconds = 0;
  Error error;
  /// Statements lent to execute, rows, forEachRow, ... by SQL text.
  StatementCache statementCache;
  /// The primary keys query requests rendered with, while the schema is
  /// unchanged (Query/PrimaryKeyCache.hpp).
  PrimaryKeyCache primaryKeys;
  /// The read transaction a request's fetch shares with its render
  /// (Query/FetchHold.hpp).
  FetchHoldState fetchHold;
  /// The sessions recording this connection (Changesets/SessionRegistry.hpp),
  /// deleted by `close` before the handle closes.
  SessionRegistry sessions;
  /// What writes into a transaction just before the core commits it
  /// (Schema/CommitPreparation.hpp: the sync engine's pending changes).
  CommitPreparers commitPreparers;
  /// Statements compiled on this connection so far (to observe the cache).
  std::int64_t preparedCount = 0;
  /// The main database file while open (unknown for in-memory and temporary
  /// databases), recorded in the process's open files until `close`.
  FileIdentity openFile;
  /// Whether the connection was opened with an encryption key
  /// (Configuration::key): only such a database can be re-keyed.
  bool keyed = false;

  /// Failures recorded so far, and the first one since `failureMark` (a
  /// queue or pool block starting sets the mark to the count, to tell
  /// whether a statement failed inside the block).
  std::uint64_t failureCount = 0;
  std::uint64_t failureMark = 0;
  Error firstFailureSinceMark;
  /// Why this connection is closed, when it was made closed on purpose (a
  /// queue's block that could not run gets one); `begin` reports it instead
  /// of "the database is not open".
  Error closedReason;

  // MARK: Observation (Observation/ConnectionObservation.hpp)
  /// The connection's observation, made by `observe()` on first use.
  std::unique_ptr<ConnectionObservation> observation;
  /// The observation, made now if there is none (the statement cache is
  /// cleared then, so that every statement from now on has a footprint);
  /// null when out of memory.
  ConnectionObservation* observe() noexcept;
  /// Tells observers of a transaction that ended, when one did (the safe
  /// points: each call's start, each statement's reset and release).
  void deliverObservations() noexcept {
    if (observation) deliverPendingEnd();
  }

  /// sqlite3_prepare_v2 on this connection, keeping the statement's
  /// footprint while the connection is observed. Every statement the core
  /// prepares goes through here, and is finalized by `finalize`.
  int prepare(const char* sql, int size, sqlite3_stmt** stmt, const char** tail) noexcept;
  /// sqlite3_finalize, forgetting the statement's footprint.
  void finalize(sqlite3_stmt* stmt) noexcept;

  /// Sets SQLite's busy timeout and remembers it; 0 or less fails at once.
  void setBusyTimeout(int milliseconds) noexcept;

  /// Finalizes cached statements and closes the handle, keeping the error.
  void close() noexcept;

  /// Forgets the last error (a call is starting).
  void clearError() noexcept;
  /// Records an error the wrapper detected; returns false for `return fail(...)`.
  bool fail(int code, const std::string& message, const std::string& sql) noexcept;
  /// Records the error SQLite reported with result code `resultCode`, taking
  /// the message and extended code from the handle; returns false.
  bool failFromSQLite(int resultCode, const std::string& sql) noexcept;
  /// After an I/O error with no transaction open: syncs the main journal
  /// again (see Connection.cpp).
  void resyncJournalAfterFailedCommit() noexcept;
  /// Fails with SQLITE_MISUSE when the connection is closed; otherwise
  /// clears the last error. Every public call starts with it.
  bool begin() noexcept;

  // MARK: Tracing and hooks (Hooks.hpp, Tracing.cpp, Hooks.cpp)
  /// The trace, commit, rollback and change callbacks installed on `db`;
  /// each released when replaced or removed, and by `close` (SQLite is told
  /// to forget them first, so it never calls a released one).
  ConnectionHooks hooks;

 private:
  void deliverPendingEnd() noexcept;
};

}  // namespace sqlitebridge
