// SQLite's snapshot API (sqlite3_snapshot_get/open/free/cmp), which exists
// only in an SQLite built with SQLITE_ENABLE_SNAPSHOT. Builds that link the
// current engine (SQLITEBRIDGE_CURRENT_SQLITE: CMake SQLITEBRIDGE_ENGINE_PREFIX,
// SwiftPM trait CurrentSQLite; SQLITEBRIDGE_CURRENT_SQLCIPHER for the
// SQLCipher engine) call it directly; every other build looks the functions
// up at run time, so that a system SQLite without them (Debian's) still
// links and one with them (Apple's) works. Internal.
#pragma once

#include <string>

#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/SQLiteHeader.hpp"

namespace sqlitebridge::detail {

/// The snapshot functions of the linked SQLite.
struct SnapshotApi {
  int (*get)(sqlite3*, const char*, sqlite3_snapshot**);
  int (*open)(sqlite3*, const char*, sqlite3_snapshot*);
  void (*free)(sqlite3_snapshot*);
  int (*cmp)(sqlite3_snapshot*, sqlite3_snapshot*);
};

/// The linked SQLite's snapshot functions; null when it has none.
const SnapshotApi* snapshotApi() noexcept;

/// SQLITE_ERROR saying that database snapshots need an SQLite built with
/// SQLITE_ENABLE_SNAPSHOT, and naming the version this build runs on.
Error snapshotsUnavailableError() noexcept;

}  // namespace sqlitebridge::detail
