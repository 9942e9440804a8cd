// interop::ConcurrencyAccess and interop::InterruptHandle
// (interop/Concurrency.hpp): the jobs a queue's or pool's threads run for the
// Swift facade, checkpoint and interrupt.
#include "Connection.hpp"
#include "ConnectionPool.hpp"
#include "sqlitebridge/interop/Concurrency.hpp"

namespace sqlitebridge::interop {

void InterruptHandle::interrupt() const noexcept {
  // The lock keeps the connection open while interrupting it.
  if (const std::shared_ptr<Connection> open = connection.lock()) {
    if (open->db != nullptr) sqlite3_interrupt(open->db);
  }
}

AsyncJobHandle ConcurrencyAccess::makeJob(LeaseKind kind, Run run, Complete complete, void* context) noexcept {
  AsyncJobHandle handle;
  try {
    handle.job = std::make_shared<AsyncJob>();
    handle.job->kind = kind;
    handle.job->run = run;
    handle.job->complete = complete;
    handle.job->context = context;
  } catch (...) {
    handle.job.reset();
  }
  return handle;
}

bool ConcurrencyAccess::submitToQueue(const DatabaseQueue& queue, const AsyncJobHandle& job) noexcept {
  return job.job && queue.pool_ && queue.pool_->submit(job.job);
}

bool ConcurrencyAccess::submitToPool(const DatabasePool& pool, const AsyncJobHandle& job) noexcept {
  return job.job && pool.pool_ && pool.pool_->submit(job.job);
}

void ConcurrencyAccess::cancel(const AsyncJobHandle& job) noexcept {
  if (job.job) job.job->cancel();
}

bool ConcurrencyAccess::isCancelled(const AsyncJobHandle& job) noexcept { return job.job && job.job->cancelled.load(); }

void ConcurrencyAccess::interruptQueue(const DatabaseQueue& queue) noexcept {
  if (queue.pool_) queue.pool_->interrupt();
}

void ConcurrencyAccess::interruptPool(const DatabasePool& pool) noexcept {
  if (pool.pool_) pool.pool_->interrupt();
}

bool ConcurrencyAccess::checkpoint(const DatabasePool& pool, CheckpointMode mode, Error& error) noexcept {
  if (pool.pool_) return pool.pool_->checkpoint(mode, &error);
  error = pool.openError();
  return false;
}

}  // namespace sqlitebridge::interop
