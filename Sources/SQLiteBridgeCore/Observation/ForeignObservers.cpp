// interop::ObservationAccess: transaction observers written in Swift, as C
// functions and a context, adapted to the core's TransactionObserver.
#include <new>

#include "Connection.hpp"
#include "ConnectionObservation.hpp"
#include "Hooks.hpp"
#include "sqlitebridge/interop/Observation.hpp"

namespace sqlitebridge {

namespace {

class ForeignTransactionObserver final : public TransactionObserver {
 public:
  using Callbacks = interop::ObserverCallbacks;
  explicit ForeignTransactionObserver(const Callbacks& callbacks) noexcept
      : observes_(callbacks.observes),
        didChange_(callbacks.didChange),
        willCommit_(callbacks.willCommit),
        didEnd_(callbacks.didEnd),
        release_(callbacks.release),
        context_(callbacks.box) {}
  ~ForeignTransactionObserver() override {
    if (release_ != nullptr) release_(context_);
  }
  ForeignTransactionObserver(const ForeignTransactionObserver&) = delete;
  ForeignTransactionObserver& operator=(const ForeignTransactionObserver&) = delete;

  bool observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& columns) override {
    return observes_ != nullptr && observes_(context_, kind, table.c_str(), &columns);
  }
  void databaseDidChange(const DatabaseEvent& event) override {
    if (didChange_ != nullptr) didChange_(context_, event.kind, event.table.c_str(), event.rowID);
  }
  bool databaseWillCommit(Error* error) override { return willCommit_ == nullptr || willCommit_(context_, error); }
  void databaseDidCommit(Database& db) override {
    if (didEnd_ != nullptr) didEnd_(context_, &db, true);
  }
  void databaseDidRollback(Database& db) override {
    if (didEnd_ != nullptr) didEnd_(context_, &db, false);
  }

 private:
  Callbacks::Observes observes_;
  Callbacks::DidChange didChange_;
  Callbacks::WillCommit willCommit_;
  Callbacks::DidEnd didEnd_;
  interop::ReleaseBox release_;
  void* context_;
};

}  // namespace

namespace interop {

void ObservationAccess::addObserver(Database& database, std::uintptr_t identity, ObserverExtent extent,
                                    const ObserverCallbacks& callbacks) noexcept {
  std::shared_ptr<TransactionObserver> observer;
  try {
    observer = std::make_shared<ForeignTransactionObserver>(callbacks);
  } catch (...) {
    if (callbacks.release != nullptr) callbacks.release(callbacks.box);
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
    observation->addForeign(observer, held, reinterpret_cast<const void*>(identity),
                            extent == ObserverExtent::ObserverLifetime ? callbacks.alive : nullptr, callbacks.box);
  } catch (...) {
    database.connection_->fail(SQLITE_NOMEM, "out of memory while adding a transaction observer", std::string());
    return;
  }
  refreshSQLiteHooks(*database.connection_);
}

void ObservationAccess::removeObserver(Database& database, std::uintptr_t identity) noexcept {
  if (!database.connection_ || !database.connection_->observation) return;
  database.connection_->observation->removeForeign(reinterpret_cast<const void*>(identity));
  refreshSQLiteHooks(*database.connection_);
}

int ObservationAccess::columnCount(const StringList* columns) noexcept {
  return columns != nullptr ? static_cast<int>(columns->size()) : 0;
}

std::string ObservationAccess::column(const StringList* columns, int index) noexcept {
  if (columns == nullptr) return std::string();
  try {
    const StringList& list = *columns;
    if (index < 0 || static_cast<std::size_t>(index) >= list.size()) return std::string();
    return list[static_cast<std::size_t>(index)];
  } catch (...) {
    return std::string();
  }
}

void ObservationAccess::setVeto(Error* veto, int code, int extendedCode, const std::string& message) noexcept {
  if (veto == nullptr) return;
  Error& error = *veto;
  error.code = code & 0xff;
  error.extendedCode = extendedCode != 0 ? extendedCode : code;
  try {
    error.message = message;
  } catch (...) {
  }
}

Database ObservationAccess::share(const Database* database) noexcept { return Database(database->connection_); }

DatabaseRegion ObservationAccess::columns(const std::string& table, const StringList& columns) noexcept {
  try {
    return DatabaseRegion::columns(table, columns);
  } catch (...) {
    return DatabaseRegion::fullDatabase();
  }
}

}  // namespace interop

}  // namespace sqlitebridge
