#include "OpenConnection.hpp"

#include "ConnectionObservation.hpp"
#include "Encryption.hpp"
#include "LoadExtension.hpp"
#include "SQLiteMinimum.hpp"
#include "StorageFailure.hpp"

namespace sqlitebridge {

namespace {

int openFlags(OpenMode mode) noexcept {
  // NOMUTEX: a Database is confined to one thread at a time, so SQLite's
  // per-call connection mutex would only cost time.
  const int base = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case OpenMode::ReadOnly:
      return base | SQLITE_OPEN_READONLY;
    case OpenMode::ReadWrite:
      return base | SQLITE_OPEN_READWRITE;
    case OpenMode::ReadWriteCreate:
      break;
  }
  return base | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
}

// The open's first read met a lock that outlived the busy timeout: say so,
// since SQLite's "database is locked" does not tell which lock or how long.
void explainBusyOpen(Connection& connection) {
  const int timeout = connection.busyTimeoutMilliseconds;
  connection.error.message +=
      timeout > 0
          ? ": another connection held the lock for longer than the busy timeout (" + std::to_string(timeout) + " ms)"
          : ": another connection holds the lock and the busy timeout is 0 (fail at once)";
}

// Open option sharedCacheName: the URI of the named in-memory database, the
// name percent-escaped (SQLite decodes %HH in a URI's path), so that '?',
// '#', '%', '&', '/' and spaces are part of the name.
std::string sharedCacheUri(const std::string& name) {
  static const char hex[] = "0123456789ABCDEF";
  std::string uri = "file:";
  for (unsigned char c : name) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 0xf];
    }
  }
  return uri + "?mode=memory&cache=shared";
}

// Open option journalMode: the name SQLite gives each mode.
const char* journalModeName(JournalMode mode) noexcept {
  switch (mode) {
    case JournalMode::Delete:
      return "delete";
    case JournalMode::Truncate:
      return "truncate";
    case JournalMode::Persist:
      return "persist";
    case JournalMode::Memory:
      return "memory";
    case JournalMode::Wal:
      return "wal";
    case JournalMode::Off:
      break;
  }
  return "off";
}

// Open option synchronous: the level as PRAGMA synchronous reads it back.
int synchronousLevel(Synchronous level) noexcept {
  switch (level) {
    case Synchronous::Off:
      return 0;
    case Synchronous::Normal:
      return 1;
    case Synchronous::Full:
      return 2;
    case Synchronous::Extra:
      break;
  }
  return 3;
}

// Runs `PRAGMA journal_mode = <mode>` and returns SQLite's answer (the mode it
// keeps) in `kept`.
int setJournalMode(sqlite3* db, JournalMode mode, std::string& kept) {
  const std::string sql = std::string("PRAGMA journal_mode = ") + journalModeName(mode);
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(stmt, 0);
      kept = text == nullptr ? std::string() : reinterpret_cast<const char*>(text);
      rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
      rc = SQLITE_OK;
    }
  }
  sqlite3_finalize(stmt);
  return rc;
}

// A step of the open failed with `rc`: records SQLite's error, says which
// lock when it is SQLITE_BUSY, names the path and closes the connection.
bool failOpen(Connection& connection, int rc, const std::string& path,
              const Configuration& configuration = Configuration()) noexcept {
  connection.failFromSQLite(rc, std::string());
  try {
    if ((rc & 0xff) == SQLITE_BUSY) explainBusyOpen(connection);
    if ((rc & 0xff) == SQLITE_NOTADB) explainNotADatabase(connection, configuration);
    connection.error.message += ": " + path;
  } catch (...) {
  }
  connection.close();
  return false;
}

// Open options vfs, extensions and autoCheckpointPages: the checks that need
// no connection, made before any file is.
bool checkBeforeOpen(Connection& connection, const Configuration& configuration) noexcept {
  if (configuration.autoCheckpointPages < -1) {
    try {
      return connection.fail(SQLITE_MISUSE,
                             "autoCheckpointPages is " + std::to_string(configuration.autoCheckpointPages) +
                                 ": -1 leaves SQLite's default, 0 turns automatic checkpoints off, and a positive "
                                 "number of pages sets them",
                             std::string());
    } catch (...) {
      return connection.fail(SQLITE_MISUSE, std::string(), std::string());
    }
  }
  if (configuration.vfs.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_MISUSE, "the VFS name holds a NUL byte", std::string());
  }
  for (const Extension& extension : configuration.extensions) {
    if (!checkExtension(connection, extension.path, extension.entryPoint)) return false;
  }
  return true;
}

// A private in-memory connection on the default VFS into which the
// configured extensions were loaded, so that one that registers the VFS the
// configuration names has done so. Kept open until the real connection has
// loaded them too, so that an extension is never unloaded (with the VFS it
// registered) in between.
class ExtensionPreload {
 public:
  ExtensionPreload() = default;
  ExtensionPreload(const ExtensionPreload&) = delete;
  ExtensionPreload& operator=(const ExtensionPreload&) = delete;
  ~ExtensionPreload() { sqlite3_close(db_); }

