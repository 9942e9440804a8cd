// Cached primary keys for rendering query requests: a point fetch by key
// would otherwise read the schema three times (the table's name, the
// database list, its columns) on every render.
#include "PrimaryKeyCache.hpp"

#include <string>
#include <utility>
#include <vector>

#include "Connection.hpp"
#include "QueryNodes.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kFingerprintSQL =
    "SELECT (SELECT schema_version FROM pragma_schema_version), "
    "(SELECT ifnull(group_concat(type || ' ' || name || ' ' || ifnull(sql, ''), ';'), '') FROM temp.sqlite_master), "
    "(SELECT count(*) FROM pragma_database_list WHERE name NOT IN ('main', 'temp'))";

// The schema's fingerprint now, by one cached statement.
bool readFingerprint(Database& db, SchemaFingerprint& out) {
  Statement statement = db.cachedStatement(kFingerprintSQL);
  if (!statement.isValid()) return false;
  if (statement.step() != StepResult::Row) return false;
  out.main = statement.column(0).integer;
  const ColumnView temp = statement.column(1);
  out.temp.assign(static_cast<const char*>(temp.bytes), temp.bytes != nullptr ? temp.size : 0);
  out.attached = statement.column(2).integer;
  return true;
}

}  // namespace

bool cachedPrimaryKey(Database& db, const std::string& table, std::vector<std::string>& key) {
  PrimaryKeyCache& cache = QueryAccess::connection(db).primaryKeys;
  SchemaFingerprint now;
  if (!readFingerprint(db, now)) return false;
  if (!(now == cache.fingerprint)) {
    cache.keys.clear();
    cache.fingerprint = now;
  }
  const std::string name = foldIdentifier(table);
  if (now.attached == 0) {
    const auto found = cache.keys.find(name);
    if (found != cache.keys.end()) {
      key = found->second;
      return true;
    }
  }
  if (!db.primaryKey(table, key)) return false;
  if (now.attached == 0) cache.keys.emplace(name, key);
  return true;
}

}  // namespace sqlitebridge
