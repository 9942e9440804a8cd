// Encryption: Configuration::key at open, Database::changeKey and
// Database::isEncryptionAvailable. Only the SQLCipher build
// (SQLITEBRIDGE_SQLCIPHER) calls sqlite3_key and sqlite3_rekey; the default
// build refuses a key before any file is made.
#include "Encryption.hpp"

#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kNoEncryption =
    "encryption needs the SQLCipher build of SQLiteBridge (CMake -DSQLITEBRIDGE_SQLCIPHER=ON, SwiftPM trait "
    "\"SQLCipher\"); this build uses the system SQLite, which cannot encrypt";

}  // namespace

bool checkKeyBeforeOpen(Connection& connection, const Configuration& configuration) noexcept {
  if (!configuration.key) return true;
  if (!Database::isEncryptionAvailable()) {
    return connection.fail(SQLITE_MISUSE, std::string("Configuration.key: ") + kNoEncryption, std::string());
  }
  if (configuration.key->empty()) {
    return connection.fail(SQLITE_MISUSE, "Configuration.key is empty (no key is nil, not \"\")", std::string());
  }
  return true;
}

int applyKey(Connection& connection, const Configuration& configuration) noexcept {
  if (!configuration.key) return SQLITE_OK;
#if defined(SQLITEBRIDGE_SQLCIPHER)
  const std::string& key = *configuration.key;
  const int rc = sqlite3_key(connection.db, key.data(), static_cast<int>(key.size()));
  if (rc == SQLITE_OK) connection.keyed = true;
  return rc;
#else
  (void)connection;
  return SQLITE_MISUSE;  // checkKeyBeforeOpen refused it already
#endif
}

void explainNotADatabase(Connection& connection, const Configuration& configuration) {
  if (configuration.key) {
    connection.error.message =
        "the key is wrong, or the file is not an encrypted database (" + connection.error.message + ")";
  } else if (Database::isEncryptionAvailable()) {
    connection.error.message += " (if it is encrypted, open it with Configuration.key)";
  }
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
  if (rc != SQLITE_OK) return connection.failFromSQLite(rc, "");
  return true;
#else
  return false;
#endif
}

}  // namespace sqlitebridge
