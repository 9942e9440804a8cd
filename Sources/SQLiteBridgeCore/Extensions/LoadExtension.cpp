// Loadable extensions: Database::loadExtension and the loading that
// Configuration::extensions asks of every open (OpenConnection.cpp). Only
// the C API loads (sqlite3_load_extension), enabled for the one call: SQL
// that a connection runs can never load a library (load_extension() stays
// disabled, as it is by default).
#include "LoadExtension.hpp"

#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// SQLite's name for the failure, then what was loaded.
std::string describeFailure(const std::string& path, const std::string& entryPoint, const char* reason) {
  std::string message = "cannot load the extension \"" + path + "\"";
  if (!entryPoint.empty()) message += " (entry point \"" + entryPoint + "\")";
  if (reason != nullptr && *reason != '\0') message += std::string(": ") + reason;
  return message;
}

}  // namespace

bool checkExtension(Connection& connection, const std::string& path, const std::string& entryPoint) noexcept {
  if (path.empty()) return connection.fail(SQLITE_MISUSE, "the extension path is empty", "");
  try {
    if (path.find('\0') != std::string::npos) {
      return connection.fail(SQLITE_MISUSE, "the extension path holds a NUL byte", "");
    }
    if (entryPoint.find('\0') != std::string::npos) {
      return connection.fail(SQLITE_MISUSE, "the entry point of the extension \"" + path + "\" holds a NUL byte", "");
    }
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", "");
  }
  return true;
}

int loadExtensionIntoHandle(sqlite3* db, const std::string& path, const std::string& entryPoint,
                            std::string& message) noexcept {
  if (sqlite3_compileoption_used("OMIT_LOAD_EXTENSION")) {
    try {
      message = describeFailure(path, entryPoint,
                                "this SQLite library was built without extension loading "
                                "(SQLITE_OMIT_LOAD_EXTENSION)");
    } catch (...) {
    }
    return SQLITE_ERROR;
  }
  // The C API only: SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION enables
  // sqlite3_load_extension and leaves the SQL function disabled
  // (sqlite3_enable_load_extension would enable both).
  int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, nullptr);
  char* reason = nullptr;
  if (rc == SQLITE_OK) {
    rc = sqlite3_load_extension(db, path.c_str(), entryPoint.empty() ? nullptr : entryPoint.c_str(), &reason);
  }
  // Off again whatever happened.
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  if (rc != SQLITE_OK) {
    try {
      message = describeFailure(path, entryPoint, reason != nullptr ? reason : sqlite3_errstr(rc));
    } catch (...) {
    }
  }
  sqlite3_free(reason);
  return rc;
}

bool loadExtensionInto(Connection& connection, const std::string& path, const std::string& entryPoint) noexcept {
  if (!checkExtension(connection, path, entryPoint)) return false;
  std::string message;
  const int rc = loadExtensionIntoHandle(connection.db, path, entryPoint, message);
  if (rc != SQLITE_OK) return connection.fail(rc, message, "");
  return true;
}

bool Database::loadExtension(const std::string& path, const std::string& entryPoint) noexcept {
  if (!beginCall()) return false;
  return loadExtensionInto(*connection_, path, entryPoint);
}

}  // namespace sqlitebridge
