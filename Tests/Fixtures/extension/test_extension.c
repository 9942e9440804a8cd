/*
 * A tiny loadable SQLite extension for the tests of extension loading
 * (Database::loadExtension, Configuration::extensions, the CLI's
 * --extension), built by CMake as a MODULE library for the C++ suite and
 * compiled at test time (cc -shared -fPIC) by the Swift and CLI suites.
 *
 * Entry points:
 * - sqlite3_testextension_init, the default one for a file named
 *   test_extension.so or libtest_extension.so (SQLite derives
 *   "sqlite3_" + the file name's letters after "lib" up to the first "."
 *   + "_init"): registers bridge_ext_answer(), which returns 42, and
 *   bridge_ext_vfs(), the name of the VFS the connection's main database
 *   was opened through (SQLITE_FCNTL_VFSNAME).
 * - sqlite3_bridgeextfail_init: fails its init with SQLITE_ERROR and the
 *   message "bridge_ext refuses to load", registering nothing.
 * - sqlite3_bridgeextvfs_init: registers the VFS "bridge-ext-vfs" (a copy of
 *   the default VFS under another name) and both functions, and stays
 *   loaded for the life of the process (SQLITE_OK_LOAD_PERMANENTLY) since a
 *   registered VFS must outlive the connection that loaded it.
 *
 * Only long-standing functions of the API routines table are used, so it
 * loads in every build.
 */
#include <sqlite3ext.h>
#include <string.h>
SQLITE_EXTENSION_INIT1

static void bridgeExtAnswer(sqlite3_context* context, int argc, sqlite3_value** argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_int(context, 42);
}

/* The name of the VFS the main database's file was opened through
 * (SQLITE_FCNTL_VFSNAME), or NULL when the VFS does not say. */
static void bridgeExtVfsName(sqlite3_context* context, int argc, sqlite3_value** argv) {
  char* name = 0;
  (void)argc;
  (void)argv;
  if (sqlite3_file_control(sqlite3_context_db_handle(context), "main", SQLITE_FCNTL_VFSNAME, &name) == SQLITE_OK &&
      name != 0) {
    sqlite3_result_text(context, name, -1, sqlite3_free);
  } else {
    sqlite3_result_null(context);
  }
}

static int registerAnswer(sqlite3* db) {
  int rc = sqlite3_create_function(db, "bridge_ext_answer", 0, SQLITE_UTF8, 0, bridgeExtAnswer, 0, 0);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "bridge_ext_vfs", 0, SQLITE_UTF8, 0, bridgeExtVfsName, 0, 0);
  return rc;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_testextension_init(sqlite3* db, char** errorMessage, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  (void)errorMessage;
  return registerAnswer(db);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_bridgeextfail_init(sqlite3* db, char** errorMessage, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  (void)db;
  *errorMessage = sqlite3_mprintf("bridge_ext refuses to load");
  return SQLITE_ERROR;
}

static sqlite3_vfs bridgeExtVfs;

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_bridgeextvfs_init(sqlite3* db, char** errorMessage, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  if (sqlite3_vfs_find("bridge-ext-vfs") == 0) {
    sqlite3_vfs* base = sqlite3_vfs_find(0);
    if (base == 0) {
      *errorMessage = sqlite3_mprintf("bridge_ext: no default VFS");
      return SQLITE_ERROR;
    }
    memcpy(&bridgeExtVfs, base, sizeof(bridgeExtVfs));
    bridgeExtVfs.zName = "bridge-ext-vfs";
    bridgeExtVfs.pNext = 0;
    int rc = sqlite3_vfs_register(&bridgeExtVfs, 0);
    if (rc != SQLITE_OK) return rc;
  }
  int rc = registerAnswer(db);
  return rc == SQLITE_OK ? SQLITE_OK_LOAD_PERMANENTLY : rc;
}
