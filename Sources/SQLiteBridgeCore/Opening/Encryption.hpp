// Encryption (the SQLCipher build): the key given at open and the errors of
// a key the build or the file cannot take. Internal; the public side is
// Configuration::key, Database::changeKey and
// Database::isEncryptionAvailable (Encryption.cpp).
#pragma once

#include <string>

#include "Connection.hpp"
#include "sqlitebridge/Configuration.hpp"

namespace sqlitebridge {

/// Before the file is opened: fails (SQLITE_MISUSE) when `configuration`
/// has a key this build cannot use (no SQLCipher) or an empty one.
bool checkKeyBeforeOpen(Connection& connection, const Configuration& configuration) noexcept;

/// Right after sqlite3_open_v2, before anything reads the file: gives
/// SQLite the key, if any. Returns SQLite's result code.
int applyKey(Connection& connection, const Configuration& configuration) noexcept;

/// The open's first read failed with SQLITE_NOTADB: says why, in words that
/// depend on whether a key was given (the key is wrong or the file is not
/// encrypted; or the file may be encrypted and needs a key).
void explainNotADatabase(Connection& connection, const Configuration& configuration);

}  // namespace sqlitebridge
