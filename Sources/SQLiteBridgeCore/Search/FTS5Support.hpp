// Reaching FTS5 from the core. Internal.
#pragma once

#include <sqlite3.h>

#include "sqlitebridge/Error.hpp"

namespace sqlitebridge {

/// The FTS5 API of connection `db` (the documented `SELECT fts5(?1)`
/// handshake), or null with `problem` set to SQLITE_ERROR saying that this
/// SQLite has no fts5 module (naming its version).
fts5_api* fts5Api(sqlite3* db, Error& problem) noexcept;

}  // namespace sqlitebridge
