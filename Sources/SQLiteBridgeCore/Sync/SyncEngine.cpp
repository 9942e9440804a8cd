// SyncEngine: starts the recorder on the writer, counts pending changes,
// records the rows already there, and runs a round through its own hub.
#include <new>
#include <utility>

#include "ChangesetAccess.hpp"
#include "Connection.hpp"
#include "SyncBookkeeping.hpp"
#include "SyncExistingRows.hpp"
#include "SyncState.hpp"
#include "TableShape.hpp"
#include "sqlitebridge/ConnectionLease.hpp"
#include "sqlitebridge/DatabasePool.hpp"
#include "sqlitebridge/DatabaseQueue.hpp"
#include "sqlitebridge/Sync.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kNoEngine = "the sync engine was moved, or could not be made (out of memory)";

// Every synced table exists and has a PRIMARY KEY (SQLite's session
// records nothing of a table without one), and none is the engine's own.
bool checkSyncedTables(Connection& connection, const std::vector<std::string>& tables, Error* error) noexcept {
  if (tables.empty()) return changesetFailure(error, SQLITE_MISUSE, "a sync engine needs at least one table");
  try {
    for (const std::string& table : tables) {
      if (isSyncBookkeepingTable(table)) {
        return changesetFailure(error, SQLITE_MISUSE, table + " is the sync engine's own table; it cannot be synced");
      }
      TableShape shape;
      if (!readTableShape(connection, "main", table, shape, error)) return false;
      if (!shape.exists) return changesetFailure(error, SQLITE_ERROR, "no such table: " + table);
      if (!shape.hasPrimaryKey()) {
        return changesetFailure(error, SQLITE_ERROR,
                                "table " + table +
                                    " has no PRIMARY KEY: a synced table needs one (text keys or UUIDs, so that rows "
                                    "made on different devices do not collide)");
      }
    }
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  return true;
}

// `body` on a lease of `kind` of the engine's writer pool, unless the
// engine did not start (`started`, into `*error`) or the lease is refused.
template <typename Body>
bool onLease(const std::shared_ptr<SyncState>& state, const Error& started, LeaseKind kind, Error* error,
             Body&& body) noexcept {
  if (started.isError()) {
    if (error != nullptr) *error = started;
    return false;
  }
  detail::LeaseScope scope(state->pool, kind);
  if (!scope.acquired()) {
    if (error != nullptr) *error = scope.error();
    return false;
  }
  return body(scope.database());
}

}  // namespace

SyncConflictPolicy SyncConflictPolicy::hubOrderWins() noexcept { return SyncConflictPolicy(); }

SyncConflictPolicy SyncConflictPolicy::custom(SyncConflictHandler handler) noexcept {
  SyncConflictPolicy policy;
  policy.handler = std::move(handler);
  return policy;
}

ChangesetConflictResolution SyncConflictPolicy::hubOrderWinsResolution(const ChangesetConflict& conflict,
                                                                       bool) noexcept {
  switch (conflict.kind) {
    case ChangesetConflictKind::Data:
    case ChangesetConflictKind::Conflict:
      // The change being applied is the later one in the log's order.
      return ChangesetConflictResolution::Replace;
    case ChangesetConflictKind::NotFound:
    case ChangesetConflictKind::Constraint:
    case ChangesetConflictKind::ForeignKey:
      break;
  }
  return ChangesetConflictResolution::Omit;
}

SyncEngine::SyncEngine(ConnectionPool* pool, const std::vector<std::string>& tables, const std::string& device,
                       std::shared_ptr<SyncHub> hub, SyncConflictPolicy policy) noexcept {
  try {
    state_ = std::make_shared<SyncState>();
    state_->pool = pool;
    state_->tables = tables;
    state_->device = device;
    state_->hub = std::move(hub);
    state_->policy = std::move(policy);
    state_->recorder = std::make_shared<SyncRecorder>(tables);
  } catch (const std::bad_alloc&) {
    state_.reset();
    return;
  }
  SyncState& state = *state_;
  if (!requireSessionAPI(&state.startError)) return;
  if (device.empty()) {
    changesetFailure(&state.startError, SQLITE_MISUSE, "a sync engine needs a device name");
    return;
  }
  detail::LeaseScope scope(pool, LeaseKind::Write);
  if (!scope.acquired()) {
    state.startError = scope.error();
    return;
  }
  Database& db = scope.database();
  std::shared_ptr<Connection> connection = ChangesetAccess::connection(db);
  if (!checkSyncedTables(*connection, tables, &state.startError) ||
      !prepareSyncBookkeeping(db, device, &state.startError) || !state.recorder->start(db, &state.startError)) {
    return;
  }
  db.add(state.recorder, ObserverExtent::ObserverLifetime);
  if (db.lastError().isError()) {
    state.startError = db.lastError();
  } else if (!addCommitPreparer(*connection, state.recorder)) {
    state.startError = connection->error;
  }
  if (state.startError.isError() || !scope.finish(true)) {
    if (!state.startError.isError()) state.startError = scope.error();
    db.remove(state.recorder.get());
    removeCommitPreparer(*connection, state.recorder.get());
    state.recorder->stop();
  }
}

