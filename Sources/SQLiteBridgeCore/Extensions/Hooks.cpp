// The commit, rollback and change hooks (sqlite3_commit_hook,
// sqlite3_rollback_hook, sqlite3_update_hook) and their release, for
// `Database::onCommit`, `onRollback`, `onChange` and the Swift facade
// (`interop::HookAccess`).
#include "Hooks.hpp"

#include <functional>
#include <new>
#include <string>
#include <utility>

#include "Connection.hpp"
#include "ConnectionObservation.hpp"
#include "sqlitebridge/interop/Extensions.hpp"

namespace sqlitebridge {

namespace {

// The trampolines SQLite calls, with the connection as their argument: the
// user's callback is looked up there at each call, then the connection's
// observation is told (the core multiplexes SQLite's one hook of each
// kind). A callback cannot fail the statement: whatever it throws stops
// here; only an observer's veto turns a commit into a rollback.

int commitTrampoline(void* argument) noexcept {
  Connection& connection = *static_cast<Connection*>(argument);
  const HookCallback<TransactionFunction>& hook = connection.hooks.commit;
  try {
    if (hook.function != nullptr) hook.function(hook.context);
  } catch (...) {
  }
  if (connection.observation && connection.observation->hasObservers()) return connection.observation->willCommit();
  return 0;
}

void rollbackTrampoline(void* argument) noexcept {
  Connection& connection = *static_cast<Connection*>(argument);
  const HookCallback<TransactionFunction>& hook = connection.hooks.rollback;
  try {
    if (hook.function != nullptr) hook.function(hook.context);
  } catch (...) {
  }
  if (connection.observation) connection.observation->didRollback();
}

void changeTrampoline(void* argument, int operation, const char* /*schema*/, const char* table,
                      sqlite3_int64 rowID) noexcept {
  Connection& connection = *static_cast<Connection*>(argument);
  const HookCallback<ChangeFunction>& hook = connection.hooks.change;
  ChangeKind kind = ChangeKind::Insert;
  if (operation == SQLITE_UPDATE) kind = ChangeKind::Update;
  if (operation == SQLITE_DELETE) kind = ChangeKind::Delete;
  try {
    if (hook.function != nullptr) hook.function(hook.context, kind, table != nullptr ? table : "", rowID);
  } catch (...) {
  }
  if (connection.observation) connection.observation->rowChanged(kind, table, rowID);
}

// The C++ callbacks: a std::function in a context the core deletes.
template <typename Signature>
void deleteFunction(void* context) {
  delete static_cast<std::function<Signature>*>(context);
}

void callTransactionFunction(void* context) {
  try {
    (*static_cast<std::function<void()>*>(context))();
  } catch (...) {
  }
}

void callChangeFunction(void* context, ChangeKind kind, const char* table, std::int64_t rowID) {
  try {
    (*static_cast<std::function<void(ChangeKind, const std::string&, std::int64_t)>*>(context))(
        kind, std::string(table), rowID);
  } catch (...) {
  }
}

// Moves `callback` to the heap for a hook's context; null (and SQLITE_NOMEM
// recorded) when memory runs out.
template <typename Signature>
std::function<Signature>* heapFunction(Connection& connection, std::function<Signature>& callback) noexcept {
  auto* held = new (std::nothrow) std::function<Signature>(std::move(callback));
  if (held == nullptr) connection.fail(SQLITE_NOMEM, "out of memory while installing a callback", std::string());
  return held;
}

}  // namespace

void refreshSQLiteHooks(Connection& connection) noexcept {
  sqlite3* db = connection.db;
  if (db == nullptr) return;
  const bool observed = connection.observation && connection.observation->hasObservers();
  const bool commit = observed || connection.hooks.commit.function != nullptr;
  const bool rollback = observed || connection.hooks.rollback.function != nullptr;
  const bool change = observed || connection.hooks.change.function != nullptr;
  sqlite3_commit_hook(db, commit ? &commitTrampoline : nullptr, commit ? &connection : nullptr);
  sqlite3_rollback_hook(db, rollback ? &rollbackTrampoline : nullptr, rollback ? &connection : nullptr);
  sqlite3_update_hook(db, change ? &changeTrampoline : nullptr, change ? &connection : nullptr);
  refreshSQLiteTrace(connection);
}

namespace {

// Puts `function` in `slot` (none on a closed connection), tells SQLite,
// then releases what the slot held: the one sequence of every hook, so
// SQLite never calls a released callback.
template <typename Function>
void install(Connection& connection, HookCallback<Function>& slot, Function function, void* context,
             HookRelease release) noexcept {
  if (connection.db == nullptr) function = nullptr;
  HookCallback<Function> old = slot;
  slot.function = function;
  slot.context = function != nullptr ? context : nullptr;
  slot.release = function != nullptr ? release : nullptr;
  refreshSQLiteHooks(connection);
  old.reset();
  // A removal hands over no callback, but may hand over a context to free.
  if (function == nullptr && release != nullptr) release(context);
}

}  // namespace

void installCommitHook(Connection& connection, TransactionFunction function, void* context,
                       HookRelease release) noexcept {
  install(connection, connection.hooks.commit, function, context, release);
}

void installRollbackHook(Connection& connection, TransactionFunction function, void* context,
                         HookRelease release) noexcept {
  install(connection, connection.hooks.rollback, function, context, release);
}

void installChangeHook(Connection& connection, ChangeFunction function, void* context, HookRelease release) noexcept {
  install(connection, connection.hooks.change, function, context, release);
}

void removeAllHooks(Connection& connection) noexcept {
  installTrace(connection, 0, nullptr, nullptr, nullptr);
  installCommitHook(connection, nullptr, nullptr, nullptr);
  installRollbackHook(connection, nullptr, nullptr, nullptr);
  installChangeHook(connection, nullptr, nullptr, nullptr);
  // Observation's hooks too: SQLite calls nothing more on this handle.
  if (connection.db != nullptr) {
    sqlite3_commit_hook(connection.db, nullptr, nullptr);
    sqlite3_rollback_hook(connection.db, nullptr, nullptr);
    sqlite3_update_hook(connection.db, nullptr, nullptr);
    sqlite3_trace_v2(connection.db, 0, nullptr, nullptr);
  }
}

// MARK: Database

void Database::onCommit(std::function<void()> callback) {
  if (!beginCall()) return;  // `callback` is destroyed on return
  if (!callback) return installCommitHook(*connection_, nullptr, nullptr, nullptr);
  if (auto* held = heapFunction(*connection_, callback)) {
    installCommitHook(*connection_, &callTransactionFunction, held, &deleteFunction<void()>);
  }
}

void Database::onRollback(std::function<void()> callback) {
  if (!beginCall()) return;
  if (!callback) return installRollbackHook(*connection_, nullptr, nullptr, nullptr);
  if (auto* held = heapFunction(*connection_, callback)) {
    installRollbackHook(*connection_, &callTransactionFunction, held, &deleteFunction<void()>);
  }
}

void Database::onChange(std::function<void(ChangeKind, const std::string& table, std::int64_t rowID)> callback) {
  using Signature = void(ChangeKind, const std::string&, std::int64_t);
  if (!beginCall()) return;
  if (!callback) return installChangeHook(*connection_, nullptr, nullptr, nullptr);
  if (auto* held = heapFunction(*connection_, callback)) {
    installChangeHook(*connection_, &callChangeFunction, held, &deleteFunction<Signature>);
  }
}

// MARK: Interop

namespace interop {

void HookAccess::onCommit(Database& database, TransactionEnd function, void* context, Release release) noexcept {
  if (!database.beginCall()) {
    if (release != nullptr) release(context);
    return;
  }
  installCommitHook(*database.connection_, function, context, release);
}

void HookAccess::onRollback(Database& database, TransactionEnd function, void* context, Release release) noexcept {
  if (!database.beginCall()) {
    if (release != nullptr) release(context);
    return;
  }
  installRollbackHook(*database.connection_, function, context, release);
}

void HookAccess::onChange(Database& database, Change function, void* context, Release release) noexcept {
  if (!database.beginCall()) {
    if (release != nullptr) release(context);
    return;
  }
  installChangeHook(*database.connection_, function, context, release);
}

}  // namespace interop

}  // namespace sqlitebridge
