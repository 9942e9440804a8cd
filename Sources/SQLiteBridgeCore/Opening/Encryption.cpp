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
// SQLCipher 3's sqlite3_rekey returns SQLITE_OK even when rewriting a page
// failed and it rolled the rewrite back. A second connection, through the
// same VFS, tells whether the file now opens with `key`: twice, so that a
// passing read error does not decide it. An in-memory database has no file
// to ask (and no I/O to fail).
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
#endif

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
        "the key is wrong, or the file is not an encrypted database, or reading it failed (SQLCipher 3 reports a "
        "failed read of an encrypted page so) (" +
        connection.error.message + ")";
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
  if (rekeyTookEffect(connection, key)) return true;
  // The connection's cipher now writes under the new key while the file is
  // under the old one: any further write would mix the two. Close it.
  const Error failure{
      SQLITE_IOERR, SQLITE_IOERR,
      describeStorageFailure(
          SQLITE_IOERR,
          "changeKey did not take effect: SQLCipher could not rewrite every page (an I/O error or a "
          "full disk; SQLCipher 3 reports it as success) and rolled the rewrite back, so the file keeps "
          "its old key (if it does not open with it, try the new one). This connection is closed, its "
          "cipher no longer matching the file: open the database again"),
      std::string()};
  connection.close();
  connection.closedReason = failure;
  return connection.fail(failure.extendedCode, failure.message, failure.sql);
#else
  return false;
#endif
}

}  // namespace sqlitebridge
