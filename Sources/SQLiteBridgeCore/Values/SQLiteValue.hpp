// A sqlite3_value (a function's argument, a changeset's column) copied into
// a Value. Internal.
#pragma once

#include "sqlitebridge/SQLite.hpp"
#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {

/// `value`'s type and contents, copied. Throws std::bad_alloc when memory
/// runs out (SQLite's included).
Value valueOf(sqlite3_value* value);

}  // namespace sqlitebridge
