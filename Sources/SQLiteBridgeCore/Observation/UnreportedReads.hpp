// The tables a statement reads without reading any of their columns
// (COUNT(*), SELECT 1 FROM t, EXISTS (SELECT 1 FROM t)), which SQLite's
// authorizer reports (SQLITE_READ with an empty column name) only since
// SQLite 3.19.0. On an older SQLite (the SQLCipher build's 3.15) they are
// found in the statement's program instead. Internal.
#pragma once

#include <vector>

#include "StatementFootprint.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

/// Whether the linked SQLite's authorizer reports every table a statement
/// reads, even one of which it reads no column (SQLite ≥ 3.19.0). When it
/// does not, `addUnreportedReads` makes up for it.
bool authorizerReportsTablesWithoutColumns() noexcept;

/// For a SQLite whose authorizer does not report the tables a statement
/// reads without their columns: adds those of `stmt` (prepared on `db`
/// while `records` were reported) to `footprint.reads`, whole, as a newer
/// SQLite's authorizer would have. They are found in the statement's program
/// (its EXPLAIN): a table whose rows it counts (COUNT(*)), and a table (or
/// one of its indexes) it opens for reading of which no column was reported
/// and that it does not change. Does nothing for a statement without a
/// SELECT. Prepares and runs statements of its own on `db`: call it outside
/// SQLite's callbacks, while the authorizer ignores what it reports. Never
/// throws: when the program cannot be read (out of memory), the footprint
/// becomes unknown.
void addUnreportedReads(sqlite3* db, sqlite3_stmt* stmt, const std::vector<AuthorizerRecord>& records,
                        StatementFootprint& footprint) noexcept;

}  // namespace sqlitebridge
