// Cached primary keys for rendering query requests: a point fetch by key
// would otherwise read the schema three times (the table's name, the
// database list, its columns) on every render. The fingerprint that keeps
// them valid is read by at most two small statements (no virtual table, no
// schema parse; the temp schema's only when a temp database is open) and,
// inside a fetch's `FetchHold`, in the read transaction the fetch then runs
// in, by the statement that opens it.
#include "PrimaryKeyCache.hpp"

#include <string>
#include <utility>
#include <vector>

#include "Connection.hpp"
#include "OwnStatements.hpp"
#include "QueryNodes.hpp"
#include "Query.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kTempSchemaSQL =
    "SELECT ifnull(group_concat(type || ' ' || name || ' ' || ifnull(sql, ''), ';'), '') FROM temp.sqlite_master";

// Whether a database other than main and temp is attached.
bool hasAttached(Connection& connection, bool& out) noexcept {
#if SQLITE_VERSION_NUMBER >= 3039000
  out = sqlite3_db_name(connection.db, 2) != nullptr;
  return true;
#else
  int count = 0;
  if (!query(connection, "PRAGMA database_list", {}, [&](sqlite3_stmt*) { ++count; })) return false;
  out = count > 2;
  return true;
#endif
}

// The schema's fingerprint now.
bool readFingerprint(Connection& connection, PrimaryKeyCache& cache, SchemaFingerprint& out) noexcept {
  const OwnLookup own(connection);
  bool started = false;
  if (!connection.fetchHold.startIfWanted(connection, started, out.main)) return false;
  if (!started) {
    if (!prepareOnce(connection, &cache.mainVersion, kMainSchemaVersionSQL) ||
        !stepOneRow(connection, cache.mainVersion, false,
                    [&](sqlite3_stmt* stmt) { out.main = sqlite3_column_int64(stmt, 0); })) {
      return false;
    }
  }
  // No temp database open (SQLite opens it for the first temp object, and
  // a temp_store change closes it with its objects): an empty temp schema,
  // known without a statement.
  unsigned int tempVersion = 0;
  if (sqlite3_file_control(connection.db, "temp", SQLITE_FCNTL_DATA_VERSION, &tempVersion) != SQLITE_OK) {
    out.temp.clear();
    return hasAttached(connection, out.attached);
  }
  bool text = true;
  if (!prepareOnce(connection, &cache.tempSchema, kTempSchemaSQL) ||
      !stepOneRow(connection, cache.tempSchema, false, [&](sqlite3_stmt* stmt) {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
        const int size = sqlite3_column_bytes(stmt, 0);
        try {
          out.temp.assign(bytes != nullptr ? bytes : "", bytes != nullptr ? static_cast<std::size_t>(size) : 0);
        } catch (...) {
          text = false;
        }
      })) {
    return false;
  }
  if (!text) return connection.fail(SQLITE_NOMEM, "out of memory while reading the temp schema", kTempSchemaSQL);
  return hasAttached(connection, out.attached);
}

}  // namespace

void PrimaryKeyCache::finalizeStatements(Connection& connection) noexcept {
  for (sqlite3_stmt** stmt : {&mainVersion, &tempSchema}) {
    connection.finalize(*stmt);
    *stmt = nullptr;
  }
}

bool cachedPrimaryKey(Database& db, const std::string& table, std::vector<std::string>& key) {
  Connection& connection = QueryAccess::connection(db);
  PrimaryKeyCache& cache = connection.primaryKeys;
  SchemaFingerprint now;
  if (!readFingerprint(connection, cache, now)) return false;
  if (!(now == cache.fingerprint)) {
    cache.keys.clear();
    cache.fingerprint = now;
  }
  const std::string name = foldIdentifier(table);
  if (!now.attached) {
    const auto found = cache.keys.find(name);
    if (found != cache.keys.end()) {
      key = found->second;
      return true;
    }
  }
  if (!db.primaryKey(table, key)) return false;
  if (!now.attached) cache.keys.emplace(name, key);
  return true;
}

}  // namespace sqlitebridge
