// Database(name, createSQL, location): the bundle copy or the creation of a
// database on first use, and reuse of the writable copy afterwards.
#include "Connection.hpp"
#include "FileSystem.hpp"
#include "OpenConnection.hpp"
#include "Script.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// Why `name` cannot name a file directly inside the documents directory, or
// nullptr when it can.
const char* nameProblem(const std::string& name) noexcept {
  if (name.empty()) return "it is empty";
  if (name == "." || name == "..") return "it names a directory";
  for (char c : name) {
    if (c == '/' || c == '\\') return "it holds a path separator";
    if (c == '\0') return "it holds a NUL byte";
  }
  return nullptr;
}

// A relative path SQLite could read as a "file:" URI gets a "./" prefix.
std::string plainPath(const std::string& path) { return path.empty() || path[0] == '/' ? path : "./" + path; }

// Creates the database at a temporary path, runs `createSQL` in one
// transaction, and publishes the finished file as `target`. A failure
// removes the temporary files, so `target` never exists half-made.
bool createDatabase(Connection& connection, const std::string& target, const std::string& createSQL) {
  const std::string temporary = temporaryPath(parentDirectory(target));
  if (!openConnection(connection, plainPath(temporary), OpenMode::ReadWriteCreate)) {
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
  std::string problem;
  if (!publishFile(temporary, target, problem)) {
    removeDatabaseFiles(temporary);
    return connection.fail(SQLITE_CANTOPEN, problem, std::string());
  }
  return true;
}

}  // namespace

bool Database::openByName(const std::string& name, const std::string& createSQL, const Location& location) noexcept {
  Connection& connection = *connection_;
  try {
    if (const char* problem = nameProblem(name)) {
      std::string printable = name;
      for (char& c : printable) {
        if (c == '\0') c = '?';
      }
      return connection.fail(SQLITE_CANTOPEN, "invalid database name \"" + printable + "\": " + problem, std::string());
    }
    const std::string& documents = location.documentsDirectory;
    if (documents.empty()) {
      return connection.fail(SQLITE_CANTOPEN, "no documents directory is set for database \"" + name + "\"",
                             std::string());
    }
    if (!isDirectory(documents)) {
      return connection.fail(SQLITE_CANTOPEN, "the documents directory does not exist: " + documents, std::string());
    }
    const std::string target = joinPath(documents, name);
    bool copied = false;
    if (!pathExists(target)) {
      const std::string bundled =
          location.bundleDirectory.empty() ? std::string() : joinPath(location.bundleDirectory, name);
      if (!bundled.empty() && isRegularFile(bundled)) {
        std::string problem;
        if (!copyFileAtomically(bundled, target, problem)) {
          return connection.fail(SQLITE_CANTOPEN, "cannot copy the bundled database: " + problem, std::string());
        }
        copied = true;
      } else if (!createDatabase(connection, target, createSQL)) {
        return false;
      }
    }
    if (!openConnection(connection, plainPath(target), OpenMode::ReadWrite)) {
      // A bundled file that is no database must not stay behind as the
      // writable copy, or every later open would fail the same way. Only a
      // copy made by this call is removed; an existing file is never touched.
      if (copied) removeDatabaseFiles(target);
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
