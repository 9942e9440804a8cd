// Database's observation calls: regions of statements, transaction
// observers, changes announced by the application.
#include <new>

#include "Connection.hpp"
#include "ConnectionObservation.hpp"
#include "Hooks.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

bool Database::region(const std::string& sql, DatabaseRegion& out) noexcept {
  if (!beginCall()) return false;
  ConnectionObservation* observation = connection_->observe();
  if (observation == nullptr) return connection_->fail(SQLITE_NOMEM, "out of memory", sql);
  Statement statement = cachedStatement(sql);
  if (!statement.isValid()) return false;
  try {
    const StatementFootprint* footprint = observation->footprint(statement.handle());
    out = footprint != nullptr && !footprint->unknown ? footprint->reads : DatabaseRegion::fullDatabase();
    return true;
  } catch (...) {
    return connection_->fail(SQLITE_NOMEM, "out of memory", sql);
  }
}

void Database::add(std::shared_ptr<TransactionObserver> observer, ObserverExtent extent) noexcept {
  if (!beginCall() || !observer) return;
  ConnectionObservation* observation = connection_->observe();
  if (observation == nullptr) {
    connection_->fail(SQLITE_NOMEM, "out of memory while adding a transaction observer", std::string());
    return;
  }
  try {
    observation->add(observer, extent);
  } catch (...) {
    connection_->fail(SQLITE_NOMEM, "out of memory while adding a transaction observer", std::string());
    return;
  }
  refreshSQLiteHooks(*connection_);
}

void Database::remove(const TransactionObserver* observer) noexcept {
  if (!connection_ || !connection_->observation) return;
  connection_->observation->remove(observer);
  refreshSQLiteHooks(*connection_);
}

bool Database::notifyChanges(const DatabaseRegion& region) noexcept {
  if (!beginCall()) return false;
  ConnectionObservation* observation = connection_->observe();
  if (observation == nullptr) return connection_->fail(SQLITE_NOMEM, "out of memory", std::string());
  try {
    return observation->notifyChanges(region);
  } catch (...) {
    return connection_->fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

}  // namespace sqlitebridge
