// The primary keys a connection's query requests render with (filter(key:),
// reversed(), a limited delete or update), kept while the schema they were
// read from is unchanged. Internal.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace sqlitebridge {

class Database;

/// What the schema was when the keys were read: the main database's schema
/// version (any schema change, by any connection, bumps it), the temp
/// schema's text (only this connection changes it; a table there hides a
/// main one of the same name) and the number of attached databases (keys
/// are kept only while there is none: their versions are not read).
struct SchemaFingerprint {
  std::int64_t main = -1;
  std::string temp;
  std::int64_t attached = -1;

  bool operator==(const SchemaFingerprint& other) const noexcept {
    return main == other.main && temp == other.temp && attached == other.attached;
  }
};

/// A connection's cached primary keys, by table name as given (folded for
/// ASCII case).
struct PrimaryKeyCache {
  SchemaFingerprint fingerprint;
  std::unordered_map<std::string, std::vector<std::string>> keys;
};

/// `db.primaryKey(table, key)` through the connection's cache: the schema's
/// fingerprint is read (one cached statement, no schema parse) and the keys
/// read under another one are dropped first. Fails as `primaryKey`, and
/// with the fingerprint statement's error.
bool cachedPrimaryKey(Database& db, const std::string& table, std::vector<std::string>& key);

}  // namespace sqlitebridge
