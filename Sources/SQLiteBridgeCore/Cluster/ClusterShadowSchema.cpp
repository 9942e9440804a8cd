// The local copy of a cluster database's schema (ClusterShadowSchema.hpp).
#include "ClusterShadowSchema.hpp"

#include <algorithm>

#include "ClusterGuards.hpp"
#include "ClusterStatements.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

// SQLite keeps "CREATE TABLE …" for a temp table too; here it must be made
// in temp again.
std::string inSchema(const std::string& schema, const std::string& sql) {
  if (schema != "temp") return sql;
  for (const char* kind : {"CREATE TABLE ", "CREATE VIEW "}) {
    const std::string prefix(kind);
    if (sql.size() > prefix.size() && sameIdentifier(std::string_view(sql).substr(0, prefix.size()), prefix)) {
      return "CREATE TEMP " + sql.substr(7);
    }
  }
  return sql;
}

}  // namespace

ClusterShadowSchema::~ClusterShadowSchema() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

const char* ClusterShadowSchema::query() noexcept {
  return "SELECT 'main', type, name, sql FROM main.sqlite_master WHERE type IN ('table', 'view') AND sql IS NOT NULL "
         "UNION ALL "
         "SELECT 'temp', type, name, sql FROM temp.sqlite_master WHERE type IN ('table', 'view') AND sql IS NOT NULL";
}

void ClusterShadowSchema::rebuild(const std::vector<Row>& rows) {
  if (db_ != nullptr) sqlite3_close_v2(db_);
  db_ = nullptr;
  anyGuarded_ = false;
  compoundViews_.clear();
  if (sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = nullptr;
    return;
  }
  // Tables first: views refer to them.
  for (const char* kind : {"table", "view"}) {
    for (const Row& row : rows) {
      if (row.size() != 4 || row.value(1).asText() != kind) continue;
      const std::string schema = row.value(0).asText();
      const std::string sql = row.value(3).asText();
      sqlite3_exec(db_, inSchema(schema, sql).c_str(), nullptr, nullptr, nullptr);
      if (std::string(kind) == "view" && hasCompoundOperator(sql)) {
        compoundViews_.push_back(foldIdentifier(row.value(2).asText()));
      }
    }
  }
  anyGuarded_ = !guardedColumns().empty();
}

std::vector<std::vector<std::string>> ClusterShadowSchema::guardedColumns() const {
  std::vector<std::vector<std::string>> columns;
  if (db_ == nullptr) return columns;
  sqlite3_stmt* stmt = nullptr;
  const char* sql =
      "SELECT 'main', m.name, p.name, upper(p.type) FROM main.sqlite_master AS m "
      "JOIN pragma_table_info(m.name, 'main') AS p WHERE m.type = 'table' "
      "UNION ALL SELECT 'temp', m.name, p.name, upper(p.type) FROM temp.sqlite_master AS m "
      "JOIN pragma_table_info(m.name, 'temp') AS p WHERE m.type = 'table' ORDER BY 1, 2, 3";
  if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) return columns;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const char* type = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3));
    if (!isGuardedType(type)) continue;
    std::vector<std::string> row;
    for (int i = 0; i < 4; ++i) {
      const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      row.emplace_back(text != nullptr ? text : "");
    }
    columns.push_back(std::move(row));
  }
  sqlite3_finalize(stmt);
  return columns;
}

ClusterShadowSchema::Verdict ClusterShadowSchema::check(const std::string& sql, std::string& problem) const {
  if (!anyGuarded_) return Verdict::Safe;  // no column anywhere a node converts
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK ||
      stmt == nullptr) {
    return Verdict::Unknown;
  }
  Verdict verdict = Verdict::Safe;
  const int count = sqlite3_column_count(stmt);
  bool compound = hasCompoundOperator(sql);
  if (!compound && !compoundViews_.empty()) {
    for (const std::string& name : foldedNamesIn(sql)) {
      compound = compound || std::find(compoundViews_.begin(), compoundViews_.end(), name) != compoundViews_.end();
    }
  }
  for (int i = 0; compound && i < count; ++i) {
    const char* type = sqlite3_column_decltype(stmt, i);
    if (!isGuardedType(type)) continue;
    const char* name = sqlite3_column_name(stmt, i);
    problem = "column " + std::to_string(i + 1) + " (\"" + std::string(name != nullptr ? name : "") +
              "\") of this result is declared " + type +
              " by the first SELECT of a compound one, whose other parts may put values of another kind in it: "
              "dqlite 1.11 nodes abort on such a value; select the column through an expression (+x, CAST(x AS "
              "INTEGER)) so that it has no declared type";
    verdict = Verdict::Refused;
    break;
  }
  sqlite3_finalize(stmt);
  return verdict;
}

}  // namespace sqlitebridge
