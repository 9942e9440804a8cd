// Database(name, createSQL, location): the bundle copy (of the seed
// `location.seedName`, by default `name`) or the creation of a database on
// first use, and reuse of the writable copy afterwards.
#include <strings.h>

#include <cstring>

#include "Connection.hpp"
#include "DatabaseName.hpp"
#include "FileSystem.hpp"
#include "OpenConnection.hpp"
#include "Script.hpp"
#include "StorageFailure.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// A relative path SQLite could read as a "file:" URI gets a "./" prefix.
std::string plainPath(const std::string& path) { return path.empty() || path[0] == '/' ? path : "./" + path; }

// Creates the database at a temporary path, runs `createSQL` in one
// transaction, and publishes the finished file as `target`. A failure
// removes the temporary files, so `target` never exists half-made.
bool createDatabase(Connection& connection, const std::string& target, const std::string& createSQL,
                    const Configuration& configuration) {
  const std::string temporary = temporaryPath(parentDirectory(target));
  if (!openConnection(connection, plainPath(temporary), OpenMode::ReadWriteCreate, configuration)) {
    connection.error.message = "cannot create the database " + target + " (" + connection.error.message + ")";
    removeDatabaseFiles(temporary);
    return false;
  }
  bool ok = runScript(connection, "BEGIN IMMEDIATE") && runScript(connection, createSQL);
  if (ok && sqlite3_get_autocommit(connection.db) == 0) ok = runScript(connection, "COMMIT");
  const Error failure = connection.error;  // closing must not lose it
  connection.close();
  if (!ok) {
    connection.error = failure;
    removeDatabaseFiles(temporary);
    return false;
  }
  FileFailure problem;
  bool ours = false;
  if (!publishFile(temporary, target, ours, problem)) {
    removeDatabaseFiles(temporary);
    return connection.fail(problem.code, describeStorageFailure(problem.code, problem.message), std::string());
  }
  // A script that commits and then sets journal_mode PERSIST or TRUNCATE
  // leaves the temporary's journal behind after closing (committed, so not
  // hot); the published file never reads it under its new name.
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
    if (!pathExists(target) && configuration.readOnly) {
      return connection.fail(
          SQLITE_CANTOPEN,
          "the database " + target + " does not exist yet, and a read-only configuration neither copies nor creates it",
          std::string());
    }
    if (!pathExists(target)) {
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
      } else if (!createDatabase(connection, target, createSQL, configuration)) {
        return false;
      }
    }
    if (!openConnection(connection, plainPath(target),
                        configuration.readOnly ? OpenMode::ReadOnly : OpenMode::ReadWrite, configuration)) {
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
