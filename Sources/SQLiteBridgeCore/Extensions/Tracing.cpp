// Tracing (sqlite3_trace_v2) for `Database::trace` and the Swift facade
// (`interop::HookAccess::trace`).
#include <functional>
#include <new>
#include <string>
#include <utility>

#include "Connection.hpp"
#include "ConnectionObservation.hpp"
#include "Hooks.hpp"
#include "sqlitebridge/interop/Extensions.hpp"

namespace sqlitebridge {

namespace {

// SQLite's statement event names the statement that started; a trigger and
// the statements it runs are named by comments ("-- TRIGGER name", then
// "-- <statement>") rather than by the statement's SQL.
bool isTriggerComment(const char* text) noexcept { return text != nullptr && text[0] == '-' && text[1] == '-'; }

// What SQLite calls, with the connection as its argument. A callback cannot
// fail the statement: whatever it throws stops here.
int traceTrampoline(unsigned type, void* argument, void* subject, void* detail) noexcept {
  Connection& connection = *static_cast<Connection*>(argument);
  auto* statement = static_cast<sqlite3_stmt*>(subject);
  // Observation hears of each statement first (the core multiplexes
  // SQLite's one trace callback).
  if (connection.observation) {
    // The lookups of a footprint being made are the core's own, unseen.
    if (connection.observation->isMakingFootprint()) return 0;
    if (type == SQLITE_TRACE_STMT) connection.observation->statementStarts(statement);
  }
  const HookCallback<TraceFunction>& hook = connection.hooks.trace;
  if (hook.function == nullptr) return 0;
  const unsigned asked = connection.hooks.traceOptions;
  if (type == SQLITE_TRACE_STMT && (asked & TraceOptions::Statements) == 0) return 0;
  if (type == SQLITE_TRACE_PROFILE && (asked & TraceOptions::Profile) == 0) return 0;
  TraceEvent::Kind kind = TraceEvent::Kind::Statement;
  const char* sql = nullptr;
  std::int64_t nanoseconds = -1;
  if (type == SQLITE_TRACE_STMT) {
    kind = TraceEvent::Kind::Statement;
    const char* text = static_cast<const char*>(detail);
    sql = isTriggerComment(text) ? text : sqlite3_sql(statement);
  } else if (type == SQLITE_TRACE_PROFILE) {
    kind = TraceEvent::Kind::Profile;
    sql = sqlite3_sql(statement);
    nanoseconds = *static_cast<const sqlite3_int64*>(detail);
  } else {
    return 0;
  }
  if (sql == nullptr) sql = "";
  const char* expanded = nullptr;
  char* made = nullptr;
  if ((connection.hooks.traceOptions & TraceOptions::ExpandedSQL) != 0) {
    if (kind == TraceEvent::Kind::Statement && isTriggerComment(sql)) {
      expanded = sql;  // a trigger's comments show no bound values
    } else {
      made = sqlite3_expanded_sql(statement);  // null when out of memory
      expanded = made;
    }
  }
  try {
    hook.function(hook.context, kind, sql, expanded, nanoseconds);
  } catch (...) {
  }
  sqlite3_free(made);
  return 0;
}

// The C++ callback: a std::function in a context the core deletes.
using TraceCallback = std::function<void(const TraceEvent&)>;

void deleteTraceCallback(void* context) { delete static_cast<TraceCallback*>(context); }

void callTraceCallback(void* context, TraceEvent::Kind kind, const char* sql, const char* expandedSQL,
                       std::int64_t nanoseconds) {
  try {
    TraceEvent event;
    event.kind = kind;
    event.sql = sql;
    if (expandedSQL != nullptr) event.expandedSQL = std::string(expandedSQL);
    if (nanoseconds >= 0) event.duration = std::chrono::nanoseconds(nanoseconds);
    (*static_cast<TraceCallback*>(context))(event);
  } catch (...) {
  }
}

}  // namespace

void refreshSQLiteTrace(Connection& connection) noexcept {
  if (connection.db == nullptr) return;
  unsigned mask = 0;
  if (connection.hooks.trace.function != nullptr) {
    if ((connection.hooks.traceOptions & TraceOptions::Statements) != 0) mask |= SQLITE_TRACE_STMT;
    if ((connection.hooks.traceOptions & TraceOptions::Profile) != 0) mask |= SQLITE_TRACE_PROFILE;
  }
  if (connection.observation && connection.observation->needsStatementEvents()) mask |= SQLITE_TRACE_STMT;
  sqlite3_trace_v2(connection.db, mask, mask != 0 ? &traceTrampoline : nullptr, mask != 0 ? &connection : nullptr);
}

void installTrace(Connection& connection, unsigned options, TraceFunction function, void* context,
                  HookRelease release) noexcept {
  const unsigned events = options & (TraceOptions::Statements | TraceOptions::Profile);
  if (connection.db == nullptr || events == 0) function = nullptr;  // nothing to report
  HookCallback<TraceFunction> old = connection.hooks.trace;
  connection.hooks.trace = HookCallback<TraceFunction>();
  connection.hooks.traceOptions = 0;
  if (function != nullptr) {
    connection.hooks.trace.function = function;
    connection.hooks.trace.context = context;
    connection.hooks.trace.release = release;
    connection.hooks.traceOptions = options;
  }
  refreshSQLiteTrace(connection);
  old.reset();
  // Nothing installed: a context handed over is freed now.
  if (function == nullptr && release != nullptr) release(context);
}

void Database::trace(unsigned options, std::function<void(const TraceEvent&)> callback) {
  if (!beginCall()) return;  // `callback` is destroyed on return
  if (!callback) return installTrace(*connection_, 0, nullptr, nullptr, nullptr);
  auto* held = new (std::nothrow) TraceCallback(std::move(callback));
  if (held == nullptr) {
    connection_->fail(SQLITE_NOMEM, "out of memory while installing a callback", std::string());
    return;
  }
  installTrace(*connection_, options, &callTraceCallback, held, &deleteTraceCallback);
}

namespace interop {

void HookAccess::trace(Database& database, unsigned options, Trace function, void* context, Release release) noexcept {
  if (!database.beginCall()) {
    if (release != nullptr) release(context);
    return;
  }
  installTrace(*database.connection_, options, function, context, release);
}

}  // namespace interop

}  // namespace sqlitebridge
