// What `Database::trace` reports and asks for, and what `Database::onChange`
// reports.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace sqlitebridge {

namespace interop {
struct HookAccess;
}  // namespace interop

/// One event `Database::trace` reports.
struct TraceEvent {
  /// `Statement`: a statement starts running (SQLite's SQLITE_TRACE_STMT,
  /// once per run, before its first row). `Profile`: a statement finished
  /// running (SQLITE_TRACE_PROFILE), with how long it ran.
  enum class Kind { Statement, Profile };
  /// Whether a statement starts or finished.
  Kind kind = Kind::Statement;
  /// The statement's SQL as written, with its parameters (`?`, `:name`) and
  /// never the values bound to them. A trigger is reported as SQLite names
  /// it: a comment `-- TRIGGER <name>`, then one per statement it runs
  /// (`-- INSERT INTO log VALUES (new.title)`).
  std::string sql;
  /// The SQL with the bound values written in place of the parameters
  /// (SQLite's sqlite3_expanded_sql); only with `TraceOptions::ExpandedSQL`,
  /// and empty (no value) when SQLite could not make it (out of memory).
  std::optional<std::string> expandedSQL;
  /// How long the statement ran (wall-clock time, as SQLite measures it);
  /// set for `Profile` events only.
  std::optional<std::chrono::nanoseconds> duration;
};

/// What `Database::trace` reports; combine with `|`.
enum TraceOptions : unsigned {
  /// A `TraceEvent::Kind::Statement` event as each statement starts.
  Statements = 1,
  /// A `TraceEvent::Kind::Profile` event as each statement finishes.
  Profile = 2,
  /// Fill `TraceEvent::expandedSQL` (bound values included) in the events
  /// asked for. Alone, it reports nothing.
  ExpandedSQL = 4
};

/// What changed a row, as `Database::onChange` reports it.
enum class ChangeKind { Insert, Update, Delete };

}  // namespace sqlitebridge
