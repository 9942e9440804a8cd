// The loadable extension of Tests/Fixtures/extension/test_extension.c, which
// the build makes as a MODULE (Tests/CxxTests/CMakeLists.txt) and whose path
// it defines.
#pragma once

#include <string>

#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge_test {

/// The path of the built test extension (test_extension.so). Its default
/// entry point registers bridge_ext_answer() (42).
inline std::string testExtensionPath() { return SQLITEBRIDGE_TEST_EXTENSION; }

/// The entry point whose init fails with "bridge_ext refuses to load".
inline const char* kFailingEntryPoint = "sqlite3_bridgeextfail_init";

/// The entry point that registers the VFS "bridge-ext-vfs" (the default
/// VFS under another name) and bridge_ext_answer().
inline const char* kVfsEntryPoint = "sqlite3_bridgeextvfs_init";

/// The name of the VFS the main database's file was opened through
/// (SQLITE_FCNTL_VFSNAME), or "<no answer>".
inline std::string vfsName(sqlitebridge::Database& db) {
  char* name = nullptr;
  if (sqlite3_file_control(db.handle(), "main", SQLITE_FCNTL_VFSNAME, &name) != SQLITE_OK) return "<no answer>";
  std::string result = name != nullptr ? name : "";
  sqlite3_free(name);
  return result;
}

}  // namespace sqlitebridge_test
