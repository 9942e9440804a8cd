// The out-of-line entry points of include/sqlitebridge/interop/Interop.hpp.
#include "sqlitebridge/interop/Interop.hpp"

#include <string_view>

#include "Connection.hpp"
#include "ConnectionPool.hpp"
#include "ConversionFailure.hpp"
#include "SqlText.hpp"

namespace sqlitebridge::interop {

bool Identifiers::same(const void* a, std::size_t aSize, const void* b, std::size_t bSize) noexcept {
  return sameIdentifier(std::string_view(a != nullptr ? static_cast<const char*>(a) : "", aSize),
                        std::string_view(b != nullptr ? static_cast<const char*>(b) : "", bSize));
}

bool Identifiers::quote(const std::string& name, std::string& quoted, std::string& problem) noexcept {
  quoted.clear();
  problem.clear();
  try {
    if (name.find('\0') != std::string::npos) {
      problem = "the identifier \"" + name + "\" holds a NUL character";
      return false;
    }
    quoted = quoteIdentifier(name);
    return true;
  } catch (...) {
    quoted.clear();
    problem.clear();
    return false;
  }
}

bool Conversions::failureMessage(const std::string& column, const ColumnView& value, const std::string& typeName,
                                 const std::string& note, std::string& message) noexcept {
  try {
    message = conversionFailureMessage(column, value, typeName, note);
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

bool Conversions::describeValue(const ColumnView& value, std::string& shown) noexcept {
  try {
    shown = describeValueForConversion(value);
    return true;
  } catch (...) {
    shown.clear();
    return false;
  }
}

bool Conversions::isValidUTF8(const void* bytes, std::size_t size) noexcept {
  return sqlitebridge::isValidUTF8(bytes, size);
}

bool Conversions::missingColumnMessage(const std::string& name, std::string& message) noexcept {
  try {
    message = sqlitebridge::missingColumnMessage(name);
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

bool Conversions::columnIndexOutOfRangeMessage(long long index, long long count, std::string& message) noexcept {
  try {
    message = sqlitebridge::columnIndexOutOfRangeMessage(index, count < 0 ? 0 : static_cast<std::size_t>(count));
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

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

void ConcurrencyAccess::injectTransientFailures(const DatabaseQueue& queue, int count, int code) noexcept {
  if (queue.pool_) queue.pool_->injectTransientFailures(count, code);
}

void ConcurrencyAccess::injectTransientFailures(const DatabasePool& pool, int count, int code) noexcept {
  if (pool.pool_) pool.pool_->injectTransientFailures(count, code);
}

std::int64_t ConcurrencyAccess::transientRetryCount(const DatabaseQueue& queue) noexcept {
  return queue.pool_ ? queue.pool_->transientRetryCount() : 0;
}

int ConcurrencyAccess::waitingCount(const DatabaseQueue& queue) noexcept {
  return queue.pool_ ? queue.pool_->waitingCount() : 0;
}

int ConcurrencyAccess::waitingCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->waitingCount() : 0;
}

std::int64_t ConcurrencyAccess::transientRetryCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->transientRetryCount() : 0;
}

std::uint64_t ConcurrencyAccess::externalCheckCount(const DatabaseQueue& queue) noexcept {
  return queue.pool_ ? queue.pool_->externalCheckCount() : 0;
}

std::uint64_t ConcurrencyAccess::externalCheckCount(const DatabasePool& pool) noexcept {
  return pool.pool_ ? pool.pool_->externalCheckCount() : 0;
}

}  // namespace sqlitebridge::interop