  // Loads every extension; on failure records its error on `connection`.
  bool load(Connection& connection, const Configuration& configuration) noexcept {
    int rc = sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) return connection.fail(rc, "cannot open a connection to load the extensions", "");
    for (const Extension& extension : configuration.extensions) {
      std::string message;
      rc = loadExtensionIntoHandle(db_, extension.path, extension.entryPoint, message);
      if (rc != SQLITE_OK) return connection.fail(rc, message, std::string());
    }
    return true;
  }

 private:
  sqlite3* db_ = nullptr;
};

// Open option vfs: an unregistered name fails as SQLITE_CANTOPEN, naming
// it (SQLite's own open would say SQLITE_ERROR "no such vfs").
bool checkVfs(Connection& connection, const Configuration& configuration, ExtensionPreload& preload) noexcept {
  if (configuration.vfs.empty() || sqlite3_vfs_find(configuration.vfs.c_str()) != nullptr) return true;
  if (!configuration.extensions.empty()) {
    if (!preload.load(connection, configuration)) return false;
    if (sqlite3_vfs_find(configuration.vfs.c_str()) != nullptr) return true;
  }
  try {
    std::string message = "no VFS named \"" + configuration.vfs + "\" is registered";
    if (!configuration.extensions.empty()) message += " (the configured extensions did not register it)";
    return connection.fail(SQLITE_CANTOPEN, message, std::string());
  } catch (...) {
    return connection.fail(SQLITE_CANTOPEN, std::string(), std::string());
  }
}

}  // namespace

