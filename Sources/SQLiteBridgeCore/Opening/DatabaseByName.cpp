// Database(name, createSQL, location): the bundle copy (of the seed
// `location.seedName`, by default `name`) or the creation of a database on
// first use, and reuse of the writable copy afterwards.
#include <strings.h>

#include <cstring>

#include "Connection.hpp"
#include "DatabaseName.hpp"
#include "FileSystem.hpp"
#include "OpenConnection.hpp"
#include "Query.hpp"
#include "Script.hpp"
#include "StorageFailure.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// A relative path SQLite could read as a "file:" URI gets a "./" prefix.
std::string plainPath(const std::string& path) { return path.empty() || path[0] == '/' ? path : "./" + path; }

// The journal mode `sql` (a journal_mode PRAGMA) answers ("delete", "wal",
// ...); empty when it cannot be read (the error is then the connection's).
std::string journalModeOf(Connection& connection, const std::string& sql) {
  std::string mode;
  const bool ran = query(connection, sql, {}, [&](sqlite3_stmt* stmt) {
    const unsigned char* text = sqlite3_column_text(stmt, 0);
    if (text != nullptr) mode = reinterpret_cast<const char*>(text);
  });
  if (ran && mode.empty()) connection.fail(SQLITE_ERROR, "SQLite answered no journal mode", sql);
  return mode;
}

// After the creation script committed: moves whatever it left outside the
// main file back into it. A script may switch to WAL (or a VFS may refuse
// the lock the checkpoint at close needs): then committed pages sit in the
// -wal, which closing does not report, and publishing the main file alone
// would publish a database without them. Switching to "delete" checkpoints
// the WAL and removes it, or fails. Sets `scriptMode` to the mode the
// script left ("wal" must be applied again after publishing: it is the
// only mode the file keeps).
bool moveEverythingIntoMainFile(Connection& connection, std::string& scriptMode) {
  scriptMode = journalModeOf(connection, "PRAGMA journal_mode");
  if (scriptMode.empty()) return false;
  if (scriptMode == "delete") return true;
  const std::string kept = journalModeOf(connection, "PRAGMA journal_mode = DELETE");
  if (kept == "delete") return true;
  if (!kept.empty()) {
    connection.fail(SQLITE_ERROR, "journal_mode \"delete\" was asked, and SQLite kept \"" + kept + "\"",
                    "PRAGMA journal_mode = DELETE");
  }
  connection.error.message = "cannot move the created database's " + scriptMode + " journal into its main file (" +
                             connection.error.message + ")";
  return false;
}

