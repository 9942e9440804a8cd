// The primary keys a connection's query requests render with (filter(key:),
// reversed(), a limited delete or update), kept while the schema they were
// read from is unchanged. Internal.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

class Connection;
class Database;

/// What the schema was when the keys were read: the main database's schema
/// version (any schema change, by any connection, bumps it, committed or
/// not), the temp schema's text (only this connection changes it; a table
/// there hides a main one of the same name; its version is not enough: it
/// starts again at 0 when `PRAGMA temp_store` reopens the temp database) and
/// whether a database is attached (keys are kept only while none is: their
/// versions are not read).
struct SchemaFingerprint {
  std::int64_t main = -1;
  std::string temp;
  bool attached = true;

  bool operator==(const SchemaFingerprint& other) const noexcept {
    return main == other.main && temp == other.temp && attached == other.attached;
  }
};

/// A connection's cached primary keys, by table name as given (folded for
/// ASCII case), and the statements that read the fingerprint.
struct PrimaryKeyCache {
  SchemaFingerprint fingerprint;
  std::unordered_map<std::string, std::vector<std::string>> keys;

  /// `PRAGMA main.schema_version` and the temp schema's text, prepared on
  /// first use and finalized by `finalizeStatements`.
  sqlite3_stmt* mainVersion = nullptr;
  sqlite3_stmt* tempSchema = nullptr;

  /// Finalizes the statements (the connection closes).
  void finalizeStatements(Connection& connection) noexcept;
};

/// `db.primaryKey(table, key)` through the connection's cache: the schema's
/// fingerprint is read (at most two small statements: no virtual table, no
/// schema parse) and the keys read under another one are dropped first.
/// Inside a `FetchHold` (FetchHold.hpp) in autocommit mode, the read opens
/// the read transaction the fetch then runs in, so the keys are those of the
/// schema the fetch sees. Fails as `primaryKey`, and with the fingerprint
/// statements' errors (SQLITE_BUSY when the database is locked beyond the
/// busy timeout).
bool cachedPrimaryKey(Database& db, const std::string& table, std::vector<std::string>& key);

}  // namespace sqlitebridge
