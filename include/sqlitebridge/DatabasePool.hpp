#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "Export.hpp"
#include "CheckpointMode.hpp"
#include "Configuration.hpp"
#include "ConnectionLease.hpp"
#include "Database.hpp"
#include "DatabaseSnapshot.hpp"
#include "Error.hpp"

namespace sqlitebridge {

namespace interop {
struct ConcurrencyAccess;
struct ConcurrencyTesting;
struct SnapshotAccess;
}  // namespace interop

/// A database file in WAL mode shared by any number of threads: one writer
/// connection (writes run one at a time) and up to
/// `Configuration::maximumReaderCount` reader connections, so reads run at
/// the same time as each other and as the write. Each read sees one
/// snapshot of the database from start to end.
///
/// Opening switches the file to WAL (`PRAGMA journal_mode = WAL`; it stays
/// so). Fails (`isOpen()` false, `openError()` saying why) with
/// SQLITE_CANTOPEN for an in-memory or temporary database (":memory:", "",
/// a "mode=memory" URI: its data is private to one connection, so readers
/// could not see it; use a `DatabaseQueue`), with SQLITE_READONLY for a
/// file this process cannot write (unless `Configuration::readOnly`: then
/// the pool only reads, never switches the mode, and every write fails
/// with SQLITE_READONLY), with SQLITE_MISUSE for a `Configuration` whose
/// `journalMode` is not empty or WAL, or that has a `sharedCacheName` (its
/// readers would meet the writer's table locks, not read a snapshot; use a
/// `DatabaseQueue`), and as `Database::open` otherwise. Every connection
/// gets `synchronous`, `noFollowSymlinks` and `uriFilenames`.
///
/// Blocks follow `DatabaseQueue`'s rules: the `Database` a block gets is
/// its own for the block only; reentrant calls fail with SQLITE_MISUSE.
class SQLITEBRIDGE_API DatabasePool {
 public:
  /// Opens (or creates) the file at `path` as described above; `isOpen()`
  /// and `openError()` tell how it went.
  explicit DatabasePool(const std::string& path, Configuration configuration = {}) noexcept;
  /// Takes over the other pool's connections; the moved-from pool is not
  /// open (`isOpen()` false).
  DatabasePool(DatabasePool&&) noexcept;
  /// Lets go of this pool's connections, then takes over the other one's.
  DatabasePool& operator=(DatabasePool&&) noexcept;
  DatabasePool(const DatabasePool&) = delete;
  DatabasePool& operator=(const DatabasePool&) = delete;
  /// Waits for running blocks, then closes every connection.
  ~DatabasePool();

  /// True when the writer connection opened (and the file is in WAL mode).
  bool isOpen() const noexcept;
  /// Why opening failed; code 0 when it did not.
  Error openError() const noexcept;

  /// fn(Database&) on a reader connection inside a read transaction: it sees one snapshot
  /// throughout, however many writes commit meanwhile. Readers run at the same time.
  /// When every reader is busy, waits for one. Reader connections are
  /// read-only: a write fails with SQLITE_READONLY.
  template <typename Fn>
  auto read(Fn&& fn) -> std::invoke_result_t<Fn&, Database&> {
    detail::LeaseScope scope(pool_.get(), LeaseKind::Read);
    return fn(scope.database());
  }
  /// As `DatabaseQueue::write`, on the writer connection.
  template <typename Fn>
  bool write(Fn&& fn, Error* error = nullptr) {
    return detail::writeInLease(pool_.get(), fn, error);
  }
  /// As `DatabaseQueue::writeWithoutTransaction`, on the writer connection.
  template <typename Fn>
  auto writeWithoutTransaction(Fn&& fn) -> std::invoke_result_t<Fn&, Database&> {
    detail::LeaseScope scope(pool_.get(), LeaseKind::WriteWithoutTransaction);
    return fn(scope.database());
  }
  /// Copies the write-ahead log into the database file, on the writer
  /// connection (waiting for the running write). False, with the reason in
  /// `*error` (cleared on success), when the pool is closed, when called
  /// from inside one of its blocks (SQLITE_MISUSE), or when `mode` needed
  /// readers or writers to finish and they did not within the busy timeout
  /// (SQLITE_BUSY).
  bool checkpoint(CheckpointMode mode = CheckpointMode::Passive, Error* error = nullptr) noexcept;
  /// From any thread: the statements running now on every connection of the
  /// pool fail with SQLITE_INTERRUPT.
  void interrupt() noexcept;

  /// Makes `out` a snapshot of the database as it is now (see
  /// `DatabaseSnapshot`): its reads see exactly this state, whatever is
  /// committed or checkpointed later. Waits for the running write. When the
  /// write-ahead log is empty (just after opening, or after a TRUNCATE or
  /// RESTART checkpoint), SQLite cannot record a snapshot of it, so this
  /// first commits a write that changes nothing (`PRAGMA user_version` set
  /// to its own value) on the writer; commit hooks and transaction
  /// observers see that empty commit. False, `out` untouched, with the
  /// reason in `*error` (cleared on success): SQLITE_ERROR naming
  /// SQLITE_ENABLE_SNAPSHOT and the SQLite version when the linked SQLite
  /// has no snapshot API (`snapshotsAvailable()`); the open error when the
  /// pool is closed; SQLITE_MISUSE when called from inside one of its
  /// blocks (reentrant access); SQLITE_ERROR for a read-only pool whose
  /// write-ahead log is empty (it cannot write to fill it); SQLite's error
  /// when the snapshot's connection cannot open or read.
  bool makeSnapshot(DatabaseSnapshot& out, Error* error = nullptr) noexcept;

 private:
  friend struct interop::ConcurrencyAccess;
  friend struct interop::ConcurrencyTesting;
  friend struct interop::SnapshotAccess;
  friend struct ObservationAccess;
  friend class UndoHistory;
  friend class SyncEngine;
  std::unique_ptr<ConnectionPool> pool_;
};

}  // namespace sqlitebridge
