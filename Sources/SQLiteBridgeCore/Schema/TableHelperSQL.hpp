// The SQL the table helpers and the records share. Internal.
#pragma once

#include <string>
#include <vector>

#include "sqlitebridge/TableHelpers.hpp"

namespace sqlitebridge {

class Connection;

/// `name` quoted into `out`; fails (SQLITE_MISUSE naming `what`, e.g. "table
/// name") when it holds NUL, where SQLite's text would end.
bool quoted(Connection& connection, const std::string& name, const char* what, std::string& out);

/// `INSERT OR <onConflict> INTO "table" ("c", ...) VALUES (?, ...)`, or
/// `DEFAULT VALUES` for no columns; fails as `quoted`.
bool insertSQL(Connection& connection, const std::string& table, const std::vector<std::string>& columns,
               ConflictResolution onConflict, std::string& sql);

}  // namespace sqlitebridge
