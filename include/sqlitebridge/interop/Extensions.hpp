// For the Swift facade only; no stability promise. Custom functions,
// aggregates, collations, tracing and hooks with C callbacks, so that a Swift
// closure reaches SQLite through the core. Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Extensions/FunctionAccess.cpp, Hooks.cpp and
// Tracing.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// The callbacks of a Swift aggregate (`FunctionAccess::createAggregate`):
/// `makeAggregate(box)` makes one group's aggregate object (a box of its
/// own; null fails the query), `step(aggregate, …)` takes each row of the
/// group, `finalize(aggregate, …)` its result, then
/// `releaseAggregate(aggregate)` gives the group's box up (always, also when
/// the query fails or is abandoned); `release(box)` gives `box` up once,
/// when SQLite destroys the function (or at once when registering fails).
struct AggregateCallbacks {
  /// Makes one group's aggregate object; null fails the query.
  using MakeAggregate = SwiftBox (*)(SwiftBox box);
  /// One row of a group; false with `*error` set fails the query.
  using Step = bool (*)(SwiftBox aggregate, const ValueList* arguments, std::string* error);
  /// The group's result into `*result`; false with `*error` set fails the
  /// query.
  using Finalize = bool (*)(SwiftBox aggregate, Value* result, std::string* error);

  MakeAggregate makeAggregate = nullptr;  ///< Called once per group.
  Step step = nullptr;                    ///< Called once per row.
  Finalize finalize = nullptr;            ///< Called once per group, last.
  ReleaseBox releaseAggregate = nullptr;  ///< Gives a group's aggregate up.
  ReleaseBox release = nullptr;           ///< Gives `box` up.
  SwiftBox box = nullptr;                 ///< The facade's box for the function.
};

/// Custom functions, aggregates and collations with C callbacks: each takes
/// a box the core passes back to every call and a `release` the core calls
/// exactly once when it is done with the box (when SQLite destroys the
/// function: replaced, removed or at close; and at once when registering
/// fails). Every rule (value conversions, how a failure fails the query, the
/// name checks) is `Database::createFunction`'s and `createCollation`'s.
struct SQLITEBRIDGE_API FunctionAccess {
  /// Called for each call of the function with its `arguments`; sets
  /// `*result` (NULL when left alone) and returns true, or sets `*error`
  /// and returns false to fail the query with SQLITE_ERROR and that message.
  using Call = bool (*)(SwiftBox box, const ValueList* arguments, Value* result, std::string* error);
  /// Gives up a box: the core's last use of it.
  using Release = ReleaseBox;
  /// Compares two UTF-8 texts (`aSize` and `bSize` bytes): negative, 0 or
  /// positive.
  using Compare = int (*)(SwiftBox box, const char* a, std::size_t aSize, const char* b, std::size_t bSize);

  /// `Database::createFunction` calling `call(box, …)`; `release(box)` is
  /// called once, when SQLite destroys the function or at once when this
  /// fails (same failures).
  static bool createFunction(Database& database, const std::string& name, int argumentCount, bool deterministic,
                             Call call, Release release, SwiftBox box) noexcept;
  /// `Database::createAggregate` with `callbacks` (see `AggregateCallbacks`);
  /// same failures.
  static bool createAggregate(Database& database, const std::string& name, int argumentCount, bool deterministic,
                              const AggregateCallbacks& callbacks) noexcept;
  /// `Database::createCollation` calling `compare(box, …)`; `release` as
  /// for `createFunction`.
  static bool createCollation(Database& database, const std::string& name, Compare compare, Release release,
                              SwiftBox box) noexcept;

  // The helpers below take pointers, as the callbacks do, so that Swift
  // reaches the core's own objects (never a copy).

  /// How many arguments `arguments` holds.
  static std::size_t count(const ValueList* arguments) noexcept { return arguments->size(); }
  /// Argument `index` (below `count`), read in place: its bytes live as
  /// long as the call.
  static ColumnView argument(const ValueList* arguments, std::size_t index) noexcept {
    return (*arguments)[index].view();
  }
  /// Sets `*result` to NULL.
  static void setNull(Value* result) noexcept { *result = Value(); }
  /// Sets `*result` to an integer.
  static void setInteger(Value* result, std::int64_t integer) noexcept { *result = Value(integer); }
  /// Sets `*result` to a real.
  static void setReal(Value* result, double real) noexcept { *result = Value(real); }
  /// Sets `*result` to text or a blob of `size` bytes copied from `bytes`
  /// (NUL bytes kept; a zero-length blob stays a blob); false only when
  /// memory runs out.
  static bool setText(Value* result, const void* bytes, std::size_t size) noexcept;
  static bool setBlob(Value* result, const void* bytes, std::size_t size) noexcept;
  /// Sets `*error` to `size` bytes of UTF-8 at `bytes`; false only when
  /// memory runs out.
  static bool setError(std::string* error, const void* bytes, std::size_t size) noexcept;

 private:
  /// Records SQLITE_NOMEM on `database`; returns false.
  static bool outOfMemory(Database& database) noexcept;
};

/// `Database::trace`, `onCommit`, `onRollback` and `onChange` with C
/// callbacks: each takes a function the core calls with `box`, and
/// `release`, which the core calls once with `box` when the callback is
/// replaced or removed or the connection closes (SQLite has forgotten the
/// callback by then, so it is never called after). A null function removes
/// the hook (and releases `box`, when `release` is not null). On a closed
/// database nothing is installed, `box` is released at once and
/// SQLITE_MISUSE is recorded in `lastError()`. The rules of the `Database`
/// methods apply: called on the statement's thread, while it runs; the
/// callback must not use the connection.
struct SQLITEBRIDGE_API HookAccess {
  /// Gives up a box; the core calls it once per installed callback.
  using Release = ReleaseBox;
  /// A trace event of `kind`; `sql` the statement's SQL as written;
  /// `expandedSQL` null unless asked for (`TraceOptions::ExpandedSQL`) and
  /// made; `nanoseconds` how long a finished statement ran, -1 for a start.
  /// The strings are the core's for the call only.
  using Trace = void (*)(SwiftBox box, TraceEvent::Kind kind, const char* sql, const char* expandedSQL,
                         std::int64_t nanoseconds);
  /// A commit or a rollback.
  using TransactionEnd = void (*)(SwiftBox box);
  /// A changed row of `table` (the core's for the call only).
  using Change = void (*)(SwiftBox box, ChangeKind kind, const char* table, std::int64_t rowID);

  /// `Database::trace`: `options` are `TraceOptions` bits.
  static void trace(Database& database, unsigned options, Trace function, SwiftBox box, Release release) noexcept;
  /// `Database::onCommit`.
  static void onCommit(Database& database, TransactionEnd function, SwiftBox box, Release release) noexcept;
  /// `Database::onRollback`.
  static void onRollback(Database& database, TransactionEnd function, SwiftBox box, Release release) noexcept;
  /// `Database::onChange`.
  static void onChange(Database& database, Change function, SwiftBox box, Release release) noexcept;
};

}  // namespace sqlitebridge::interop
