#include "OpenConnection.hpp"

namespace sqlitebridge {

namespace {

int openFlags(OpenMode mode) noexcept {
  // NOMUTEX: a Database is confined to one thread at a time, so SQLite's
  // per-call connection mutex would only cost time.
  const int base = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case OpenMode::ReadOnly:
      return base | SQLITE_OPEN_READONLY;
    case OpenMode::ReadWrite:
      return base | SQLITE_OPEN_READWRITE;
    case OpenMode::ReadWriteCreate:
      break;
  }
  return base | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
}

// The open's first read met a lock that outlived the busy timeout: say so,
// since SQLite's "database is locked" does not tell which lock or how long.
void explainBusyOpen(Connection& connection) {
  const int timeout = connection.busyTimeoutMilliseconds;
  connection.error.message +=
      timeout > 0
          ? ": another connection held the lock for longer than the busy timeout (" + std::to_string(timeout) + " ms)"
          : ": another connection holds the lock and the busy timeout is 0 (fail at once)";
}

}  // namespace

bool openConnection(Connection& connection, const std::string& path, OpenMode mode,
                    const Configuration& configuration) noexcept {
  connection.close();
  connection.clearError();
  // SQLite reads the path as a C string: "a.db\0x" would open "a.db".
  if (path.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_CANTOPEN, "the database path holds a NUL byte", std::string());
  }
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, openFlags(mode), nullptr);
  if (rc != SQLITE_OK) {
    const int extended = db != nullptr ? sqlite3_extended_errcode(db) : rc;
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    try {
      message += ": " + path;
    } catch (...) {
    }
    return connection.fail(extended, message, std::string());
  }
  connection.db = db;
  sqlite3_extended_result_codes(db, 1);
  // Before anything reads the file: a writer, a commit or a WAL checkpoint
  // of another connection is waited for, not reported as "locked".
  connection.setBusyTimeout(configuration.busyTimeoutMilliseconds);
  // Reading the schema touches page 1, so garbage fails now, clearly, rather
  // than at the first query.
  const char* probe = "SELECT count(*) FROM sqlite_schema";
  sqlite3_stmt* stmt = nullptr;
  int probeRc = sqlite3_prepare_v2(db, probe, -1, &stmt, nullptr);
  if (probeRc == SQLITE_OK) {
    probeRc = sqlite3_step(stmt);
    if (probeRc == SQLITE_ROW) probeRc = SQLITE_OK;
  }
  sqlite3_finalize(stmt);
  // Before the caller's first statement, so that it is never run without.
  if (probeRc == SQLITE_OK) {
    probeRc = sqlite3_exec(db, configuration.foreignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF",
                           nullptr, nullptr, nullptr);
  }
  if (probeRc != SQLITE_OK) {
    connection.failFromSQLite(probeRc, std::string());
    try {
      if ((probeRc & 0xff) == SQLITE_BUSY) explainBusyOpen(connection);
      connection.error.message += ": " + path;
    } catch (...) {
    }
    connection.close();
    return false;
  }
  try {
    // Database::path() is empty for in-memory and temporary databases
    // (":memory:", "", "file::memory:", ...), which have no file name.
    const char* file = sqlite3_db_filename(db, "main");
    connection.path = file == nullptr || *file == '\0' ? std::string() : path;
    if (file != nullptr && *file != '\0') {
      connection.openFile = FileIdentity::of(file);
      registerOpenFile(connection.openFile);
    }
  } catch (...) {
    connection.close();
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
  return true;
}

}  // namespace sqlitebridge
