// For the Swift facade only; no stability promise. Sharing a database as
// Swift drives it: the leases of `DatabaseQueue` and `DatabasePool`, the
// jobs their own threads run, checkpoint and interrupt. Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Concurrency/ConcurrencyAccess.cpp (the rest is
// inline).
#pragma once

#include <memory>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"

namespace sqlitebridge {
struct AsyncJob;
class Connection;
}  // namespace sqlitebridge

namespace sqlitebridge::interop {

/// What `Database::interrupt` reaches, held apart from the `Database` so that
/// another thread can interrupt without touching the Swift `Database`'s
/// stored C++ value (which its owner thread uses meanwhile). It does not
/// keep the connection open: once the connection closed, `interrupt` does
/// nothing.
struct SQLITEBRIDGE_API InterruptHandle {
  /// The connection, not kept open.
  std::weak_ptr<Connection> connection;

  /// Interrupts the statement running on the connection, if it is open.
  void interrupt() const noexcept;
  /// The handle of `database`'s connection.
  static InterruptHandle of(const Database& database) noexcept {
    InterruptHandle handle;
    handle.connection = database.connection_;
    return handle;
  }
};

/// A job for a queue's or pool's own threads (its state is the core's);
/// copies share it.
struct AsyncJobHandle {
  /// The job; null when making it failed.
  std::shared_ptr<AsyncJob> job;
};

/// The leases of `DatabaseQueue` and `DatabasePool`, which their C++
/// templates take with C++ blocks, for the Swift facade to take with Swift
/// ones: acquire (which connection, the locks, the transaction, retries and
/// reentrancy are the core's), run the block, finish, release. And the
/// pool's threads, which run async blocks so that no caller's thread waits.
struct SQLITEBRIDGE_API ConcurrencyAccess {
  /// A block's callback: `lease` is null when the job was cancelled before
  /// it started (nothing touched the database); its `database` is null when
  /// acquiring failed (the reason in `lease->error`). Otherwise the block
  /// runs and calls `finish`; the core releases the lease afterwards.
  using Run = void (*)(SwiftBox box, ConnectionLease* lease);
  /// Called once after `run` and after the lease went back: the job's last
  /// use of `box` (resume the caller here, then `box` may be freed).
  using Complete = ReleaseBox;

  /// Acquires a lease of `kind` on the queue; false with the reason in
  /// `lease.error`.
  static bool acquireQueue(const DatabaseQueue& queue, LeaseKind kind, ConnectionLease& lease) noexcept {
    return detail::acquireLease(queue.pool_.get(), kind, lease);
  }
  /// Acquires a lease of `kind` on the pool; false with the reason in
  /// `lease.error`.
  static bool acquirePool(const DatabasePool& pool, LeaseKind kind, ConnectionLease& lease) noexcept {
    return detail::acquireLease(pool.pool_.get(), kind, lease);
  }
  /// Ends the lease's transaction: commits when `commit` (a statement that
  /// failed inside the block does not prevent it: Swift reports failures by
  /// throwing, and a block that caught one meant to go on), else rolls back.
  /// False, with the reason in `lease.error`, when the commit failed.
  static bool finish(ConnectionLease& lease, bool commit) noexcept { return detail::finishLease(lease, commit, false); }
  /// Gives the connection back; once, after `finish` (or instead of it, to
  /// roll back).
  static void release(ConnectionLease& lease) noexcept { detail::releaseLease(lease); }
  /// Whether the lease holds a connection (acquiring succeeded).
  static bool holdsConnection(const ConnectionLease& lease) noexcept { return lease.database != nullptr; }
  /// A `Database` sharing the lease's connection, for the Swift `Database`
  /// a block is given (which closes it when the block returns, so that a
  /// copy that escaped the block fails with SQLITE_MISUSE).
  static Database share(const ConnectionLease& lease) noexcept {
    return lease.database != nullptr ? Database(lease.database->connection_) : detail::unusableDatabase(lease.error);
  }
  /// A job of `kind` that calls `run(box, lease)` once, then `complete(box)`
  /// once. An invalid handle (see `isValid`) when out of memory.
  static AsyncJobHandle makeJob(LeaseKind kind, Run run, Complete complete, SwiftBox box) noexcept;
  /// Whether making `job` succeeded.
  static bool isValid(const AsyncJobHandle& job) noexcept { return job.job != nullptr; }
  /// Queues `job` for the queue's threads; false when it could not be
  /// queued (out of memory, or the queue is being destroyed): `run` is then
  /// never called.
  static bool submitToQueue(const DatabaseQueue& queue, const AsyncJobHandle& job) noexcept;
  /// Queues `job` for the pool's threads; fails as `submitToQueue` does.
  static bool submitToPool(const DatabasePool& pool, const AsyncJobHandle& job) noexcept;
  /// Cancels `job`: one not started never starts (`run` gets a null lease),
  /// a running statement fails with SQLITE_INTERRUPT, and so does every
  /// later statement of the block.
  static void cancel(const AsyncJobHandle& job) noexcept;
  /// Whether `job` was cancelled.
  static bool isCancelled(const AsyncJobHandle& job) noexcept;
  /// `DatabaseQueue::interrupt`, for a queue Swift holds as a constant.
  static void interruptQueue(const DatabaseQueue& queue) noexcept;
  /// `DatabasePool::interrupt`, likewise.
  static void interruptPool(const DatabasePool& pool) noexcept;
  /// `DatabasePool::checkpoint`, likewise; false with the reason in `error`.
  static bool checkpoint(const DatabasePool& pool, CheckpointMode mode, Error& error) noexcept;
};

}  // namespace sqlitebridge::interop
