// DatabaseSnapshot and its shared state, SnapshotState; making one is
// ConnectionPool::makeSnapshot (ConnectionPool.cpp).
#include "sqlitebridge/DatabaseSnapshot.hpp"

#include "Connection.hpp"
#include "ConnectionPool.hpp"
#include "SnapshotApi.hpp"
#include "SnapshotState.hpp"
#include "sqlitebridge/DatabasePool.hpp"

namespace sqlitebridge {

namespace {

Error closedSnapshot() noexcept {
  return poolError(SQLITE_MISUSE, "the snapshot's DatabasePool is closed (destroyed or moved from)");
}

Error emptySnapshot() noexcept {
  return poolError(SQLITE_MISUSE, "the DatabaseSnapshot holds no snapshot (default-constructed or moved from)");
}

}  // namespace

// MARK: SnapshotState

SnapshotState::SnapshotState(ConnectionPool* pool, std::unique_ptr<Database> pin, sqlite3_snapshot* snapshot) noexcept
    : pool_(pool), pin_(std::move(pin)), snapshot_(snapshot) {}

SnapshotState::~SnapshotState() { close(); }

bool SnapshotState::acquire(ConnectionLease& lease, const AsyncJob* job) noexcept {
  ConnectionPool* pool = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pool = pool_;
    if (pool != nullptr) ++active_;
  }
  if (pool == nullptr) {
    lease = ConnectionLease();
    lease.error = closedSnapshot();
    return false;
  }
  if (pool->acquire(LeaseKind::Read, lease, job, this)) return true;
  leave();
  return false;
}

bool SnapshotState::submit(const std::shared_ptr<AsyncJob>& job) noexcept {
  // Under the lock: the pool cannot close meanwhile (`close` takes it).
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_ != nullptr && pool_->submit(job);
}

bool SnapshotState::isOpen() const noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  return pool_ != nullptr;
}

void SnapshotState::leave() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --active_;
  }
  idle_.notify_all();
}

void SnapshotState::close() noexcept {
  std::unique_ptr<Database> pin;
  sqlite3_snapshot* snapshot = nullptr;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    pool_ = nullptr;
    idle_.wait(lock, [&] { return active_ == 0; });
    pin = std::move(pin_);
    snapshot = snapshot_;
    snapshot_ = nullptr;
  }
  if (snapshot != nullptr) {
    if (const detail::SnapshotApi* api = detail::snapshotApi()) api->free(snapshot);
  }
  if (pin) pin->execute("ROLLBACK");
}

// MARK: DatabaseSnapshot

DatabaseSnapshot::DatabaseSnapshot() noexcept = default;
DatabaseSnapshot::DatabaseSnapshot(std::shared_ptr<SnapshotState> state) noexcept : state_(std::move(state)) {}
DatabaseSnapshot::DatabaseSnapshot(DatabaseSnapshot&&) noexcept = default;
DatabaseSnapshot& DatabaseSnapshot::operator=(DatabaseSnapshot&&) noexcept = default;
DatabaseSnapshot::~DatabaseSnapshot() = default;

bool DatabaseSnapshot::isValid() const noexcept { return state_ && state_->isOpen(); }

bool DatabaseSnapshot::read(const std::function<bool(Database&)>& fn, Error* error) {
  ConnectionLease lease;
  if (!state_) {
    lease.error = emptySnapshot();
  } else if (state_->acquire(lease)) {
    // Given back however `fn` leaves, an exception too.
    struct Release {
      ConnectionLease& lease;
      ~Release() { detail::releaseLease(lease); }
    } release{lease};
    const bool wanted = fn(*lease.database);
    Connection& connection = *lease.database->connection_;
    const bool failed = connection.failureCount != connection.failureMark;
    const Error failure = failed ? connection.firstFailureSinceMark : Error();
    detail::finishLease(lease, false, false);
    if (error != nullptr) *error = failure;
    return wanted && !failed;
  }
  if (error != nullptr) *error = lease.error;
  return false;
}

bool DatabasePool::makeSnapshot(DatabaseSnapshot& out, Error* error) noexcept {
  std::shared_ptr<SnapshotState> state;
  Error failure;
  if (!pool_) {
    failure = openError();
  } else if (pool_->makeSnapshot(state, failure)) {
    out.state_ = std::move(state);
    if (error != nullptr) *error = Error();
    return true;
  }
  if (error != nullptr) *error = failure;
  return false;
}

}  // namespace sqlitebridge
