#include "Connection.hpp"

#include <cstdint>
#include <new>
#include <vector>

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
  sessions.closeAll();
  fetchHold.finalize(*this);
  primaryKeys.finalizeStatements(*this);
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
  const bool failed = fail(extended, describeStorageFailure(extended, message != nullptr ? message : ""), sql);
  if ((extended & 0xff) == SQLITE_IOERR) resyncJournalAfterFailedCommit();
  return failed;
}

// A commit in TRUNCATE or PERSIST mode ends by truncating (or zeroing the
// header of) the journal and syncing it; when that sync fails, the old,
// valid journal may still be what the disk holds, and the next transaction
// would write its own journal over it: a power cut before that journal's
// sync can leave the old header over a mix of records, which SQLite's
// sampled checksum may accept (docs/RELIABILITY.md, promise 15). With no
// transaction open, the journal holds only the committed state's empty
// journal: syncing it again makes that durable before anything else is
// written. (When the sync fails again, the message says so; closing the
// connection there is still to decide: statements may be in flight.)
void Connection::resyncJournalAfterFailedCommit() noexcept {
  if (db == nullptr || sqlite3_get_autocommit(db) == 0) return;
  const char* file = sqlite3_db_filename(db, "main");
  if (file == nullptr || *file == '\0') return;
  sqlite3_vfs* vfs = nullptr;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK || vfs == nullptr) return;
  // SQLite closes the journal when the transaction ends: open it again (it
  // exists in TRUNCATE and PERSIST mode; in DELETE mode there is none).
  std::vector<std::uint64_t> storage;
  try {
    storage.resize((static_cast<std::size_t>(vfs->szOsFile) + 7) / 8 + 1);
  } catch (...) {
    return;  // out of memory: the error already recorded stands
  }
  sqlite3_file* journal = reinterpret_cast<sqlite3_file*>(storage.data());
  int flags = 0;
  if (vfs->xOpen(vfs, sqlite3_filename_journal(file), journal, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MAIN_JOURNAL,
                 &flags) != SQLITE_OK) {
    if (journal->pMethods != nullptr) journal->pMethods->xClose(journal);
    return;
  }
  const int rc = journal->pMethods->xSync(journal, SQLITE_SYNC_NORMAL);
  journal->pMethods->xClose(journal);
  if (rc == SQLITE_OK) return;
  try {
    error.message += " (the journal could not be synced after the failed commit either)";
  } catch (...) {
  }
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
