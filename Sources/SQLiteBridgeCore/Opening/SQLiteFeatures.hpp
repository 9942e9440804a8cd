// Which SQLite features the linked library has, and the error for one it
// lacks. The default build runs on the system SQLite (3.40 on Debian 12),
// which has all of them; the encrypted variant runs on SQLCipher, which on
// Debian 12 is built on SQLite 3.15.2. Every use of a feature newer than
// that asks here first: a feature with a fallback takes it, one without
// fails with failMissingFeature's error instead of SQLite's own ("no such
// table: pragma_table_xinfo").
#pragma once

#include <string>

#include "Connection.hpp"
#include "sqlitebridge/Export.hpp"

namespace sqlitebridge {

/// A SQLite feature the core uses that is newer than SQLite 3.15.
enum class SQLiteFeature {
  /// `PRAGMA table_xinfo` (hidden and generated columns), SQLite 3.26.0.
  /// Fallback: `PRAGMA table_info` (every column reads as not hidden).
  TableXinfo,
  /// `PRAGMA table_list`, SQLite 3.37.0. Fallback: sqlite_master.
  TableList,
  /// SQLITE_OPEN_NOFOLLOW (Configuration::noFollowSymlinks), SQLite
  /// 3.31.0. No fallback.
  OpenNoFollow,
  /// The authorizer's SQLITE_READ with an empty column name for a table a
  /// statement reads without any of its columns (COUNT(*)), SQLite 3.19.0.
  /// Fallback: observation finds such tables in the statement's program
  /// (Observation/UnreportedReads.cpp).
  AuthorizerReadsOfTables,
};

/// True when both the sqlite3.h the core was compiled with and the library
/// it runs on have `feature`. Exported from a shared core: the cluster
/// library asks too.
SQLITEBRIDGE_API bool hasSQLiteFeature(SQLiteFeature feature) noexcept;

/// "<what> needs SQLite ≥ <version>; this build runs on SQLite <version>
/// (SQLCipher)": the message of the error a missing feature fails with
/// (SQLITE_ERROR).
std::string missingFeatureMessage(SQLiteFeature feature, const std::string& what);

/// Records missingFeatureMessage on `connection` as SQLITE_ERROR; false.
bool failMissingFeature(Connection& connection, SQLiteFeature feature, const std::string& what) noexcept;

}  // namespace sqlitebridge
