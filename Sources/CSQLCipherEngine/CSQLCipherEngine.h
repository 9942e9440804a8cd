// The engine's header, found through the pkg-config module's include
// directory (see module.modulemap). SQLCipher declares sqlite3_key and
// sqlite3_rekey only with SQLITE_HAS_CODEC.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlcipher/sqlite3.h>
