// UndoHistory: a Session on the writer of a queue or pool, restarted at
// the end of every transaction; each committed transaction's changeset is
// one step.
#include "sqlitebridge/UndoHistory.hpp"

#include <atomic>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ChangesetAccess.hpp"
#include "Connection.hpp"
#include "TableShape.hpp"
#include "sqlitebridge/ConnectionLease.hpp"
#include "sqlitebridge/DatabasePool.hpp"
#include "sqlitebridge/DatabaseQueue.hpp"
#include "sqlitebridge/Session.hpp"
#include "sqlitebridge/TransactionObserver.hpp"

namespace sqlitebridge {

class UndoRecorder;

namespace {

// What a moved-from history (or one memory ran out making) fails with.
constexpr const char* kNoHistory = "the undo history was moved, or could not be made (out of memory)";

}  // namespace

/// What an UndoHistory and its recorder share. The stacks are read from any
/// thread (under `mutex`) and changed on the writer only.
struct UndoState {
  ConnectionPool* pool = nullptr;
  std::optional<std::vector<std::string>> tables;
  std::size_t depth = 0;
  Error startError;
  std::atomic<int> paused{0};
  std::shared_ptr<UndoRecorder> recorder;

  mutable std::mutex mutex;
  std::deque<Changeset> undo;
  std::deque<Changeset> redo;
  // Why recording stopped (the session could not restart), reported by
  // every later undo and redo.
  Error recordingFailure;

  bool tracks(const std::string& table) const noexcept {
    if (!tables) return true;
    for (const std::string& name : *tables) {
      if (sameTableName(name, table.c_str())) return true;
    }
    return false;
  }
};

/// The writer's observer: takes each committed transaction's changeset from
/// the session as a step, then restarts the session for the next one.
/// Used on the writer only (its callbacks, and the history's leases).
class UndoRecorder : public TransactionObserver {
 public:
  explicit UndoRecorder(UndoState& state) noexcept : state_(state) {}

  /// Starts a new session on `db` over the tracked tables.
  bool start(Database& db, Error* error) noexcept { return startConnectionSession(db, state_.tables, session_, error); }
  void stop() noexcept { session_.reset(); }
  /// Stops or resumes recording the writer's changes (around an undo's or a
  /// redo's apply, which must not become a step).
  void setRecording(bool recording) noexcept {
    if (session_) session_->setEnabled(recording);
  }

  bool observes(ChangeKind, const std::string& table, const std::vector<std::string>&) override {
    return state_.tracks(table);
  }
  void databaseDidCommit(Database& db) override {
    if (!session_) return;
    Changeset step;
    Error error;
    const bool taken = session_->changeset(step, &error);
    if (taken && !step.isEmpty() && state_.paused.load() == 0) {
      try {
        std::lock_guard<std::mutex> lock(state_.mutex);
        state_.undo.push_back(std::move(step));
        while (state_.undo.size() > state_.depth) state_.undo.pop_front();
        state_.redo.clear();
      } catch (const std::bad_alloc&) {
        changesetFailure(&error, SQLITE_NOMEM, "out of memory");
        fail(error);
      }
    } else if (!taken) {
      fail(error);
    }
    restart(db);
  }
  void databaseDidRollback(Database& db) override { restart(db); }

 private:
  void restart(Database& db) noexcept {
    Error error;
    if (!start(db, &error)) fail(error);
  }
  void fail(const Error& error) noexcept {
    std::lock_guard<std::mutex> lock(state_.mutex);
    if (state_.recordingFailure.isError()) return;
    state_.recordingFailure = error;
    state_.recordingFailure.message = "the undo history stopped recording: " + error.message;
  }

