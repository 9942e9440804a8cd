// The oldest SQLite the core runs on: 3.37.0 (PRAGMA table_list, the newest
// SQLite feature the core relies on). Older is refused twice: a sqlite3.h
// older than that fails the build (SQLiteMinimum.cpp's #error), and a
// loaded library older than that fails every open (openConnection asks
// checkSQLiteVersion before anything else). Internal.
#pragma once

#include <string>

#include "Connection.hpp"

namespace sqlitebridge {

/// SQLite 3.37.0, as SQLITE_VERSION_NUMBER and sqlite3_libversion_number()
/// count.
constexpr int kMinimumSQLiteVersionNumber = 3037000;

/// Empty when a SQLite library whose sqlite3_libversion_number() is
/// `versionNumber` is new enough; otherwise the message of the error an
/// open fails with, naming that version and the minimum.
std::string sqliteVersionProblem(int versionNumber);

/// Records sqliteVersionProblem(sqlite3_libversion_number()) on
/// `connection` as SQLITE_ERROR and returns false when the loaded SQLite is
/// older than the minimum; true otherwise.
bool checkSQLiteVersion(Connection& connection) noexcept;

}  // namespace sqlitebridge