// Creates the database at a temporary path, runs `createSQL` in one
// transaction, and publishes the finished file as `target`: only once every
// page the script committed is in the main file (no -wal or -journal left)
// and that file is synced, whatever the configured journal mode and
// synchronous level. The creation runs in a rollback journal ("delete");
// the configured mode is applied by the open that follows. A failure
// removes the temporary files, so `target` never exists half-made, and the
// next open tries again. Sets `scriptMode` to the journal mode the script
// left the connection in.
bool createDatabase(Connection& connection, const std::string& target, const std::string& createSQL,
                    const Configuration& configuration, std::string& scriptMode) {
  const std::string temporary = temporaryPath(parentDirectory(target));
  Configuration creating = configuration;
  creating.journalMode = JournalMode::Delete;
  if (!openConnection(connection, plainPath(temporary), OpenMode::ReadWriteCreate, creating)) {
    connection.error.message = "cannot create the database " + target + " (" + connection.error.message + ")";
    removeDatabaseFiles(temporary);
    return false;
  }
  bool ok = runScript(connection, "BEGIN IMMEDIATE") && runScript(connection, createSQL);
  if (ok && sqlite3_get_autocommit(connection.db) == 0) ok = runScript(connection, "COMMIT");
  ok = ok && moveEverythingIntoMainFile(connection, scriptMode);
  const Error failure = connection.error;  // closing must not lose it
  connection.close();
  if (ok) {
    // Closing a connection in "delete" mode leaves no companion file; one
    // that is there holds pages the main file lacks (or a journal a crash
    // would need), so the main file alone is not the database.
    for (const char* suffix : {"-wal", "-journal"}) {
      if (pathExists(temporary + suffix)) {
        removeDatabaseFiles(temporary);
        return connection.fail(SQLITE_IOERR,
                               "the created database " + target + " still has a " + (suffix + 1) +
                                   " file after closing, so its main file may lack what the creation script wrote; "
                                   "nothing was published",
                               std::string());
      }
    }
  }
  if (!ok) {
    connection.error = failure;
    removeDatabaseFiles(temporary);
    return false;
  }
  // SQLite syncs at commit only as `synchronous` asks (never when "off"):
  // the file is synced here, so a name never points at a file a power cut
  // can cut short.
  FileFailure problem;
  if (!syncFile(temporary, problem)) {
    removeDatabaseFiles(temporary);
    return connection.fail(problem.code, describeStorageFailure(problem.code, problem.message), std::string());
  }
  bool ours = false;
  if (!publishFile(temporary, target, ours, problem)) {
    removeDatabaseFiles(temporary);
    return connection.fail(problem.code, describeStorageFailure(problem.code, problem.message), std::string());
  }
  removeDatabaseFiles(temporary);
  return true;
}

}  // namespace

const char* databaseNameProblem(const std::string& name) noexcept {
  if (name.empty()) return "it is empty";
  if (name == "." || name == "..") return "it names a directory";
  for (char c : name) {
    if (c == '/' || c == '\\') return "it holds a path separator";
    if (c == '\0') return "it holds a NUL byte";
  }
  // SQLite keeps "<name>-journal" (or -wal and -shm) beside the database: a
  // longer name (file names hold 255 bytes) makes a database that opens but
  // can never be written.
  if (name.size() > 255 - std::strlen("-journal")) return "it is longer than 247 bytes";
  // SQLite would take such a file for another database's journal, WAL or
  // shared memory, and overwrite or delete it when that database is opened.
  for (const char* suffix : {"-journal", "-wal", "-shm"}) {
    const std::size_t length = std::strlen(suffix);
    if (name.size() >= length && ::strncasecmp(name.c_str() + name.size() - length, suffix, length) == 0) {
      return "it ends in -journal, -wal or -shm, which SQLite reserves for its companion files";
    }
  }
  // The temporary files of a copy or creation in progress, which a later
  // first open may sweep away.
  if (name.compare(0, std::strlen(".sqlitebridge-"), ".sqlitebridge-") == 0) {
    return "it starts with .sqlitebridge-, the prefix of SQLiteBridge's temporary files";
  }
  return nullptr;
}

namespace {

// `name` with each NUL byte shown as '?', for a message.
std::string printableName(const std::string& name) {
  std::string printable = name;
  for (char& c : printable) {
    if (c == '\0') c = '?';
  }
  return printable;
}

}  // namespace

std::string invalidDatabaseNameMessage(const std::string& name, const char* problem) {
  return "invalid database name \"" + printableName(name) + "\": " + problem;
}

std::string invalidSeedNameMessage(const std::string& name, const std::string& database, const char* problem) {
  return "invalid seed name \"" + printableName(name) + "\" for database \"" + printableName(database) +
         "\": " + problem;
}