  UndoState& state_;
  std::optional<Session> session_;
};

UndoHistory::UndoHistory(ConnectionPool* pool, const std::optional<std::vector<std::string>>& tables,
                         std::size_t depth) noexcept {
  try {
    state_ = std::make_shared<UndoState>();
    state_->pool = pool;
    state_->tables = tables;
    state_->depth = depth;
    state_->recorder = std::make_shared<UndoRecorder>(*state_);
  } catch (const std::bad_alloc&) {
    state_.reset();
    return;
  }
  UndoState& state = *state_;
  if (!requireSessionAPI(&state.startError)) return;
  if (depth == 0) {
    changesetFailure(&state.startError, SQLITE_MISUSE, "an undo history needs a depth of at least 1");
    return;
  }
  detail::LeaseScope scope(pool, LeaseKind::WriteWithoutTransaction);
  if (!scope.acquired()) {
    state.startError = scope.error();
    return;
  }
  Database& db = scope.database();
  if (tables) {
    std::shared_ptr<Connection> connection = ChangesetAccess::connection(db);
    for (const std::string& table : *tables) {
      TableShape shape;
      if (!readTableShape(*connection, "main", table, shape, &state.startError)) return;
      if (!shape.exists) {
        changesetFailure(&state.startError, SQLITE_ERROR, "no such table: " + table);
        return;
      }
    }
  }
  if (!state.recorder->start(db, &state.startError)) return;
  db.add(state.recorder, ObserverExtent::ObserverLifetime);
  if (db.lastError().isError()) {
    state.startError = db.lastError();
    state.recorder->stop();
  }
}

UndoHistory::UndoHistory(DatabaseQueue& queue, const std::optional<std::vector<std::string>>& tables,
                         std::size_t depth) noexcept
    : UndoHistory(queue.pool_.get(), tables, depth) {
  if (state_ && !queue.isOpen()) state_->startError = queue.openError();
}

UndoHistory::UndoHistory(DatabasePool& pool, const std::optional<std::vector<std::string>>& tables,
                         std::size_t depth) noexcept
    : UndoHistory(pool.pool_.get(), tables, depth) {
  if (state_ && !pool.isOpen()) state_->startError = pool.openError();
}

UndoHistory::UndoHistory(UndoHistory&&) noexcept = default;
UndoHistory& UndoHistory::operator=(UndoHistory&& other) noexcept {
  if (this != &other) {
    UndoHistory gone(std::move(*this));
    state_ = std::move(other.state_);
  }
  return *this;
}

UndoHistory::~UndoHistory() {
  if (!state_ || state_->startError.isError()) return;
  // The session and the observer go on the writer, which may be busy.
  detail::LeaseScope scope(state_->pool, LeaseKind::WriteWithoutTransaction);
  if (!scope.acquired()) return;
  scope.database().remove(state_->recorder.get());
  state_->recorder->stop();
}

Error UndoHistory::error() const noexcept {
  if (!state_) {
    Error error;
    changesetFailure(&error, SQLITE_MISUSE, kNoHistory);
    return error;
  }
  return state_->startError;
}

bool UndoHistory::canUndo() const noexcept { return undoCount() > 0; }

bool UndoHistory::canRedo() const noexcept { return redoCount() > 0; }

std::size_t UndoHistory::undoCount() const noexcept {
  if (!state_) return 0;
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->undo.size();
}

std::size_t UndoHistory::redoCount() const noexcept {
  if (!state_) return 0;
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->redo.size();
}

void UndoHistory::pause() const noexcept {
  if (state_) state_->paused.fetch_add(1);
}

void UndoHistory::resume() const noexcept {
  if (state_) state_->paused.fetch_sub(1);
}

bool UndoHistory::undo(Error* error, const ChangesetConflictHandler& onConflict) const noexcept {
  return move(true, error, onConflict);
}

bool UndoHistory::redo(Error* error, const ChangesetConflictHandler& onConflict) const noexcept {
  return move(false, error, onConflict);
}

bool UndoHistory::move(bool undo, Error* error, const ChangesetConflictHandler& onConflict) const noexcept {
  Error ignored;
  Error& reason = error != nullptr ? *error : ignored;
  reason = Error();
  if (!state_) return changesetFailure(&reason, SQLITE_MISUSE, kNoHistory);
  UndoState& state = *state_;
  if (state.startError.isError()) {
    reason = state.startError;
    return false;
  }
  detail::LeaseScope scope(state.pool, LeaseKind::Write);
  if (!scope.acquired()) {
    reason = scope.error();
    return false;
  }
  Changeset step;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.recordingFailure.isError()) {
      reason = state.recordingFailure;
      return false;
    }
    std::deque<Changeset>& from = undo ? state.undo : state.redo;
    if (from.empty()) return false;  // the lease rolls back its empty transaction
    try {
      step = from.back();
    } catch (const std::bad_alloc&) {
      return changesetFailure(&reason, SQLITE_NOMEM, "out of memory");
    }
  }
  Changeset change;
  if (undo) {
    if (!step.inverted(change, &reason)) return false;
  } else {
    change = std::move(step);
  }
  Database& db = scope.database();
  state.recorder->setRecording(false);
  const bool applied = db.apply(change, std::nullopt, onConflict);
  state.recorder->setRecording(true);
  if (!applied) {
    reason = db.lastError();
    try {
      reason.message = std::string(undo ? "undo" : "redo") + " refused: " + reason.message;
    } catch (const std::bad_alloc&) {
    }
    scope.finish(false);
    return false;
  }
  if (!scope.finish(true)) {
    reason = scope.error();
    return false;
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  std::deque<Changeset>& from = undo ? state.undo : state.redo;
  std::deque<Changeset>& to = undo ? state.redo : state.undo;
  try {
    to.push_back(std::move(from.back()));
    from.pop_back();
  } catch (const std::bad_alloc&) {
    from.pop_back();
  }
  return true;
}

}  // namespace sqlitebridge
