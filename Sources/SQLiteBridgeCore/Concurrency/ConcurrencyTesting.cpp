// interop::ConcurrencyTesting (interop/Testing.hpp): what tests drive and
// read of a queue's or pool's connections.
#include "ConnectionPool.hpp"
#include "sqlitebridge/interop/Testing.hpp"

namespace sqlitebridge::interop {

void ConcurrencyTesting::injectTransientFailures(const DatabaseQueue& queue, int count, int code) noexcept {
  if (queue.pool_) queue.pool_->injectTransientFailures(count, code);
}

void ConcurrencyTesting::injectTransientFailures(const DatabasePool& pool, int count, int code) noexcept {
  if (pool.pool_) pool.pool_->injectTransientFailures(count, code);
}

std::int64_t ConcurrencyTesting::transientRetryCount(const DatabaseQueue& queue) noexcept {
  return queue.pool_ ? queue.pool_->transientRetryCount() : 0;
}

int ConcurrencyTesting::waitingCount(const DatabaseQueue& queue) noexcept {
  return queue.pool_ ? queue.pool_->waitingCount() : 0;
}

int ConcurrencyTesting::waitingCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->waitingCount() : 0;
}

std::int64_t ConcurrencyTesting::transientRetryCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->transientRetryCount() : 0;
}

std::uint64_t ConcurrencyTesting::externalCheckCount(const DatabaseQueue& queue) noexcept {
  return queue.pool_ ? queue.pool_->externalCheckCount() : 0;
}

std::uint64_t ConcurrencyTesting::externalCheckCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->externalCheckCount() : 0;
}

std::uint64_t ConcurrencyTesting::observationSnapshotFetchCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->observationSnapshotFetchCount() : 0;
}

std::uint64_t ConcurrencyTesting::observationSnapshotFallbackCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->observationSnapshotFallbackCount() : 0;
}

bool ConcurrencyTesting::waitUntilObservationsIdle(const DatabasePool& pool, std::int64_t milliseconds) noexcept {
  return !pool.pool_ || pool.pool_->waitUntilObservationsIdle(milliseconds);
}

}  // namespace sqlitebridge::interop
