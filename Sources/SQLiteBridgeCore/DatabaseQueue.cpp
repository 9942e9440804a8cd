#include "sqlitebridge/DatabaseQueue.hpp"

#include "ConnectionPool.hpp"

namespace sqlitebridge {

DatabaseQueue::DatabaseQueue(const std::string& path, Configuration configuration) noexcept
    : pool_(ConnectionPool::queue(Database::open(path, configuration))) {}

DatabaseQueue::DatabaseQueue(const std::string& name, const std::string& createSQL, const Location& location,
                             Configuration configuration) noexcept
    : pool_(ConnectionPool::queue(Database(name, createSQL, location, configuration))) {}

DatabaseQueue::DatabaseQueue(DatabaseQueue&&) noexcept = default;
DatabaseQueue& DatabaseQueue::operator=(DatabaseQueue&&) noexcept = default;
DatabaseQueue::~DatabaseQueue() = default;

bool DatabaseQueue::isOpen() const noexcept { return pool_ && pool_->isOpen(); }

Error DatabaseQueue::openError() const noexcept {
  if (!pool_) return Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory, or the queue was moved from", std::string()};
  try {
    return pool_->openError();
  } catch (...) {
    return Error{pool_->openError().code, pool_->openError().extendedCode, std::string(), std::string()};
  }
}

void DatabaseQueue::interrupt() noexcept {
  if (pool_) pool_->interrupt();
}

}  // namespace sqlitebridge
