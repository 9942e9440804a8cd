// Database snapshots of a DatabasePool (issue 39): reads that all see the
// database as it was when the snapshot was made.
#pragma once

#include <functional>
#include <memory>

#include "Export.hpp"
#include "Database.hpp"
#include "Error.hpp"

namespace sqlitebridge {

class DatabasePool;
class SnapshotState;

namespace interop {
struct SnapshotAccess;
}  // namespace interop

/// Whether the linked SQLite has the snapshot API (it was built with
/// SQLITE_ENABLE_SNAPSHOT): the current engine does, Apple's system SQLite
/// does, Debian's does not. Without it `DatabasePool::makeSnapshot` fails
/// with SQLITE_ERROR saying so.
SQLITEBRIDGE_API bool snapshotsAvailable() noexcept;

/// One state of a `DatabasePool`'s database, kept for as long as this
/// object lives: every `read` sees the database exactly as it was when
/// `DatabasePool::makeSnapshot` made it, whatever the pool's writer
/// committed or checkpointed since.
///
/// The snapshot keeps a read transaction of its own open on that state (a
/// connection of its own), so that no checkpoint can copy later pages over
/// it: PASSIVE checkpoints (and the writer's automatic ones) copy only what
/// the snapshot does not need; FULL, RESTART and TRUNCATE checkpoints cannot
/// finish while it lives (they wait for the busy timeout, then fail with
/// SQLITE_BUSY, having copied what they could), and the write-ahead log
/// grows until the snapshot is destroyed. Keep snapshots short-lived.
///
/// Reads run on the pool's reader connections (opened on the snapshot with
/// `sqlite3_snapshot_open`), so several run at once, beside the pool's own
/// reads and writes, within `Configuration::maximumReaderCount`.
///
/// Moved, never copied. A default-constructed or moved-from snapshot, and a
/// snapshot whose pool was closed (destroyed or moved from), fail every
/// `read` with SQLITE_MISUSE saying so; the pool's destructor waits for
/// reads that are running.
class SQLITEBRIDGE_API DatabaseSnapshot {
 public:
  /// A snapshot of nothing: `read` fails with SQLITE_MISUSE.
  DatabaseSnapshot() noexcept;
  /// Takes over the other snapshot; the moved-from one reads nothing.
  DatabaseSnapshot(DatabaseSnapshot&&) noexcept;
  /// Lets go of this snapshot, then takes over the other one.
  DatabaseSnapshot& operator=(DatabaseSnapshot&&) noexcept;
  DatabaseSnapshot(const DatabaseSnapshot&) = delete;
  DatabaseSnapshot& operator=(const DatabaseSnapshot&) = delete;
  /// Ends the snapshot's read transaction (checkpoints may pass it again).
  ~DatabaseSnapshot();

  /// Whether this holds a snapshot (made, not moved from), and its pool
  /// is still open.
  bool isValid() const noexcept;

  /// fn(Database&) on a reader connection in a read transaction on the
  /// snapshot's state; waits for a free reader as `DatabasePool::read`
  /// does. Reader connections are read-only: a write inside `fn` fails
  /// with SQLITE_READONLY. Returns what `fn` returns when no statement
  /// failed inside it; false, with the reason in `*error` (cleared on
  /// success, and when `fn` returned false without a failed statement),
  /// when the snapshot holds nothing or its pool was closed
  /// (SQLITE_MISUSE), when called from inside one of the pool's blocks or
  /// another read of its snapshots (SQLITE_MISUSE, reentrant access), when
  /// the reader cannot open the snapshot (SQLite's error, e.g.
  /// SQLITE_ERROR_SNAPSHOT), or with the first statement that failed
  /// inside `fn`. An exception `fn` throws passes through (the reader is
  /// given back first).
  bool read(const std::function<bool(Database&)>& fn, Error* error = nullptr);

 private:
  friend class DatabasePool;
  friend struct interop::SnapshotAccess;
  explicit DatabaseSnapshot(std::shared_ptr<SnapshotState> state) noexcept;
  std::shared_ptr<SnapshotState> state_;
};

}  // namespace sqlitebridge
