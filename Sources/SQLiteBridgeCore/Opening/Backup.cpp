// Database::backup: SQLite's online backup API, step by step with progress.
#include <exception>

#include "Connection.hpp"
#include "StorageFailure.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// The C++ overload's progress through the C callback the loop takes; an
// exception is kept from the noexcept loop and stops the copy.
bool callProgress(void* context, int remaining, int total) {
  try {
    (*static_cast<std::function<void(int, int)>*>(context))(remaining, total);
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

bool Database::backup(Database& destination, int pagesPerStep, std::function<void(int, int)> progress) noexcept {
  return progress ? backupInto(destination, pagesPerStep, callProgress, &progress)
                  : backupInto(destination, pagesPerStep, nullptr, nullptr);
}

bool Database::backupInto(Database& destination, int pagesPerStep, bool (*progress)(void*, int, int),
                          void* context) noexcept {
  if (!beginCall()) return false;
  Connection& source = *connection_;
  if (!destination.isOpen()) return source.fail(SQLITE_MISUSE, "the backup's destination database is not open", "");
  sqlite3* target = destination.connection_->db;
  if (target == source.db) return source.fail(SQLITE_MISUSE, "cannot back up a database into itself", "");
  if (pagesPerStep == 0) {
    return source.fail(SQLITE_MISUSE, "pagesPerStep is 0: a backup step must copy at least one page (-1: all)", "");
  }
  destination.connection_->clearError();
  sqlite3_backup* backup = sqlite3_backup_init(target, "main", source.db, "main");
  // Failures are reported by the destination connection (SQLite's rule).
  const auto failFromDestination = [&](int code) {
    const char* message = sqlite3_errmsg(target);
    const int extended = sqlite3_extended_errcode(target);
    const int reported = (extended & 0xff) == (code & 0xff) ? extended : code;
    return source.fail(reported,
                       describeStorageFailure(reported, std::string("backup failed: ") +
                                                            (message != nullptr ? message : sqlite3_errstr(code))),
                       "");
  };
  if (backup == nullptr) return failFromDestination(sqlite3_errcode(target));
  int rc = SQLITE_OK;
  bool stopped = false;
  do {
    rc = sqlite3_backup_step(backup, pagesPerStep < 0 ? -1 : pagesPerStep);
    if (rc != SQLITE_OK && rc != SQLITE_DONE) break;
    if (progress != nullptr && !progress(context, sqlite3_backup_remaining(backup), sqlite3_backup_pagecount(backup))) {
      stopped = true;
      break;
    }
  } while (rc != SQLITE_DONE);
  const int finished = sqlite3_backup_finish(backup);
  if (stopped) return source.fail(SQLITE_ABORT, "the backup's progress callback failed (threw); the copy stopped", "");
  if (rc != SQLITE_OK && rc != SQLITE_DONE) return failFromDestination(rc);
  if (finished != SQLITE_OK) return failFromDestination(finished);
  return true;
}

}  // namespace sqlitebridge