SyncEngine::SyncEngine(DatabaseQueue& queue, const std::vector<std::string>& tables, const std::string& device,
                       std::shared_ptr<SyncHub> hub, SyncConflictPolicy policy) noexcept
    : SyncEngine(queue.pool_.get(), tables, device, std::move(hub), std::move(policy)) {
  if (state_ && !queue.isOpen()) state_->startError = queue.openError();
}

SyncEngine::SyncEngine(DatabasePool& pool, const std::vector<std::string>& tables, const std::string& device,
                       std::shared_ptr<SyncHub> hub, SyncConflictPolicy policy) noexcept
    : SyncEngine(pool.pool_.get(), tables, device, std::move(hub), std::move(policy)) {
  if (state_ && !pool.isOpen()) state_->startError = pool.openError();
}

SyncEngine::SyncEngine(SyncEngine&&) noexcept = default;

SyncEngine& SyncEngine::operator=(SyncEngine&& other) noexcept {
  if (this != &other) {
    SyncEngine gone(std::move(*this));
    state_ = std::move(other.state_);
  }
  return *this;
}

SyncEngine::~SyncEngine() {
  if (!state_ || state_->startError.isError()) return;
  // The session, the observer and the preparer go on the writer, which
  // may be busy.
  detail::LeaseScope scope(state_->pool, LeaseKind::WriteWithoutTransaction);
  if (!scope.acquired()) return;
  Database& db = scope.database();
  db.remove(state_->recorder.get());
  if (std::shared_ptr<Connection> connection = ChangesetAccess::connection(db)) {
    removeCommitPreparer(*connection, state_->recorder.get());
  }
  state_->recorder->stop();
}

Error SyncEngine::error() const noexcept {
  if (!state_) {
    Error error;
    changesetFailure(&error, SQLITE_MISUSE, kNoEngine);
    return error;
  }
  return state_->startError;
}

std::string SyncEngine::device() const { return state_ ? state_->device : std::string(); }

bool SyncEngine::pendingCount(std::int64_t& count, Error* error) const noexcept {
  return onLease(state_, this->error(), LeaseKind::Read, error,
                 [&](Database& db) { return countPendingChanges(db, count, error); });
}

bool SyncEngine::recordExistingRows(std::int64_t& rows, Error* error) noexcept {
  rows = 0;
  return onLease(state_, this->error(), LeaseKind::WriteWithoutTransaction, error,
                 [&](Database& db) { return recordExistingSyncedRows(db, state_->tables, rows, error); });
}

bool SyncEngine::sync(SyncReport& report, Error* error) noexcept {
  Error ignored;
  Error& reason = error != nullptr ? *error : ignored;
  reason = this->error();
  if (reason.isError()) return false;
  SyncHub* hub = state_->hub.get();
  if (hub == nullptr) {
    return changesetFailure(&reason, SQLITE_MISUSE,
                            "this sync engine has no hub: its rounds are driven by the caller (SyncRound)");
  }
  std::lock_guard<std::mutex> lock(state_->syncMutex);
  SyncRound round(*this);
  while (true) {
    switch (round.step()) {
      case SyncRound::Step::Pull: {
        std::vector<SyncEntry> page;
        Error failure;
        if (hub->entries(round.after(), round.limit(), page, &failure)) {
          round.pulled(page);
        } else {
          round.hubFailed(failure);
        }
        break;
      }
      case SyncRound::Step::Push: {
        bool appended = false;
        Error failure;
        if (hub->append(round.entriesToPush(), round.after(), appended, &failure)) {
          round.pushed(appended);
        } else {
          round.hubFailed(failure);
        }
        break;
      }
      case SyncRound::Step::Finished:
        try {
          report = round.report();
        } catch (const std::bad_alloc&) {
          return changesetFailure(&reason, SQLITE_NOMEM, "out of memory");
        }
        reason = Error();
        return true;
      case SyncRound::Step::Failed:
        reason = round.error();
        return false;
    }
  }
}

}  // namespace sqlitebridge
