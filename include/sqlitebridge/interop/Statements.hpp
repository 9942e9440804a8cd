// For the Swift facade only; no stability promise. Statements as Swift
// drives them: named binding step by step from Swift strings, lending a
// cached statement into a statement variable Swift keeps, and the statement
// text helpers with the types Swift passes. Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. C++ callers use Statement::bind and
// Database::execute instead. All inline: they are on the path of every query.
#pragma once

#include <cstddef>
#include <string>

#include "../sqlitebridge.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// The parameters one named argument fills: up to three, when the same name
/// appears with different prefixes (`:id`, `@id`, `$id`). Indexes are 1-based.
struct ParameterMatch {
  /// How many parameters matched (0 means none: an error was recorded).
  int count = 0;
  /// The first matching parameter index (valid when `count` > 0).
  int first = 0;
  /// The second (valid when `count` > 1).
  int second = 0;
  /// The third (valid when `count` > 2).
  int third = 0;

  /// The `i`-th matching parameter index, for `i` below `count`.
  int index(int i) const noexcept { return i == 0 ? first : i == 1 ? second : third; }
};

/// Named binding driven by the caller, as `Statement::bind(const
/// NamedValues&)` does it in three steps: begin, then match each argument's
/// name and bind the indexes it returns, then end.
struct StatementAccess {
  /// Starts named binding; fails with SQLITE_RANGE when a parameter is
  /// positional (`?` or `?NNN`).
  SQLITEBRIDGE_INLINE static bool beginNamedArguments(Statement& statement) noexcept {
    return statement.beginNamedArguments();
  }
  /// The parameters the argument called `key` (`size` bytes of UTF-8, with
  /// or without its `:`/`@`/`$` prefix) fills. A key that matches no
  /// parameter, or one already filled, fails with SQLITE_RANGE (count 0).
  SQLITEBRIDGE_INLINE static ParameterMatch matchNamedArgument(Statement& statement, const void* key,
                                                               std::size_t size) noexcept {
    return statement.matchNamedArgument(key, size);
  }
  /// Finishes named binding; fails with SQLITE_RANGE naming the first
  /// parameter no argument filled.
  SQLITEBRIDGE_INLINE static bool endNamedArguments(Statement& statement) noexcept {
    return statement.endNamedArguments();
  }
};

/// Lending from the statement cache into a statement variable the caller
/// keeps (each move of a C++ statement costs Swift a call).
struct DatabaseAccess {
  /// `Database::cachedStatement` for `size` bytes of UTF-8 SQL, for a caller
  /// that binds every parameter before stepping (checking the count with
  /// `expectArgumentCount`, or naming them all between
  /// `beginNamedArguments` and `endNamedArguments`): the values an earlier
  /// use bound are not cleared first. Replaces what `statement` held; false
  /// on failure, with the reason in the database's `lastError()`.
  SQLITEBRIDGE_INLINE static bool lendForArguments(Database& database, const void* utf8, std::size_t size,
                                                   Statement& statement) noexcept {
    return database.cachedStatementForArguments(utf8, size, statement);
  }
};

/// `isCompleteStatement` and `splitStatements` with the types Swift passes
/// and makes (std::string in, a StringList out).
struct StatementTextAccess {
  /// `isCompleteStatement(text)`. Never fails.
  static bool isComplete(const std::string& text) noexcept { return isCompleteStatement(text); }
  /// `splitStatements(text, …)`, its two parts in `statements` and `rest`;
  /// false (both cleared) only when memory runs out.
  static bool split(const std::string& text, StringList& statements, std::string& rest) noexcept {
    StatementSplit split;
    if (!splitStatements(text, split)) return false;
    statements.swap(split.statements);
    rest.swap(split.rest);
    return true;
  }
};

}  // namespace sqlitebridge::interop
