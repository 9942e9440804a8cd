// The one mechanism behind DatabaseQueue and DatabasePool: a lease lends one
// connection of a shared set to one block at a time. The templates of
// DatabaseQueue and DatabasePool use it from C++, the Swift facade through
// the interop header; every rule (which connection, the locks, transactions,
// retries, reentrancy) lives in the core behind these calls.
#pragma once

#include <cstdint>
#include <optional>

#include "Export.hpp"
#include "Database.hpp"
#include "Error.hpp"

namespace sqlitebridge {

class ConnectionPool;
class SnapshotState;

/// What a block does with its connection.
enum class LeaseKind {
  /// A read, in a read transaction (one snapshot): on a reader connection
  /// (pool), or on the connection with `PRAGMA query_only` on (queue).
  Read,
  /// A write in a `BEGIN IMMEDIATE` transaction on the writer connection.
  Write,
  /// The writer connection, without a transaction.
  WriteWithoutTransaction,
};

/// One block's hold on a connection; copied freely, acquired and ended once.
struct ConnectionLease {
  /// The queue's or pool's connections the lease is from (null before
  /// acquiring).
  ConnectionPool* pool = nullptr;
  /// The connection lent (null when acquiring failed).
  Database* database = nullptr;
  /// What the block does: read, write, or write without a transaction.
  LeaseKind kind = LeaseKind::Read;
  /// The reader slot lent, or -1 for the writer.
  int reader = -1;
  /// Whether the lease opened a transaction it must end.
  bool inTransaction = false;
  /// Whether `endLease` ran.
  bool ended = false;
  /// The snapshot a read was opened on (null for every other lease).
  SnapshotState* snapshot = nullptr;
  /// Why acquiring or ending failed.
  Error error;
};

namespace detail {

/// Lends `pool`'s connection for a block of `kind`, waiting for it: the
/// writer lock for a write, a free reader (or a new one, up to the pool's
/// limit) for a read; then begins the lease's transaction, absorbing
/// transient SQLITE_BUSY and SQLITE_PROTOCOL answers with bounded retries.
/// Fails (false, the reason in `lease.error`) with SQLITE_MISUSE "reentrant
/// access" when this thread already holds a lease of `pool` (it would wait
/// for itself), with the open error when the pool did not open, and with
/// SQLite's error when the transaction cannot begin.
SQLITEBRIDGE_API bool acquireLease(ConnectionPool* pool, LeaseKind kind, ConnectionLease& lease) noexcept;
/// Ends the lease's transaction: commits when `commit`, else rolls back (a
/// transaction the block left open on a read or a write without
/// transaction is rolled back too). With `rollBackAfterFailedStatement` (the
/// C++ rule: failures are return values a block may drop), a statement that
/// failed inside the block rolls back instead of committing, and its error
/// (the first failure of the block) is the lease's, also when the block
/// asked for the rollback (`return db.execute(...)` that failed). False,
/// with the reason in `lease.error`, when it did not commit because of a
/// failure (the transaction is then rolled back); true when it committed
/// or rolled back as asked. Does not give the connection back.
SQLITEBRIDGE_API bool finishLease(ConnectionLease& lease, bool commit, bool rollBackAfterFailedStatement) noexcept;
/// Gives the connection back (finishing with a rollback first when
/// `finishLease` did not run). Once per acquired lease; more calls do
/// nothing.
SQLITEBRIDGE_API void releaseLease(ConnectionLease& lease) noexcept;
/// A closed `Database` whose every call fails with `reason`: what a block
/// gets when its lease could not be acquired.
SQLITEBRIDGE_API Database unusableDatabase(const Error& reason) noexcept;

/// One block's lease, ended when it goes out of scope (rolled back unless
/// `finish(true)` committed it).
class LeaseScope {
 public:
  LeaseScope(ConnectionPool* pool, LeaseKind kind) noexcept : acquired_(acquireLease(pool, kind, lease_)) {
    if (!acquired_) unusable_.emplace(unusableDatabase(lease_.error));
  }
  LeaseScope(const LeaseScope&) = delete;
  LeaseScope& operator=(const LeaseScope&) = delete;
  ~LeaseScope() {
    if (acquired_) releaseLease(lease_);
  }

  bool acquired() const noexcept { return acquired_; }
  /// The lent connection, or an unusable one failing with the reason.
  Database& database() noexcept { return acquired_ ? *lease_.database : *unusable_; }
  bool finish(bool commit) noexcept { return acquired_ && finishLease(lease_, commit, true); }
  const Error& error() const noexcept { return lease_.error; }

 private:
  ConnectionLease lease_;
  bool acquired_;
  std::optional<Database> unusable_;
};

/// `LeaseScope` for a write: commits when `fn` returns true and no
/// statement failed inside it; otherwise rolls back, with the reason in
/// `*error` (clear only when `fn` returned false and no statement failed).
template <typename Fn>
bool writeInLease(ConnectionPool* pool, Fn&& fn, Error* error) {
  LeaseScope scope(pool, LeaseKind::Write);
  bool committed = false;
  if (scope.acquired()) {
    const bool wanted = fn(scope.database());
    committed = scope.finish(wanted) && wanted;
  }
  if (error != nullptr) *error = scope.error();
  return committed;
}

}  // namespace detail

}  // namespace sqlitebridge
