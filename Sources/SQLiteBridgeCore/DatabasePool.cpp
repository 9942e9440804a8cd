#include "sqlitebridge/DatabasePool.hpp"

#include "ConnectionPool.hpp"

namespace sqlitebridge {

DatabasePool::DatabasePool(const std::string& path, Configuration configuration) noexcept
    : pool_(ConnectionPool::pool(path, configuration)) {}

DatabasePool::DatabasePool(DatabasePool&&) noexcept = default;
DatabasePool& DatabasePool::operator=(DatabasePool&&) noexcept = default;
DatabasePool::~DatabasePool() = default;

bool DatabasePool::isOpen() const noexcept { return pool_ && pool_->isOpen(); }

Error DatabasePool::openError() const noexcept {
  if (!pool_) return Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory, or the pool was moved from", std::string()};
  try {
    return pool_->openError();
  } catch (...) {
    return Error{pool_->openError().code, pool_->openError().extendedCode, std::string(), std::string()};
  }
}

bool DatabasePool::checkpoint(CheckpointMode mode, Error* error) noexcept {
  if (pool_) return pool_->checkpoint(mode, error);
  if (error != nullptr) *error = openError();
  return false;
}

void DatabasePool::interrupt() noexcept {
  if (pool_) pool_->interrupt();
}

}  // namespace sqlitebridge
