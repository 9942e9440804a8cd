// For tests of a feature newer than the SQLite the suite may run on: the
// encrypted variant (SQLITEBRIDGE_SQLCIPHER) runs on SQLCipher, which on
// Debian 12 is SQLite 3.15.2. Such a test skips there, naming the feature;
// SQLiteFeatureTests.cpp asserts the documented "needs SQLite ≥ x.y" error
// of each feature without a fallback, so a skipped feature is still tested.
#pragma once

#include <gtest/gtest.h>

#include "sqlitebridge/SQLite.hpp"

/// Whether the SQLite the suite runs on is at least `number` (as
/// SQLITE_VERSION_NUMBER counts), for a check that only newer ones pass.
inline bool sqliteIsAtLeast(int number) { return sqlite3_libversion_number() >= number; }

/// Skips the running test unless SQLite was compiled with `option` (as
/// `PRAGMA compile_options` names it: "ENABLE_FTS5"); SQLCipher's build lacks
/// some the system SQLite has.
#define SQLITEBRIDGE_SKIP_UNLESS_COMPILED(option)                                      \
  do {                                                                                 \
    if (!sqlite3_compileoption_used(option)) {                                         \
      GTEST_SKIP() << "this SQLite (" << sqlite3_libversion() << ") lacks " << option; \
    }                                                                                  \
  } while (false)

/// Skips the running test unless SQLite is at least `number` (as
/// SQLITE_VERSION_NUMBER counts: 3031000 is 3.31.0), which `feature` needs.
#define SQLITEBRIDGE_SKIP_UNLESS_SQLITE(number, feature)                                               \
  do {                                                                                                 \
    if (sqlite3_libversion_number() < (number)) {                                                      \
      GTEST_SKIP() << feature << " needs SQLite " << (number) << "; this is " << sqlite3_libversion(); \
    }                                                                                                  \
  } while (false)
