#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "Export.hpp"
#include "Configuration.hpp"
#include "ConnectionLease.hpp"
#include "Database.hpp"
#include "Error.hpp"
#include "Location.hpp"

namespace sqlitebridge {

namespace interop {
struct ConcurrencyAccess;
struct ConcurrencyTesting;
}  // namespace interop

/// One connection shared by any number of threads: every block runs alone
/// on it, one after the other, so no two threads ever use the connection at
/// once. Pick it over a `DatabasePool` when reads need not run in parallel
/// (or for an in-memory database, which a pool cannot share).
///
/// A block (`fn(Database&)`) gets the queue's `Database` for its duration
/// only: keep no reference, statement or row view of it past the block.
/// Calling `read`, `write` or `writeWithoutTransaction` of the same queue
/// from inside one of its blocks would wait for itself: it fails at once
/// with SQLITE_MISUSE ("reentrant access ...") instead, as does every call
/// on a queue whose opening failed (with the open error). For `read` and
/// `writeWithoutTransaction`, which return what `fn` returns, a refused
/// block still runs, on a closed `Database` whose every call fails with that
/// reason (`lastError()` says it before any call). Never throws itself; an
/// exception from `fn` rolls back and propagates.
class SQLITEBRIDGE_API DatabaseQueue {
 public:
  /// Opens (or creates) the file at `path` as `Database::open(path,
  /// configuration)` does; `isOpen()` and `openError()` tell how it went.
  explicit DatabaseQueue(const std::string& path, Configuration configuration = {}) noexcept;
  /// Opens the database called `name`, as the by-name `Database` constructor
  /// does (copying the bundled seed, `location.seedName` or else `name`, or
  /// running `createSQL` on first use).
  DatabaseQueue(const std::string& name, const std::string& createSQL, const Location& location,
                Configuration configuration = {}) noexcept;
  /// Takes over the other queue's connection; the moved-from queue is not
  /// open (`isOpen()` false).
  DatabaseQueue(DatabaseQueue&&) noexcept;
  /// Lets go of this queue's connection, then takes over the other one's.
  DatabaseQueue& operator=(DatabaseQueue&&) noexcept;
  DatabaseQueue(const DatabaseQueue&) = delete;
  DatabaseQueue& operator=(const DatabaseQueue&) = delete;
  /// Waits for the running block, then closes the connection. Destroying a
  /// queue from inside one of its own blocks is undefined behaviour.
  ~DatabaseQueue();

  /// True when the connection opened.
  bool isOpen() const noexcept;
  /// Why opening failed; code 0 when it did not.
  Error openError() const noexcept;

  /// Runs fn(Database&) alone on the connection and returns what it returns.
  /// `fn` reads one snapshot: it runs in a read transaction (`BEGIN
  /// DEFERRED` and a first read, before `fn`), so a commit of another
  /// connection or process never lands between two of its statements (in
  /// WAL it commits beside the block; with a rollback journal it waits for
  /// the block's read lock). The connection is read-only meanwhile (`PRAGMA
  /// query_only`): a write fails with SQLITE_READONLY, and so does BEGIN
  /// (SQLITE_ERROR, a transaction is open); a COMMIT or ROLLBACK of `fn`
  /// ends the snapshot. The transaction ends, and the connection can write
  /// again, when `fn` returns or throws, whatever its statements did. When
  /// the transaction cannot begin (SQLITE_BUSY past the busy timeout, say)
  /// `fn` runs on a closed `Database` failing with that error.
  template <typename Fn>
  auto read(Fn&& fn) -> std::invoke_result_t<Fn&, Database&> {
    detail::LeaseScope scope(pool_.get(), LeaseKind::Read);
    return fn(scope.database());
  }
  /// Runs fn(Database&) in an IMMEDIATE transaction: commits when it returns
  /// true, rolls back when it returns false or a statement fails; false and
  /// *error when it did not commit: the first statement that failed in `fn`
  /// (even when `fn` went on and returned true, or returned false because of
  /// it), or the failed BEGIN or COMMIT; clear only when `fn` returned false
  /// with no statement failing (the rollback it asked for). `BEGIN IMMEDIATE` takes SQLite's write lock up
  /// front, so a writer of another connection or process is waited for (up
  /// to the busy timeout) before `fn` runs, never in the middle of it.
  template <typename Fn>
  bool write(Fn&& fn, Error* error = nullptr) {
    return detail::writeInLease(pool_.get(), fn, error);
  }
  /// Runs fn(Database&) alone on the connection, without a transaction (for
  /// VACUUM, a PRAGMA that cannot run in one, or transactions of its own),
  /// and returns what it returns. A transaction `fn` leaves open is rolled
  /// back.
  template <typename Fn>
  auto writeWithoutTransaction(Fn&& fn) -> std::invoke_result_t<Fn&, Database&> {
    detail::LeaseScope scope(pool_.get(), LeaseKind::WriteWithoutTransaction);
    return fn(scope.database());
  }
  /// From any thread: the statement running now fails with SQLITE_INTERRUPT
  /// (and a write's transaction then rolls back). Does nothing when no
  /// statement runs: a statement that starts later is not interrupted.
  void interrupt() noexcept;

 private:
  friend struct interop::ConcurrencyAccess;
  friend struct interop::ConcurrencyTesting;
  friend struct ObservationAccess;
  friend class UndoHistory;
  friend class SyncEngine;
  std::unique_ptr<ConnectionPool> pool_;
};

}  // namespace sqlitebridge
