#include "sqlitebridge/DatabasePool.hpp"

#include "ConnectionPool.hpp"

namespace sqlitebridge {

DatabasePool::DatabasePool(const std::string& path, Configuration configuration) noexcept
    : pool_(ConnectionPool::pool(path, configuration)) {}

DatabasePool::DatabasePool(DatabasePool&&) noexcept = default;
DatabasePool& DatabasePool::operator=(DatabasePool&&) noexcept = default;
DatabasePool::~DatabasePool() = default;

bool DatabasePool::isOpen() const noexcept { return pool_ && pool_->isOpen(); }

Error DatabasePool::openError() const noexcept { return ConnectionPool::openErrorOf(pool_.get(), "pool"); }

bool DatabasePool::checkpoint(CheckpointMode mode, Error* error) noexcept {
  if (pool_) return pool_->checkpoint(mode, error);
  if (error != nullptr) *error = openError();
  return false;
}

void DatabasePool::interrupt() noexcept {
  if (pool_) pool_->interrupt();
}

}  // namespace sqlitebridge
