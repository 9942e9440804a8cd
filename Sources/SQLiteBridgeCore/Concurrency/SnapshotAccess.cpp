// interop::SnapshotAccess (interop/Snapshots.hpp): a pool's snapshots for
// the Swift facade.
#include "ConnectionPool.hpp"
#include "SnapshotApi.hpp"
#include "SnapshotState.hpp"
#include "sqlitebridge/interop/Snapshots.hpp"

namespace sqlitebridge::interop {

bool SnapshotAccess::available() noexcept { return snapshotsAvailable(); }

bool SnapshotAccess::makeSnapshot(const DatabasePool& pool, SnapshotHandle& out, Error& error) noexcept {
  if (!pool.pool_) {
    error = pool.openError();
    return false;
  }
  std::shared_ptr<SnapshotState> state;
  if (!pool.pool_->makeSnapshot(state, error)) return false;
  out.state = std::move(state);
  error = Error();
  return true;
}

bool SnapshotAccess::acquire(const SnapshotHandle& snapshot, ConnectionLease& lease) noexcept {
  if (snapshot.state) return snapshot.state->acquire(lease);
  lease = ConnectionLease();
  lease.error = poolError(SQLITE_MISUSE, "the snapshot handle holds no snapshot");
  return false;
}

bool SnapshotAccess::submit(const SnapshotHandle& snapshot, const AsyncJobHandle& job) noexcept {
  if (!snapshot.state || !job.job) return false;
  job.job->snapshot = snapshot.state;
  if (snapshot.state->submit(job.job)) return true;
  job.job->snapshot.reset();
  return false;
}

bool SnapshotAccess::isValid(const SnapshotHandle& snapshot) noexcept {
  return snapshot.state && snapshot.state->isOpen();
}

}  // namespace sqlitebridge::interop
