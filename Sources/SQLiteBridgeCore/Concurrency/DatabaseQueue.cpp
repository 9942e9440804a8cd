#include "sqlitebridge/DatabaseQueue.hpp"

#include "ConnectionPool.hpp"

namespace sqlitebridge {

DatabaseQueue::DatabaseQueue(const std::string& path, Configuration configuration) noexcept
    : pool_(ConnectionPool::queue(Database::open(path, configuration), configuration.externalChangeCheckMilliseconds)) {
}

DatabaseQueue::DatabaseQueue(const std::string& name, const std::string& createSQL, const Location& location,
                             Configuration configuration) noexcept
    : pool_(ConnectionPool::queue(Database(name, createSQL, location, configuration),
                                  configuration.externalChangeCheckMilliseconds)) {}

DatabaseQueue::DatabaseQueue(DatabaseQueue&&) noexcept = default;
DatabaseQueue& DatabaseQueue::operator=(DatabaseQueue&&) noexcept = default;
DatabaseQueue::~DatabaseQueue() = default;

bool DatabaseQueue::isOpen() const noexcept { return pool_ && pool_->isOpen(); }

Error DatabaseQueue::openError() const noexcept { return ConnectionPool::openErrorOf(pool_.get(), "queue"); }

void DatabaseQueue::interrupt() noexcept {
  if (pool_) pool_->interrupt();
}

}  // namespace sqlitebridge
