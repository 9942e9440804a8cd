// For tests of a feature newer than the oldest SQLite the library runs on
// (3.37.0, refused below that: SQLiteMinimumTests.cpp), and of one a build
// of SQLite may leave out (a compile option such as ENABLE_FTS5): such a
// test skips on a SQLite without it, naming what it lacks.
#pragma once

#include <gtest/gtest.h>

#include "sqlitebridge/SQLite.hpp"

/// Whether the SQLite the suite runs on is at least `number` (as
/// SQLITE_VERSION_NUMBER counts), for a check that only newer ones pass.
inline bool sqliteIsAtLeast(int number) { return sqlite3_libversion_number() >= number; }

/// Skips the running test unless SQLite was compiled with `option` (as
/// `PRAGMA compile_options` names it: "ENABLE_FTS5"), which a build of SQLite
/// may leave out.
#define SQLITEBRIDGE_SKIP_UNLESS_COMPILED(option)                                      \
  do {                                                                                 \
    if (!sqlite3_compileoption_used(option)) {                                         \
      GTEST_SKIP() << "this SQLite (" << sqlite3_libversion() << ") lacks " << option; \
    }                                                                                  \
  } while (false)

/// Skips the running test unless SQLite is at least `number` (as
/// SQLITE_VERSION_NUMBER counts: 3038000 is 3.38.0), which `feature` needs.
#define SQLITEBRIDGE_SKIP_UNLESS_SQLITE(number, feature)                                               \
  do {                                                                                                 \
    if (sqlite3_libversion_number() < (number)) {                                                      \
      GTEST_SKIP() << feature << " needs SQLite " << (number) << "; this is " << sqlite3_libversion(); \
    }                                                                                                  \
  } while (false)