bool openConnection(Connection& connection, const std::string& path, OpenMode mode,
                    const Configuration& configuration) noexcept {
  connection.close();
  connection.clearError();
  // A loaded SQLite older than the core's minimum (3.37.0) fails every
  // open, naming both versions, before anything is made.
  if (!checkSQLiteVersion(connection)) return false;
  // SQLite reads the path as a C string: "a.db\0x" would open "a.db".
  if (path.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_CANTOPEN, "the database path holds a NUL byte", std::string());
  }
  // Open option key: refused before any file is made when this build cannot
  // encrypt, so nothing is ever written in plain text by mistake.
  if (!checkKeyBeforeOpen(connection, configuration)) return false;
  if (!checkBeforeOpen(connection, configuration)) return false;
  ExtensionPreload preload;
  if (!checkVfs(connection, configuration, preload)) return false;
  std::string target;  // what SQLite opens
  int flags = openFlags(mode);
  try {
    target = path;
    // Open option sharedCacheName: the named in-memory database replaces the
    // path, which must not name another.
    if (configuration.sharedCacheName) {
      const std::string& name = *configuration.sharedCacheName;
      if (!path.empty() && path != ":memory:") {
        return connection.fail(SQLITE_MISUSE,
                               "sharedCacheName opens a named in-memory database, so the path must be \"\" or "
                               "\":memory:\", not \"" +
                                   path + "\"",
                               std::string());
      }
      if (name.empty()) return connection.fail(SQLITE_MISUSE, "sharedCacheName is empty", std::string());
      if (name.find('\0') != std::string::npos) {
        return connection.fail(SQLITE_MISUSE, "sharedCacheName holds a NUL byte", std::string());
      }
      target = sharedCacheUri(name);
      flags |= SQLITE_OPEN_URI | SQLITE_OPEN_SHAREDCACHE;
    }
    // Open option uriFilenames: SQLite reads "file:" URIs here whatever the
    // flag says when built with SQLITE_USE_URI (Debian's is), so a plain name
    // that starts with "file:" is made relative ("./file:...") to stay one.
    if (configuration.uriFilenames) {
      flags |= SQLITE_OPEN_URI;
    } else if (!configuration.sharedCacheName && target.compare(0, 5, "file:") == 0) {
      target = "./" + target;
    }
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
  // Open option noFollowSymlinks.
  if (configuration.noFollowSymlinks) flags |= SQLITE_OPEN_NOFOLLOW;
  sqlite3* db = nullptr;
  const int rc =
      sqlite3_open_v2(target.c_str(), &db, flags, configuration.vfs.empty() ? nullptr : configuration.vfs.c_str());
  if (rc != SQLITE_OK) {
    const int extended = db != nullptr ? sqlite3_extended_errcode(db) : rc;
    std::string message = describeStorageFailure(extended, db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    try {
      message += ": " + path;
      if (configuration.noFollowSymlinks && extended == SQLITE_CANTOPEN_SYMLINK) {
        message += " (a symbolic link, or a path through one, which noFollowSymlinks refuses)";
      }
    } catch (...) {
    }
    return connection.fail(extended, message, std::string());
  }
  connection.db = db;
  sqlite3_extended_result_codes(db, 1);
  // Before the first prepare (setting an authorizer expires statements).
  installAuthorizer(connection);
  // Before anything reads the file: a writer, a commit or a WAL checkpoint
  // of another connection is waited for, not reported as "locked".
  connection.setBusyTimeout(configuration.busyTimeoutMilliseconds);
  // Open option key: before the first read, which decrypts page 1.
  const int keyRc = applyKey(connection, configuration);
  if (keyRc != SQLITE_OK) return failOpen(connection, keyRc, path);
  // Open option extensions: before the first read, so that what they
  // register is there for the schema and for the caller's first statement.
  for (const Extension& extension : configuration.extensions) {
    if (!loadExtensionInto(connection, extension.path, extension.entryPoint)) {
      try {
        connection.error.message += ": " + path;
      } catch (...) {
      }
      connection.close();
      return false;
    }
  }
  // Reading the schema touches page 1, so garbage (or a wrong key) fails
  // now, clearly, rather than at the first query.
  const char* probe = "SELECT count(*) FROM sqlite_master";
  sqlite3_stmt* stmt = nullptr;
  int probeRc = sqlite3_prepare_v2(db, probe, -1, &stmt, nullptr);
  if (probeRc == SQLITE_OK) {
    probeRc = sqlite3_step(stmt);
    if (probeRc == SQLITE_ROW) probeRc = SQLITE_OK;
  }
  sqlite3_finalize(stmt);
  // Before the caller's first statement, so that it is never run without.
  if (probeRc == SQLITE_OK) {
    probeRc = sqlite3_exec(db, configuration.foreignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF",
                           nullptr, nullptr, nullptr);
  }
  if (probeRc != SQLITE_OK) return failOpen(connection, probeRc, path, configuration);
  // Open option journalMode: SQLite answers the mode it keeps, which is not
  // always the one asked (an in-memory database stays in "memory").
  if (configuration.journalMode) {
    std::string kept;
    int journalRc = SQLITE_NOMEM;
    try {
      journalRc = setJournalMode(db, *configuration.journalMode, kept);
    } catch (...) {
    }
    if (journalRc != SQLITE_OK) return failOpen(connection, journalRc, path);
    const char* asked = journalModeName(*configuration.journalMode);
    if (kept != asked) {
      try {
        connection.fail(
            SQLITE_ERROR,
            std::string("journal_mode \"") + asked + "\" was asked, and SQLite kept \"" + kept + "\": " + path,
            std::string());
      } catch (...) {
        connection.fail(SQLITE_ERROR, std::string(), std::string());
      }
      connection.close();
      return false;
    }
  }
  // Open option synchronous (after the journal mode, whose switch to WAL
  // would otherwise pick WAL's default level).
  if (configuration.synchronous) {
    const char* levels[] = {"PRAGMA synchronous = 0", "PRAGMA synchronous = 1", "PRAGMA synchronous = 2",
                            "PRAGMA synchronous = 3"};
    const int synchronousRc =
        sqlite3_exec(db, levels[synchronousLevel(*configuration.synchronous)], nullptr, nullptr, nullptr);
    if (synchronousRc != SQLITE_OK) return failOpen(connection, synchronousRc, path);
  }
  // Open option fullFsync: SQLite's default is off everywhere.
  if (configuration.fullFsync) {
    const int fullFsyncRc =
        sqlite3_exec(db, "PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON", nullptr, nullptr, nullptr);
    if (fullFsyncRc != SQLITE_OK) return failOpen(connection, fullFsyncRc, path);
  }
  // Open option autoCheckpointPages (after the journal mode; it matters in
  // WAL only). 0 turns automatic checkpoints off.
  if (configuration.autoCheckpointPages >= 0) {
    const int checkpointRc = sqlite3_wal_autocheckpoint(db, configuration.autoCheckpointPages);
    if (checkpointRc != SQLITE_OK) return failOpen(connection, checkpointRc, path);
  }
  // Open option sharedCacheName with readOnly: "mode=memory" overrides
  // SQLITE_OPEN_READONLY, so writes are refused by query_only instead.
  if (configuration.sharedCacheName && configuration.readOnly) {
    const int queryOnlyRc = sqlite3_exec(db, "PRAGMA query_only = ON", nullptr, nullptr, nullptr);
    if (queryOnlyRc != SQLITE_OK) return failOpen(connection, queryOnlyRc, path);
  }
  try {
    // Database::path() is empty for in-memory and temporary databases
    // (":memory:", "", "file::memory:", ...), which have no file name.
    const char* file = sqlite3_db_filename(db, "main");
    connection.path = file == nullptr || *file == '\0' ? std::string() : path;
    if (file != nullptr && *file != '\0') {
      connection.openFile = FileIdentity::of(file);
      registerOpenFile(connection.openFile);
    }
  } catch (...) {
    connection.close();
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
  return true;
}

}  // namespace sqlitebridge
