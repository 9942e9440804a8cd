#include "sqlitebridge/ConnectionLease.hpp"

#include "ConnectionPool.hpp"

namespace sqlitebridge::detail {

bool acquireLease(ConnectionPool* pool, LeaseKind kind, ConnectionLease& lease) noexcept {
  if (pool == nullptr) {
    lease = ConnectionLease();
    lease.kind = kind;
    lease.error = poolError(SQLITE_MISUSE, "the queue or pool is closed (moved from)");
    return false;
  }
  return pool->acquire(kind, lease);
}

bool finishLease(ConnectionLease& lease, bool commit, bool rollBackAfterFailedStatement) noexcept {
  return lease.pool != nullptr && lease.pool->finish(lease, commit, rollBackAfterFailedStatement);
}

void releaseLease(ConnectionLease& lease) noexcept {
  if (lease.pool != nullptr) lease.pool->release(lease);
}

}  // namespace sqlitebridge::detail
