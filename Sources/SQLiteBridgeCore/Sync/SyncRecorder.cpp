// SyncRecorder (see SyncRecorder.hpp).
#include "SyncRecorder.hpp"

#include <new>
#include <utility>

#include "ChangesetAccess.hpp"
#include "SyncBookkeeping.hpp"

namespace sqlitebridge {

bool SyncRecorder::start(Database& db, Error* error) noexcept {
  captured_ = false;
  capturedSequence_ = 0;
  return startConnectionSession(db, tables_, session_, error);
}

void SyncRecorder::setRecording(bool recording) noexcept {
  if (session_) session_->setEnabled(recording);
}

bool SyncRecorder::syncs(const std::string& table) const noexcept {
  for (const std::string& name : *tables_) {
    if (sameTableName(name, table.c_str())) return true;
  }
  return false;
}

bool SyncRecorder::observes(ChangeKind, const std::string& table, const std::vector<std::string>&) {
  return syncs(table);
}

bool SyncRecorder::prepareCommit(Database& db, Error* error) noexcept {
  if (!session_ || session_->isEmpty()) return true;
  Changeset change;
  if (!session_->changeset(change, error)) return false;
  if (capturedSequence_ > 0) {
    if (!replacePendingChange(db, capturedSequence_, change, error)) return false;
  } else if (!change.isEmpty()) {
    if (!appendPendingChange(db, change, capturedSequence_, error)) return false;
  }
  captured_ = true;
  return true;
}

bool SyncRecorder::databaseWillCommit(Error* error) {
  if (captured_ || !session_ || session_->isEmpty()) return true;
  // Inside SQLite's commit hook nothing can be written: a commit that did
  // not go through the library's COMMIT would leave these changes out of
  // the sync for good.
  return changesetFailure(error, SQLITE_MISUSE,
                          "a synced table changed in a transaction committed without the library (an autocommit "
                          "statement, or COMMIT run as SQL): the sync engine records changes only in transactions "
                          "the library commits (write, inTransaction, Transaction); the change is rolled back");
}

Error SyncRecorder::failure() const noexcept {
  std::lock_guard<std::mutex> lock(failureMutex_);
  return failure_;
}

void SyncRecorder::restart(Database& db) noexcept {
  Error error;
  if (start(db, &error)) return;
  std::lock_guard<std::mutex> lock(failureMutex_);
  if (!failure_.isError()) {
    failure_ = error;
    try {
      failure_.message = "the sync engine stopped recording: " + error.message;
    } catch (const std::bad_alloc&) {
    }
  }
}

}  // namespace sqlitebridge
