// Loadable extensions: the one place that enables extension loading, for one
// sqlite3_load_extension call at a time. Internal; the public side is
// Database::loadExtension and Configuration::extensions (LoadExtension.cpp,
// OpenConnection.cpp).
#pragma once

#include <string>
#include <vector>

#include "Connection.hpp"
#include "sqlitebridge/Extension.hpp"

namespace sqlitebridge {

/// Fails (SQLITE_MISUSE) when `path` is empty or `path` or `entryPoint`
/// holds a NUL byte; nothing is loaded.
bool checkExtension(Connection& connection, const std::string& path, const std::string& entryPoint) noexcept;

/// Loads the extension into the open `connection` with the C API, extension
/// loading enabled for the call only (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION,
/// off again after it whatever happened; the SQL function load_extension()
/// is never enabled). On failure records SQLITE_ERROR naming `path` (and
/// `entryPoint`) with SQLite's reason; returns false.
bool loadExtensionInto(Connection& connection, const std::string& path, const std::string& entryPoint) noexcept;

/// `loadExtensionInto` on a raw handle, for a connection the core opens for
/// itself: SQLite's result code, and the failure's message in `message`.
int loadExtensionIntoHandle(sqlite3* db, const std::string& path, const std::string& entryPoint,
                            std::string& message) noexcept;

}  // namespace sqlitebridge
