// For the Swift facade only; no stability promise. A DatabasePool's
// snapshots as Swift drives them: made into a copyable handle, read through
// the same leases and jobs as the pool's own reads
// (interop::ConcurrencyAccess finishes and releases them). Never included
// by <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Concurrency/SnapshotAccess.cpp.
#pragma once

#include <memory>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "Concurrency.hpp"

namespace sqlitebridge::interop {

/// A snapshot for Swift (its state is the core's `DatabaseSnapshot`'s);
/// copies share it. It lives until the last copy goes.
struct SnapshotHandle {
  /// The snapshot; null when making it failed.
  std::shared_ptr<SnapshotState> state;
};

/// `DatabasePool::makeSnapshot` and `DatabaseSnapshot::read` for the Swift
/// facade: every entry point is noexcept and reports by return value.
struct SQLITEBRIDGE_API SnapshotAccess {
  /// Whether the linked SQLite has the snapshot API (`snapshotsAvailable`).
  static bool available() noexcept;
  /// `DatabasePool::makeSnapshot` into `out`; false, with the reason in
  /// `error`, as it fails.
  static bool makeSnapshot(const DatabasePool& pool, SnapshotHandle& out, Error& error) noexcept;
  /// Lends a reader opened on the snapshot, in a read transaction; false
  /// with the reason in `lease.error` (SQLITE_MISUSE for an empty handle or
  /// a closed pool, reentrant access; SQLite's error when the reader
  /// cannot open the snapshot). Finish and release it with
  /// `ConcurrencyAccess`.
  static bool acquire(const SnapshotHandle& snapshot, ConnectionLease& lease) noexcept;
  /// Queues `job` (made with `ConcurrencyAccess::makeJob` and kind Read)
  /// for the pool's reader threads, to run on the snapshot; false when the
  /// handle is empty, the pool closed, or out of memory (`run` is then
  /// never called).
  static bool submit(const SnapshotHandle& snapshot, const AsyncJobHandle& job) noexcept;
  /// Whether the handle holds a snapshot whose pool is still open.
  static bool isValid(const SnapshotHandle& snapshot) noexcept;
};

}  // namespace sqlitebridge::interop
