// The trace, commit, rollback and change callbacks of one connection, as the
// core keeps them: a C function, the context it is called with, and the
// function that releases the context. Both languages install theirs in this
// form (C++'s std::function in a context the core deletes, Swift's closure
// in a retained box Swift releases), so one code path owns every sqlite3
// call and the lifetime rule. Internal.
#pragma once

#include <cstdint>

#include "sqlitebridge/Tracing.hpp"

namespace sqlitebridge {

class Connection;

/// Frees a callback's context; called once, when the callback is replaced,
/// removed or its connection closes, after SQLite forgot the callback.
using HookRelease = void (*)(void* context);
/// A trace event of `kind`, `sql` the statement's SQL as written, `expandedSQL` null unless asked
/// for, `nanoseconds` the run's duration for a profile event, else -1.
using TraceFunction = void (*)(void* context, TraceEvent::Kind kind, const char* sql, const char* expandedSQL,
                               std::int64_t nanoseconds);
/// A commit or a rollback.
using TransactionFunction = void (*)(void* context);
/// A changed row of `table`.
using ChangeFunction = void (*)(void* context, ChangeKind kind, const char* table, std::int64_t rowID);

/// One installed callback (none when `function` is null).
template <typename Function>
struct HookCallback {
  Function function = nullptr;
  void* context = nullptr;
  HookRelease release = nullptr;

  /// Forgets the callback and releases its context. The caller has made
  /// SQLite forget it first.
  void reset() noexcept {
    const HookRelease releaseContext = release;
    void* const oldContext = context;
    function = nullptr;
    context = nullptr;
    release = nullptr;
    if (releaseContext != nullptr) releaseContext(oldContext);
  }
};

/// Every hook of one connection.
struct ConnectionHooks {
  /// The `TraceOptions` of the installed trace callback.
  unsigned traceOptions = 0;
  HookCallback<TraceFunction> trace;
  HookCallback<TransactionFunction> commit;
  HookCallback<TransactionFunction> rollback;
  HookCallback<ChangeFunction> change;
};

/// Installs (or, with a null `function`, removes) a hook on `connection`'s
/// open handle: SQLite is told first, then the replaced callback is
/// released. On a closed connection nothing is installed and `context` is
/// released at once. Never fails.
void installTrace(Connection& connection, unsigned options, TraceFunction function, void* context,
                  HookRelease release) noexcept;
void installCommitHook(Connection& connection, TransactionFunction function, void* context,
                       HookRelease release) noexcept;
void installRollbackHook(Connection& connection, TransactionFunction function, void* context,
                         HookRelease release) noexcept;
void installChangeHook(Connection& connection, ChangeFunction function, void* context, HookRelease release) noexcept;
/// Tells SQLite which of its hooks (commit, rollback, update, trace) to
/// call, from the callbacks installed and the connection's observation:
/// after either changes. Never fails.
void refreshSQLiteHooks(Connection& connection) noexcept;
/// The trace part of `refreshSQLiteHooks`.
void refreshSQLiteTrace(Connection& connection) noexcept;
/// Makes SQLite forget every hook of `connection` and releases them (its
/// close does this before closing the handle).
void removeAllHooks(Connection& connection) noexcept;

}  // namespace sqlitebridge
