// What a DatabaseSnapshot holds: the sqlite3_snapshot, the connection whose
// read transaction pins it, and the way back to its pool, cut when the pool
// closes. Shared by the C++ DatabaseSnapshot and the Swift facade's handle;
// the pool keeps it weakly, to close it first. Internal.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>

#include "sqlitebridge/ConnectionLease.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/SQLiteHeader.hpp"

namespace sqlitebridge {

class ConnectionPool;
struct AsyncJob;

class SnapshotState {
 public:
  SnapshotState(ConnectionPool* pool, std::unique_ptr<Database> pin, sqlite3_snapshot* snapshot) noexcept;
  SnapshotState(const SnapshotState&) = delete;
  SnapshotState& operator=(const SnapshotState&) = delete;
  /// Frees the snapshot and closes the pinning connection.
  ~SnapshotState();

  /// Lends a reader of the pool opened on the snapshot (see
  /// `ConnectionPool::acquire`); false with the reason in `lease.error`
  /// (SQLITE_MISUSE once the pool closed). Give it back with the pool's
  /// `release` (`detail::releaseLease`), which lets go of the snapshot too.
  bool acquire(ConnectionLease& lease, const AsyncJob* job = nullptr) noexcept;
  /// Queues `job` (whose `snapshot` is this) for the pool's reader threads;
  /// false when the pool closed or could not queue it.
  bool submit(const std::shared_ptr<AsyncJob>& job) noexcept;
  /// Whether the pool is still open.
  bool isOpen() const noexcept;
  /// Ends a read `acquire` began (called by the pool's `release`, last).
  void leave() noexcept;
  /// The pool is closing: later reads fail, running ones are waited for,
  /// then the pinning connection closes.
  void close() noexcept;

  sqlite3_snapshot* snapshot() const noexcept { return snapshot_; }

 private:
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  ConnectionPool* pool_;
  int active_ = 0;
  std::unique_ptr<Database> pin_;
  sqlite3_snapshot* snapshot_;
};

}  // namespace sqlitebridge
