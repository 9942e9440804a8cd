# FindSQLCipher: SQLCipher, the encrypting build of SQLite installed on the
# system (Homebrew's sqlcipher), for SQLITEBRIDGE_SQLCIPHER=ON without
# SQLITEBRIDGE_ENGINE_PREFIX. SQLiteBridge asks for the SQLite version it
# needs (find_package(SQLCipher 3.37)): SQLCipher 4.5.1 and later. Debian 12's
# libsqlcipher-dev is SQLCipher 3.4.1 on SQLite 3.15.2 and is refused; build
# SQLCipher 4 with scripts/build-engine sqlcipher instead.
#
# Defines the imported target SQLCipher::SQLCipher (its include directory
# holds sqlcipher/sqlite3.h) and SQLCipher_FOUND, SQLCipher_VERSION (the
# SQLite version it is built on, from SQLITE_VERSION in its header),
# SQLCipher_INCLUDE_DIR, SQLCipher_LIBRARY.
find_path(SQLCipher_INCLUDE_DIR NAMES sqlcipher/sqlite3.h)
find_library(SQLCipher_LIBRARY NAMES sqlcipher)

if(SQLCipher_INCLUDE_DIR AND EXISTS "${SQLCipher_INCLUDE_DIR}/sqlcipher/sqlite3.h")
  file(STRINGS "${SQLCipher_INCLUDE_DIR}/sqlcipher/sqlite3.h" _sqlcipher_version_line
    REGEX "^#define SQLITE_VERSION +\"[0-9.]+\"")
  string(REGEX REPLACE "^#define SQLITE_VERSION +\"([0-9.]+)\".*" "\\1" SQLCipher_VERSION "${_sqlcipher_version_line}")
  unset(_sqlcipher_version_line)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SQLCipher
  REQUIRED_VARS SQLCipher_LIBRARY SQLCipher_INCLUDE_DIR
  VERSION_VAR SQLCipher_VERSION
  REASON_FAILURE_MESSAGE "SQLiteBridge needs SQLCipher 4 (on SQLite 3.37 or later): build it with scripts/build-engine sqlcipher and configure with -DSQLITEBRIDGE_ENGINE_PREFIX=<its prefix> (the preset sqlcipher does), or install a current one (macOS: brew install sqlcipher)")

if(SQLCipher_FOUND AND NOT TARGET SQLCipher::SQLCipher)
  add_library(SQLCipher::SQLCipher UNKNOWN IMPORTED)
  set_target_properties(SQLCipher::SQLCipher PROPERTIES
    IMPORTED_LOCATION "${SQLCipher_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SQLCipher_INCLUDE_DIR}")
endif()
mark_as_advanced(SQLCipher_INCLUDE_DIR SQLCipher_LIBRARY)