bool Database::openByName(const std::string& name, const std::string& createSQL, const Location& location,
                          const Configuration& configuration) noexcept {
  Connection& connection = *connection_;
  try {
    if (const char* problem = databaseNameProblem(name)) {
      return connection.fail(SQLITE_CANTOPEN, invalidDatabaseNameMessage(name, problem), std::string());
    }
    // The seed is a file directly inside the bundle directory, as the
    // database is one inside the documents directory. Checked on every open,
    // not only a first one, so that a bad seed name shows at once rather than
    // on a fresh install.
    if (!location.seedName.empty()) {
      if (const char* problem = databaseNameProblem(location.seedName)) {
        return connection.fail(SQLITE_CANTOPEN, invalidSeedNameMessage(location.seedName, name, problem),
                               std::string());
      }
    }
    const std::string& seedName = location.seedName.empty() ? name : location.seedName;
    const std::string& documents = location.documentsDirectory;
    // Every system call would cut such a directory short at the NUL.
    if (documents.find('\0') != std::string::npos || location.bundleDirectory.find('\0') != std::string::npos) {
      return connection.fail(SQLITE_CANTOPEN, "the documents or bundle directory holds a NUL byte", std::string());
    }
    if (documents.empty()) {
      return connection.fail(SQLITE_CANTOPEN, "no documents directory is set for database \"" + name + "\"",
                             std::string());
    }
    if (!isDirectory(documents)) {
      return connection.fail(SQLITE_CANTOPEN, "the documents directory does not exist: " + documents, std::string());
    }
    const std::string target = joinPath(documents, name);
    bool copiedHere = false;  // the file at target is the copy this call made
    std::string scriptMode;   // the journal mode a creation script left
    if (!pathExists(target) && configuration.readOnly) {
      return connection.fail(
          SQLITE_CANTOPEN,
          "the database " + target + " does not exist yet, and a read-only configuration neither copies nor creates it",
          std::string());
    }
    if (pathExists(target)) {
      // An earlier open may have published the file and failed to sync its
      // directory (or been killed between the two): its name may not be on
      // disk yet, and a power cut would take the database, and everything
      // written to it since, away with it. Make the name durable before
      // anything is written through it. An I/O error fails the open; a
      // directory that cannot be opened or synced at all (no read
      // permission, a file system without directory fsync) is used as
      // SQLite uses it, unsynced.
      FileFailure problem;
      if (!syncDirectoryEntries(documents, problem) && problem.code != SQLITE_CANTOPEN) {
        return connection.fail(problem.code, describeStorageFailure(problem.code, problem.message), std::string());
      }
    } else {
      // A first open killed midway leaves its temporary files and no target,
      // so this is where they would pile up; sweep the abandoned ones.
      removeStaleTemporaryFiles(documents);
      const std::string bundled =
          location.bundleDirectory.empty() ? std::string() : joinPath(location.bundleDirectory, seedName);
      if (!bundled.empty() && isRegularFile(bundled)) {
        FileFailure problem;
        if (!copyFileAtomically(bundled, target, copiedHere, problem)) {
          return connection.fail(
              problem.code,
              describeStorageFailure(problem.code, "cannot copy the bundled database: " + problem.message),
              std::string());
        }
      } else if (!createDatabase(connection, target, createSQL, configuration, scriptMode)) {
        return false;
      }
    }
    // A script that switched the new database to WAL keeps it in WAL, as it
    // would have been had it been created in place; a configured journal
    // mode wins.
    Configuration opening = configuration;
    if (scriptMode == "wal" && !opening.journalMode) opening.journalMode = JournalMode::Wal;
    if (!openConnection(connection, plainPath(target),
                        configuration.readOnly ? OpenMode::ReadOnly : OpenMode::ReadWrite, opening)) {
      // A bundled file that is no database must not stay behind as the
      // writable copy, or every later open would fail the same way. Only the
      // copy this call published is removed, and only when it is no
      // database: a file another process published first (which it may be
      // writing) and an existing file are never touched.
      if (copiedHere && connection.error.code == SQLITE_NOTADB) removeDatabaseFiles(target);
      return false;
    }
    connection.path = target;
    return true;
  } catch (...) {
    connection.close();
    return connection.fail(SQLITE_NOMEM, "out of memory while opening database \"" + name + "\"", std::string());
  }
}

}  // namespace sqlitebridge
