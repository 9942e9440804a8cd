#include "Connection.hpp"

#include <new>

#include "ConnectionObservation.hpp"
#include "StorageFailure.hpp"

namespace sqlitebridge {

namespace {

void finalizeCached(void* context, sqlite3_stmt* stmt) noexcept { static_cast<Connection*>(context)->finalize(stmt); }

}  // namespace

Connection::Connection() noexcept { statementCache.setFinalizer(&finalizeCached, this); }

Connection::~Connection() { close(); }

ConnectionObservation* Connection::observe() noexcept {
  if (!observation) {
    observation.reset(new (std::nothrow) ConnectionObservation(*this));
    // Statements cached before have no footprint: prepared again when used.
    if (observation) statementCache.clear();
  }
  return observation.get();
}

void Connection::deliverPendingEnd() noexcept {
  if (observation->hasPendingEnd()) observation->deliverPendingEnd();
}

int Connection::prepare(const char* sql, int size, sqlite3_stmt** stmt, const char** tail) noexcept {
  ConnectionObservation* observed = observation.get();
  if (observed != nullptr) observed->willPrepare();
  const int rc = sqlite3_prepare_v2(db, sql, size, stmt, tail);
  if (observed != nullptr) observed->didPrepare(rc == SQLITE_OK ? *stmt : nullptr);
  return rc;
}

void Connection::finalize(sqlite3_stmt* stmt) noexcept {
  if (stmt == nullptr) return;
  if (observation) observation->forget(stmt);
  sqlite3_finalize(stmt);
}

void Connection::setBusyTimeout(int milliseconds) noexcept {
  busyTimeoutMilliseconds = milliseconds > 0 ? milliseconds : 0;
  // Never fails on an open handle; 0 removes the busy handler.
  if (db != nullptr) sqlite3_busy_timeout(db, busyTimeoutMilliseconds);
}

void Connection::close() noexcept {
  // Every statement must be finalized before sqlite3_close succeeds; lent
  // ones hold this connection alive, so only idle ones can be left here.
  // The hooks go first: SQLite forgets them, then they are released, so
  // none is called while closing or after.
  removeAllHooks(*this);
  statementCache.clear();
  observation.reset();
  if (db != nullptr) sqlite3_close(db);
  db = nullptr;
  unregisterOpenFile(openFile);
  openFile = FileIdentity();
  busyTimeoutMilliseconds = 0;
  keyed = false;
}

void Connection::clearError() noexcept {
  error.code = SQLITE_OK;
  error.extendedCode = SQLITE_OK;
  error.message.clear();
  error.sql.clear();
}

bool Connection::fail(int code, const std::string& message, const std::string& sql) noexcept {
  error.code = code & 0xff;
  error.extendedCode = code;
  try {
    error.message = message;
    error.sql = sql;
  } catch (...) {
    error.message.clear();
    error.sql.clear();
  }
  if (failureCount++ == failureMark) {
    try {
      firstFailureSinceMark = error;
    } catch (...) {
      firstFailureSinceMark = Error{error.code, error.extendedCode, std::string(), std::string()};
    }
  }
  return false;
}

bool Connection::failFromSQLite(int resultCode, const std::string& sql) noexcept {
  // A commit an observer vetoed fails with the observer's error.
  Error veto;
  if (observation && (resultCode & 0xff) == SQLITE_CONSTRAINT && observation->takeVeto(veto)) {
    return fail(veto.extendedCode != 0 ? veto.extendedCode : veto.code, veto.message, sql);
  }
  int extended = resultCode;
  const char* message = sqlite3_errstr(resultCode);
  if (db != nullptr) {
    const int reported = sqlite3_extended_errcode(db);
    if ((reported & 0xff) == (resultCode & 0xff)) {
      extended = reported;
      message = sqlite3_errmsg(db);
    }
  }
  return fail(extended, describeStorageFailure(extended, message != nullptr ? message : ""), sql);
}

bool Connection::begin() noexcept {
  deliverObservations();
  if (db == nullptr) {
    if (closedReason.isError()) return fail(closedReason.extendedCode, closedReason.message, closedReason.sql);
    return fail(SQLITE_MISUSE, "the database is not open", "");
  }
  if (error.code != SQLITE_OK) clearError();  // after a success there is nothing to clear
  return true;
}

}  // namespace sqlitebridge
