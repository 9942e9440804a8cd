// Which sqlite3.h the core is built against. The default build uses the
// system SQLite (<sqlite3.h>); the encrypted variant (CMake
// SQLITEBRIDGE_SQLCIPHER=ON, SwiftPM trait SQLCipher) defines
// SQLITEBRIDGE_SQLCIPHER and uses SQLCipher's header, which declares
// sqlite3_key and sqlite3_rekey only when SQLITE_HAS_CODEC is defined.
//
// SwiftPM does not pass a C++ target's defines to the Swift targets that
// import it, so Swift's importer may read <sqlite3.h> while the core was
// built against SQLCipher's: the facade calls only functions both declare
// alike. A machine with SQLCipher's headers but not SQLite's reads those.
#pragma once

// SwiftPM defines SQLITEBRIDGE_SYSTEM_SQLITE for its default trait
// SystemSQLite and SQLITEBRIDGE_SQLCIPHER for the trait SQLCipher; with both
// the core would link libsqlite3 and libsqlcipher at once, and which one
// answers a call would depend on the linker.
#if defined(SQLITEBRIDGE_SQLCIPHER) && defined(SQLITEBRIDGE_SYSTEM_SQLITE)
#error \
    "SQLiteBridge: the traits SQLCipher and SystemSQLite are both enabled, which would link two SQLite libraries: disable the default traits and enable SQLCipher alone (swift build --traits SQLCipher; in a dependency, traits: [\"SQLCipher\"] without \"default\")"
#endif

// The trait CurrentSQLite links the engine scripts/build-engine installed;
// beside SystemSQLite or SQLCipher, the core would link two SQLite libraries.
#if defined(SQLITEBRIDGE_CURRENT_SQLITE) && (defined(SQLITEBRIDGE_SYSTEM_SQLITE) || defined(SQLITEBRIDGE_SQLCIPHER))
#error \
    "SQLiteBridge: the trait CurrentSQLite replaces SystemSQLite and cannot be combined with SQLCipher: disable the default traits and enable CurrentSQLite alone (swift build --traits CurrentSQLite)"
#endif

// libdqlite (the SwiftPM trait Dqlite, CMake SQLITEBRIDGE_DQLITE) links the
// system SQLite: beside SQLCipher, a process would hold two SQLite libraries.
#if defined(SQLITEBRIDGE_SQLCIPHER) && defined(SQLITEBRIDGE_DQLITE)
#error \
    "SQLiteBridge: the dqlite node (trait Dqlite, SQLITEBRIDGE_DQLITE) cannot be combined with the SQLCipher build: libdqlite links the system SQLite. Build one or the other."
#endif

#if defined(SQLITEBRIDGE_SQLCIPHER) || \
    (defined(__has_include) && !__has_include(<sqlite3.h>) && __has_include(<sqlcipher/sqlite3.h>))
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlcipher/sqlite3.h>
#else
#include <sqlite3.h>
#endif
