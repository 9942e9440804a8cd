// The local copy of a cluster database's schema (ClusterShadowSchema.hpp).
#include "ClusterShadowSchema.hpp"

#include <algorithm>
#include <cctype>

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
  rows_ = rows;
  build();
}

void ClusterShadowSchema::build() {
  const std::vector<Row>& rows = rows_;
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
  // One PRAGMA table_xinfo per table of each schema.
  for (const std::string schema : {"main", "temp"}) {
    std::vector<std::string> tables;
    sqlite3_stmt* stmt = nullptr;
    const std::string list = "SELECT name FROM " + schema + ".sqlite_schema WHERE type = 'table' ORDER BY name";
    if (sqlite3_prepare_v2(db_, list.c_str(), -1, &stmt, nullptr) != SQLITE_OK) return columns;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const char* name = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      tables.emplace_back(name != nullptr ? name : "");
    }
    sqlite3_finalize(stmt);
    for (const std::string& table : tables) {
      // table_xinfo lists generated columns too (hidden 2 or 3).
      const std::string pragma = "PRAGMA " + schema + ".table_xinfo(" + quoteIdentifier(table) + ")";
      if (sqlite3_prepare_v2(db_, pragma.c_str(), -1, &stmt, nullptr) != SQLITE_OK) continue;
      while (sqlite3_step(stmt) == SQLITE_ROW) {  // cid, name, type, notnull, dflt_value, pk, hidden
        const char* column = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
        const char* type = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 2));
        const char* fallback = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 4));
        const int hidden = sqlite3_column_int(stmt, 6);
        if (!isGuardedType(type) || hidden == 1) continue;  // 1: a virtual table's hidden column
        std::string upper(type);
        std::transform(upper.begin(), upper.end(), upper.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        columns.push_back({schema, table, column != nullptr ? column : "", upper, fallback != nullptr ? fallback : "",
                           hidden >= 2 ? "generated" : ""});
      }
      sqlite3_finalize(stmt);
    }
  }
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

bool ClusterShadowSchema::pragmaWrites(const std::string& sql, bool& known) {
  known = false;
  if (db_ == nullptr) return false;
  sqlite3_stmt* stmt = nullptr;
  const int prepared = sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
  bool writes = false;
  if (prepared == SQLITE_OK && stmt != nullptr) {
    known = true;
    writes = sqlite3_stmt_readonly(stmt) == 0 && sqlite3_column_count(stmt) == 0;
  }
  sqlite3_finalize(stmt);
  build();  // a PRAGMA may have changed this connection when it was prepared
  return writes;
}

bool ClusterShadowSchema::checkSchemaChange(const std::string& sql, std::string& problem) {
  if (db_ == nullptr) return true;
  const std::vector<std::vector<std::string>> before = guardedColumns();
  if (sqlite3_exec(db_, "SAVEPOINT sqlitebridge_schema_change", nullptr, nullptr, nullptr) != SQLITE_OK) return true;
  bool safe = true;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK) {
    for (const std::vector<std::string>& column : guardedColumns()) {
      if (column[4].empty() || std::find(before.begin(), before.end(), column) != before.end()) continue;
      // A new guarded column with a DEFAULT (a constant: SQLite refuses
      // any other in ALTER TABLE … ADD COLUMN): of what kind is it?
      sqlite3_stmt* stmt = nullptr;
      const std::string kind = "SELECT typeof(" + column[4] + ")";
      std::string type;
      if (sqlite3_prepare_v2(db_, kind.c_str(), -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        type = text != nullptr ? text : "";
      }
      sqlite3_finalize(stmt);
      if (!isRefusedKind(column[3], type)) continue;
      problem = "column \"" + column[1] + "\".\"" + column[2] + "\" would be declared " + column[3] +
                " with a DEFAULT of kind " + type +
                ": every row the table already has would take that value, which makes every dqlite 1.11 node that "
                "reads it abort; give it a default of another kind (or none)";
      safe = false;
      break;
    }
  }
  sqlite3_exec(db_, "ROLLBACK TO sqlitebridge_schema_change", nullptr, nullptr, nullptr);
  sqlite3_exec(db_, "RELEASE sqlitebridge_schema_change", nullptr, nullptr, nullptr);
  return safe;
}

}  // namespace sqlitebridge
