#include "Connection.hpp"

namespace sqlitebridge {

Connection::~Connection() { close(); }

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
  int extended = resultCode;
  const char* message = sqlite3_errstr(resultCode);
  if (db != nullptr) {
    const int reported = sqlite3_extended_errcode(db);
    if ((reported & 0xff) == (resultCode & 0xff)) {
      extended = reported;
      message = sqlite3_errmsg(db);
    }
  }
  return fail(extended, message != nullptr ? message : "", sql);
}

bool Connection::begin() noexcept {
  if (db == nullptr) {
    if (closedReason.isError()) return fail(closedReason.extendedCode, closedReason.message, closedReason.sql);
    return fail(SQLITE_MISUSE, "the database is not open", "");
  }
  if (error.code != SQLITE_OK) clearError();  // after a success there is nothing to clear
  return true;
}

}  // namespace sqlitebridge
