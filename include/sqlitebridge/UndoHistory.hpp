// Undo and redo of the transactions a queue or pool commits, built on
// changesets.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Changeset.hpp"
#include "Error.hpp"
#include "Export.hpp"

namespace sqlitebridge {

class ConnectionPool;
class DatabasePool;
class DatabaseQueue;
struct UndoState;

/// Undo and redo over a `DatabaseQueue` or `DatabasePool`: each write
/// transaction its writer commits that changes a tracked table becomes one
/// step (its changeset, recorded by a `Session` on the writer); `undo`
/// applies the last step's inverse, `redo` applies it again.
///
///     UndoHistory history(queue, std::nullopt, 100);
///     queue.write([](Database& db) { return db.execute("DELETE FROM notes WHERE id = 1"); });
///     Error error;
///     if (!history.undo(&error) && error.isError()) std::cerr << error.message;
///
/// - A step records what its transaction changed in the tracked tables (all
///   tables with a primary key of the main schema when `tables` is
///   `nullopt`); a transaction that changed none of them is no step.
/// - `depth` steps are kept; the oldest is forgotten beyond. A new step
///   clears what could be redone.
/// - A step whose rows changed since (by a transaction made while paused,
///   another connection or process) is refused: `undo`/`redo` roll back and
///   fail with SQLITE_ABORT naming the table and the conflict, applying
///   nothing, unless `onConflict` answers otherwise.
/// - The undo or redo runs in a write transaction of its own on the writer
///   and is not itself recorded as a step; observers are told of it as of
///   any write.
///
/// Thread-safe: every call may come from any thread (none from inside one
/// of the queue's or pool's own blocks: SQLITE_MISUSE). The queue or pool
/// must outlive the history. Move-only.
class SQLITEBRIDGE_API UndoHistory {
 public:
  /// Starts recording the writer of `queue`. `error()` tells how it went:
  /// the queue's open error, SQLITE_ERROR for a tracked table without a
  /// PRIMARY KEY, the session extension's absence, SQLITE_MISUSE for a depth
  /// of 0.
  UndoHistory(DatabaseQueue& queue, const std::optional<std::vector<std::string>>& tables, std::size_t depth) noexcept;
  /// Starts recording the writer of `pool` (as for a queue).
  UndoHistory(DatabasePool& pool, const std::optional<std::vector<std::string>>& tables, std::size_t depth) noexcept;
  /// Takes over the other history (which then has no steps, and its
  /// `undo`, `redo` and `error()` say SQLITE_MISUSE).
  UndoHistory(UndoHistory&&) noexcept;
  /// Stops this history's recording, then takes over the other one.
  UndoHistory& operator=(UndoHistory&&) noexcept;
  UndoHistory(const UndoHistory&) = delete;
  UndoHistory& operator=(const UndoHistory&) = delete;
  /// Stops recording (waits for the writer to do so).
  ~UndoHistory();

  /// Why the history did not start; code 0 when it did.
  Error error() const noexcept;
  /// Whether there is a step to undo.
  bool canUndo() const noexcept;
  /// Whether there is a step to redo.
  bool canRedo() const noexcept;
  /// How many steps can be undone.
  std::size_t undoCount() const noexcept;
  /// How many steps can be redone.
  std::size_t redoCount() const noexcept;

  /// Undoes the last step: true when it did; false with `*error` clear
  /// (code 0) when there was nothing to undo; false with `*error` set when
  /// it failed (a conflict, SQLITE_BUSY, ...), nothing applied and the step
  /// kept. `onConflict` (empty: abort on every conflict) is told each
  /// conflict, as `Database::apply` tells it.
  bool undo(Error* error = nullptr, const ChangesetConflictHandler& onConflict = nullptr) const noexcept;
  /// Redoes the last undone step (as `undo`).
  bool redo(Error* error = nullptr, const ChangesetConflictHandler& onConflict = nullptr) const noexcept;

  /// Stops recording until as many `resume` calls: the transactions the
  /// writer commits meanwhile (from any thread) are not steps.
  void pause() const noexcept;
  /// Ends one `pause`.
  void resume() const noexcept;
  /// Runs `fn()` paused and returns what it returns (resuming when it
  /// throws too).
  template <typename Fn>
  auto paused(Fn&& fn) const -> decltype(fn()) {
    struct Resume {
      const UndoHistory* history;
      ~Resume() { history->resume(); }
    };
    pause();
    Resume resume{this};
    return fn();
  }

 private:
  UndoHistory(ConnectionPool* pool, const std::optional<std::vector<std::string>>& tables, std::size_t depth) noexcept;
  bool move(bool undo, Error* error, const ChangesetConflictHandler& onConflict) const noexcept;
  std::shared_ptr<UndoState> state_;
};

}  // namespace sqlitebridge
