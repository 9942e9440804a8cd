// Encryption: Configuration::key at open, Database::changeKey and
// Database::isEncryptionAvailable. Only the SQLCipher build
// (SQLITEBRIDGE_SQLCIPHER) calls sqlite3_key and sqlite3_rekey; the default
// build refuses a key before any file is made.
#include "Encryption.hpp"

#include "StorageFailure.hpp"

#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kNoEncryption =
    "encryption needs the SQLCipher build of SQLiteBridge (CMake -DSQLITEBRIDGE_SQLCIPHER=ON, SwiftPM trait "
    "\"SQLCipher\"); this build uses the system SQLite, which cannot encrypt";

#if defined(SQLITEBRIDGE_SQLCIPHER)
// sqlite3_rekey ignores the result of its final commit: when that fails (an
// I/O error, a full disk) the rewrite is rolled back, or rolled back by the
// next opener from the journal, yet rekey returns SQLITE_OK. A second
// connection, through the same VFS, tells whether the file now opens with
// `key`: twice, so that a passing read error does not decide it. An
// in-memory database has no file to ask (and no I/O to fail).
bool rekeyTookEffect(Connection& connection, const std::string& key) noexcept {
  const char* file = sqlite3_db_filename(connection.db, "main");
  if (file == nullptr || *file == '\0') return true;
  sqlite3_vfs* vfs = nullptr;
  if (sqlite3_file_control(connection.db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK) vfs = nullptr;
  for (int attempt = 0; attempt < 2; ++attempt) {
    sqlite3* probe = nullptr;
    int rc = sqlite3_open_v2(file, &probe, SQLITE_OPEN_READONLY, vfs != nullptr ? vfs->zName : nullptr);
    if (rc == SQLITE_OK) rc = sqlite3_key(probe, key.data(), static_cast<int>(key.size()));
    if (rc == SQLITE_OK) rc = sqlite3_exec(probe, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
    sqlite3_close(probe);
    if (rc == SQLITE_OK) return true;
  }
  return false;
}

// A rekey that failed or did not take effect leaves the connection's
// cipher out of step with the file: SQLCipher sets the key it writes with
// before it begins the rewrite and does not set it back when the rewrite
// fails, so any further write would mix two keys in one file. Closes the
// connection and fails with `code` (the rekey's own, or SQLITE_IOERR).
bool failRekey(Connection& connection, int code, const char* cause) noexcept {
  try {
    const Error failure{
        code & 0xff, code,
        describeStorageFailure(
            code, std::string("changeKey did not take effect: SQLCipher could not rewrite every page (") + cause +
                      ") and rolled the rewrite back, so the file keeps its old key (if it does not "
                      "open with it, try the new one). This connection is closed, its cipher no "
                      "longer matching the file: open the database again"),
        std::string()};
    connection.close();
    connection.closedReason = failure;
    return connection.fail(failure.extendedCode, failure.message, failure.sql);
  } catch (...) {
    connection.close();
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}
#endif

}  // namespace

bool checkKeyBeforeOpen(Connection& connection, const Configuration& configuration) noexcept {
  if (!configuration.key) {
    if (!configuration.cipherCompatibility) return true;
    return connection.fail(SQLITE_MISUSE,
                           "Configuration.cipherCompatibility needs Configuration.key: it says how an encrypted "
                           "database is read",
                           std::string());
  }
  if (!Database::isEncryptionAvailable()) {
    return connection.fail(SQLITE_MISUSE, std::string("Configuration.key: ") + kNoEncryption, std::string());
  }
  if (configuration.key->empty()) {
    return connection.fail(SQLITE_MISUSE, "Configuration.key is empty (no key is nil, not \"\")", std::string());
  }
  if (configuration.cipherCompatibility &&
      (*configuration.cipherCompatibility < 1 || *configuration.cipherCompatibility > 4)) {
    return connection.fail(SQLITE_MISUSE,
                           "Configuration.cipherCompatibility is " +
                               std::to_string(*configuration.cipherCompatibility) +
                               ": it is a major version of SQLCipher, 1 to 4",
                           std::string());
  }
  return true;
}

int applyKey(Connection& connection, const Configuration& configuration) noexcept {
  if (!configuration.key) return SQLITE_OK;
#if defined(SQLITEBRIDGE_SQLCIPHER)
  const std::string& key = *configuration.key;
  int rc = sqlite3_key(connection.db, key.data(), static_cast<int>(key.size()));
  if (rc == SQLITE_OK) connection.keyed = true;
  if (rc == SQLITE_OK && configuration.cipherCompatibility) {
    // After the key and before the first read: SQLCipher derives the page
    // key with these settings when page 1 is first read.
    const std::string pragma = "PRAGMA cipher_compatibility = " + std::to_string(*configuration.cipherCompatibility);
    rc = sqlite3_exec(connection.db, pragma.c_str(), nullptr, nullptr, nullptr);
  }
  return rc;
#else
  (void)connection;
  return SQLITE_MISUSE;  // checkKeyBeforeOpen refused it already
#endif
}

void explainNotADatabase(Connection& connection, const Configuration& configuration) {
  if (configuration.key) {
    connection.error.message =
        "the key is wrong, or the file is not an encrypted database, or it was written by an older SQLCipher "
        "(open it with Configuration.cipherCompatibility, e.g. 3), or reading it failed (SQLCipher reports a "
        "failed read of an encrypted page so) (" +
        connection.error.message + ")";
  } else if (Database::isEncryptionAvailable()) {
    connection.error.message += " (if it is encrypted, open it with Configuration.key)";
  }
}

std::string Database::cipherVersion() noexcept {
#if defined(SQLITEBRIDGE_SQLCIPHER)
  std::string version;
  sqlite3* probe = nullptr;
  if (sqlite3_open_v2(":memory:", &probe, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(probe, "PRAGMA cipher_version", -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(statement, 0);
      try {
        if (text != nullptr) version = reinterpret_cast<const char*>(text);
      } catch (...) {
        version.clear();
      }
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(probe);
  return version;
#else
  return std::string();
#endif
}

bool Database::isEncryptionAvailable() noexcept {
#if defined(SQLITEBRIDGE_SQLCIPHER)
  return true;
#else
  return false;
#endif
}

bool Database::changeKey(const std::string& key) noexcept {
  if (!beginCall()) return false;
  Connection& connection = *connection_;
  if (!isEncryptionAvailable()) return connection.fail(SQLITE_MISUSE, std::string("changeKey: ") + kNoEncryption, "");
  if (key.empty()) return connection.fail(SQLITE_MISUSE, "changeKey: the new key is empty", "");
  if (!connection.keyed) {
    // sqlite3_rekey on a plain database returns SQLITE_OK and leaves the
    // file unencrypted: refuse instead of pretending.
    return connection.fail(SQLITE_MISUSE,
                           "changeKey: the database was opened without a key, and SQLCipher cannot encrypt a plain "
                           "database in place (open a new one with Configuration.key and copy the data into it)",
                           "");
  }
  if (sqlite3_get_autocommit(connection.db) == 0) {
    return connection.fail(SQLITE_MISUSE, "changeKey cannot run inside a transaction: commit or roll back first", "");
  }
#if defined(SQLITEBRIDGE_SQLCIPHER)
  const int rc = sqlite3_rekey(connection.db, key.data(), static_cast<int>(key.size()));
  if (rc != SQLITE_OK) return failRekey(connection, rc, sqlite3_errstr(rc));
  if (rekeyTookEffect(connection, key)) return true;
  return failRekey(connection, SQLITE_IOERR, "its commit failed: an I/O error or a full disk");
#else
  return false;
#endif
}

}  // namespace sqlitebridge
