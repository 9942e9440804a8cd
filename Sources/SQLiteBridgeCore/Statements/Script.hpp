// Running a script of several statements, one statement at a time. Internal.
#pragma once

#include <cstddef>
#include <string_view>

#include "Connection.hpp"

namespace sqlitebridge {

/// Prepares the next statement of `script`, starting at `offset` (leading
/// whitespace, comments and semicolons are skipped), and moves `offset`
/// past it. When only such filler is left, sets `*stmt` to null and returns
/// true. On failure records the error, naming the failing statement's text,
/// and returns false (a NUL byte in the script is SQLITE_MISUSE).
bool prepareNextStatement(Connection& connection, std::string_view script, std::size_t& offset,
                          sqlite3_stmt** stmt) noexcept;

/// Runs every statement in `sql` in order, stepping each to completion and
/// ignoring rows. Stops at the first failure (recorded as above); returns
/// false then.
bool runScript(Connection& connection, std::string_view sql) noexcept;

}  // namespace sqlitebridge
