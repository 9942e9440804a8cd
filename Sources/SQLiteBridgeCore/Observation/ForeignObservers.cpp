// interop::ObservationAccess: transaction observers written in Swift, as C
// functions and a context, adapted to the core's TransactionObserver.
#include <new>

#include "Connection.hpp"
#include "ConnectionObservation.hpp"
#include "Hooks.hpp"
#include "sqlitebridge/interop/Interop.hpp"

namespace sqlitebridge {

namespace {

class ForeignTransactionObserver final : public TransactionObserver {
 public:
  using Access = interop::ObservationAccess;
  ForeignTransactionObserver(Access::Observes observes, Access::DidChange didChange, Access::WillCommit willCommit,
                             Access::DidEnd didEnd, Access::Release release, void* context) noexcept
      : observes_(observes),
        didChange_(didChange),
        willCommit_(willCommit),
        didEnd_(didEnd),
        release_(release),
        context_(context) {}
  ~ForeignTransactionObserver() override {
    if (release_ != nullptr) release_(context_);
  }
  ForeignTransactionObserver(const ForeignTransactionObserver&) = delete;
  ForeignTransactionObserver& operator=(const ForeignTransactionObserver&) = delete;

  bool observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) override {
    return observes_ != nullptr && observes_(context_, static_cast<int>(kind), table.c_str(), &columns);
  }
  void databaseDidChange(const DatabaseEvent& event) override {
    if (didChange_ != nullptr) didChange_(context_, static_cast<int>(event.kind), event.table.c_str(), event.rowID);
  }
  bool databaseWillCommit(Error* error) override { return willCommit_ == nullptr || willCommit_(context_, error); }
  void databaseDidCommit(Database& db) override {
    if (didEnd_ != nullptr) didEnd_(context_, &db, true);
  }
  void databaseDidRollback(Database& db) override {
    if (didEnd_ != nullptr) didEnd_(context_, &db, false);
  }

 private:
  Access::Observes observes_;
  Access::DidChange didChange_;
  Access::WillCommit willCommit_;
  Access::DidEnd didEnd_;
  Access::Release release_;
  void* context_;
};

}  // namespace

namespace interop {

void ObservationAccess::addObserver(Database& database, const void* identity, ObserverExtent extent, Observes observes,
                                    DidChange didChange, WillCommit willCommit, DidEnd didEnd, Alive alive,
                                    Release release, void* context) noexcept {
  std::shared_ptr<TransactionObserver> observer;
  try {
    observer = std::make_shared<ForeignTransactionObserver>(observes, didChange, willCommit, didEnd, release, context);
  } catch (...) {
    if (release != nullptr) release(context);
    if (database.connection_) database.connection_->fail(SQLITE_NOMEM, "out of memory", std::string());
    return;
  }
  // From here the observer owns the context (its destructor releases it).
  if (!database.beginCall()) return;
  ConnectionObservation* observation = database.connection_->observe();
  try {
    if (observation == nullptr) throw std::bad_alloc();
    // The core holds the box; a Swift observer held weakly tells whether
    // it still exists through `alive`.
    const ObserverExtent held = extent == ObserverExtent::ObserverLifetime ? ObserverExtent::DatabaseLifetime : extent;
    observation->addForeign(observer, held, identity, extent == ObserverExtent::ObserverLifetime ? alive : nullptr,
                            context);
  } catch (...) {
    database.connection_->fail(SQLITE_NOMEM, "out of memory while adding a transaction observer", std::string());
    return;
  }
  refreshSQLiteHooks(*database.connection_);
}

void ObservationAccess::removeObserver(Database& database, const void* identity) noexcept {
  if (!database.connection_ || !database.connection_->observation) return;
  database.connection_->observation->removeForeign(identity);
  refreshSQLiteHooks(*database.connection_);
}

int ObservationAccess::columnCount(const void* columns) noexcept {
  return columns != nullptr ? static_cast<int>(static_cast<const std::vector<std::string>*>(columns)->size()) : 0;
}

std::string ObservationAccess::column(const void* columns, int index) noexcept {
  if (columns == nullptr) return std::string();
  try {
    const auto& list = *static_cast<const std::vector<std::string>*>(columns);
    if (index < 0 || static_cast<std::size_t>(index) >= list.size()) return std::string();
    return list[static_cast<std::size_t>(index)];
  } catch (...) {
    return std::string();
  }
}

void ObservationAccess::setVeto(void* veto, int code, int extendedCode, const std::string& message) noexcept {
  if (veto == nullptr) return;
  Error& error = *static_cast<Error*>(veto);
  error.code = code & 0xff;
  error.extendedCode = extendedCode != 0 ? extendedCode : code;
  try {
    error.message = message;
  } catch (...) {
  }
}

Database ObservationAccess::share(const void* database) noexcept {
  return Database(static_cast<const Database*>(database)->connection_);
}

DatabaseRegion ObservationAccess::columns(const std::string& table, const StringList& columns) noexcept {
  try {
    return DatabaseRegion::columns(table, columns);
  } catch (...) {
    return DatabaseRegion::fullDatabase();
  }
}

}  // namespace interop

}  // namespace sqlitebridge
