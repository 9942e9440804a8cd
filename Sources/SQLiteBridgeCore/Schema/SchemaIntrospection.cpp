// Schema introspection: whether tables, views, triggers and indexes exist,
// the main schema's table names, a table's columns (also behind tableColumns
// and hasTableColumn), primary key, indexes and foreign keys (SQLite's pragma
// functions, names bound), integrity_check and foreign_key_check. Names are
// found by SchemaLookup.
#include <algorithm>

#include "Connection.hpp"
#include "Query.hpp"
#include "SchemaLookup.hpp"
#include "SchemaPragmas.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

bool readColumns(Connection& connection, const SchemaObject& table, std::vector<ColumnInfo>& out) {
  std::vector<TableColumnRow> rows;
  if (!readTableColumns(connection, table.schema, table.name, rows)) return false;
  for (TableColumnRow& row : rows) {
    ColumnInfo column;
    column.name = std::move(row.name);
    column.declaredType = std::move(row.declaredType);
    column.isNotNull = row.isNotNull;
    if (row.hasDefault) column.defaultValueSQL = std::move(row.defaultValueSQL);
    column.primaryKeyIndex = row.primaryKeyIndex;
    column.isHidden = row.isHidden;
    out.push_back(std::move(column));
  }
  return true;
}

IndexOrigin indexOrigin(const std::string& origin) {
  if (origin == "u") return IndexOrigin::UniqueConstraint;
  if (origin == "pk") return IndexOrigin::PrimaryKey;
  return IndexOrigin::CreateIndex;
}

bool readIndexes(Connection& connection, const SchemaObject& table, std::vector<IndexInfo>& out) {
  // Columns: seq, name, unique, origin, partial.
  const bool listed = pragmaRows(connection, table.schema, "index_list", table.name, true, [&](sqlite3_stmt* stmt) {
    IndexInfo index;
    index.name = columnText(stmt, 1);
    index.isUnique = sqlite3_column_int(stmt, 2) != 0;
    index.origin = indexOrigin(columnText(stmt, 3));
    out.push_back(std::move(index));
  });
  if (!listed) return false;
  std::sort(out.begin(), out.end(), [](const IndexInfo& a, const IndexInfo& b) { return a.name < b.name; });
  for (IndexInfo& index : out) {
    // The key columns only (key = 1), in key order; cid -2 is an expression
    // (which has no name). The rowid (cid -1) is never a key column.
    // Columns: seqno, cid, name, desc, coll, key; in seqno order.
    const bool ok = pragmaRows(connection, table.schema, "index_xinfo", index.name, true, [&](sqlite3_stmt* stmt) {
      if (sqlite3_column_int(stmt, 5) != 1) return;
      const int cid = sqlite3_column_int(stmt, 1);
      index.columns.push_back(cid == -2 ? std::string() : columnText(stmt, 2));
    });
    if (!ok) return false;
  }
  return true;
}

bool readForeignKeys(Connection& connection, const SchemaObject& table, std::vector<ForeignKeyInfo>& out) {
  std::int64_t currentId = -1;
  bool anyDestinationColumn = false;
  const auto finishKey = [&] {
    // REFERENCES p (no columns): "to" is NULL for every column.
    if (!out.empty() && !anyDestinationColumn) out.back().destinationColumns.clear();
  };
  // Columns: id, seq, table, from, to, on_update, on_delete, match; in id
  // then seq order.
  const bool ok = pragmaRows(connection, table.schema, "foreign_key_list", table.name, true, [&](sqlite3_stmt* stmt) {
    const std::int64_t id = sqlite3_column_int64(stmt, 0);
    if (id != currentId) {
      finishKey();
      currentId = id;
      anyDestinationColumn = false;
      ForeignKeyInfo key;
      key.destinationTable = columnText(stmt, 2);
      key.onUpdate = columnText(stmt, 5);
      key.onDelete = columnText(stmt, 6);
      out.push_back(std::move(key));
    }
    ForeignKeyInfo& key = out.back();
    key.columns.push_back(columnText(stmt, 3));
    if (sqlite3_column_type(stmt, 4) != SQLITE_NULL) anyDestinationColumn = true;
    key.destinationColumns.push_back(columnText(stmt, 4));
  });
  if (!ok) return false;
  finishKey();
  return true;
}

// One owner of the steps every table call takes: begin the call, find the
// table (absence is "no such table"), read into `out` (empty on failure).
template <typename Out, typename Read>
bool readTable(Connection* connection, bool begun, SchemaObjectKind kind, const std::string& table, Out& out,
               const char* what, Read read) noexcept {
  out.clear();
  if (!begun) return false;
  try {
    SchemaObject object;
    if (requireTable(*connection, kind, table, object) && read(*connection, object, out)) return true;
  } catch (...) {
    connection->fail(SQLITE_NOMEM, std::string("out of memory while reading ") + what, std::string());
  }
  out.clear();
  return false;
}

}  // namespace

bool Database::columns(const std::string& table, std::vector<ColumnInfo>& out) noexcept {
  return readTable(connection_.get(), beginCall(), SchemaObjectKind::TableOrView, table, out, "columns", readColumns);
}

bool Database::tableColumns(const std::string& table, std::vector<std::string>& results) noexcept {
  return readTable(connection_.get(), beginCall(), SchemaObjectKind::TableOrView, table, results, "columns",
                   [](Connection& connection, const SchemaObject& object, std::vector<std::string>& names) {
                     std::vector<ColumnInfo> columns;
                     if (!readColumns(connection, object, columns)) return false;
                     for (ColumnInfo& column : columns) names.push_back(std::move(column.name));
                     return true;
                   });
}

bool Database::hasTableColumn(const std::string& table, const std::string& column) noexcept {
  std::vector<std::string> names;
  if (!tableColumns(table, names)) return false;
  return std::any_of(names.begin(), names.end(), [&](const std::string& name) { return sameIdentifier(name, column); });
}

bool Database::primaryKey(const std::string& table, std::vector<std::string>& out) noexcept {
  return readTable(connection_.get(), beginCall(), SchemaObjectKind::Table, table, out, "the primary key",
                   [](Connection& connection, const SchemaObject& object, std::vector<std::string>& key) {
                     std::vector<ColumnInfo> columns;
                     if (!readColumns(connection, object, columns)) return false;
                     // Each key column has its own position (1, 2, ...).
                     columns.erase(std::remove_if(columns.begin(), columns.end(),
                                                  [](const ColumnInfo& c) { return c.primaryKeyIndex <= 0; }),
                                   columns.end());
                     std::sort(columns.begin(), columns.end(), [](const ColumnInfo& a, const ColumnInfo& b) {
                       return a.primaryKeyIndex < b.primaryKeyIndex;
                     });
                     for (ColumnInfo& column : columns) key.push_back(std::move(column.name));
                     if (key.empty()) key.push_back("rowid");
                     return true;
                   });
}

bool Database::indexes(const std::string& table, std::vector<IndexInfo>& out) noexcept {
  return readTable(connection_.get(), beginCall(), SchemaObjectKind::Table, table, out, "indexes", readIndexes);
}

bool Database::foreignKeys(const std::string& table, std::vector<ForeignKeyInfo>& out) noexcept {
  return readTable(connection_.get(), beginCall(), SchemaObjectKind::Table, table, out, "foreign keys",
                   readForeignKeys);
}

bool Database::tableNames(std::vector<std::string>& out) noexcept {
  out.clear();
  if (!beginCall()) return false;
  try {
    // pragma_table_list's types: shadow tables and views are left out, and
    // SQLite's own tables by name.
    const char* sql =
        "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
    if (query(*connection_, sql, {}, [&](sqlite3_stmt* stmt) { out.push_back(columnText(stmt, 0)); })) {
      return true;
    }
  } catch (...) {
    connection_->fail(SQLITE_NOMEM, "out of memory while reading table names", std::string());
  }
  out.clear();
  return false;
}

namespace {

bool exists(Connection* connection, bool begun, SchemaObjectKind kind, const std::string& name) noexcept {
  if (!begun) return false;
  try {
    SchemaObject object;
    bool found = false;
    return findSchemaObject(*connection, kind, name, object, found) && found;
  } catch (...) {
    return connection->fail(SQLITE_NOMEM, "out of memory while looking up " + name, std::string());
  }
}

}  // namespace

bool Database::tableExists(const std::string& name) noexcept {
  return exists(connection_.get(), beginCall(), SchemaObjectKind::Table, name);
}

bool Database::viewExists(const std::string& name) noexcept {
  return exists(connection_.get(), beginCall(), SchemaObjectKind::View, name);
}

bool Database::triggerExists(const std::string& name) noexcept {
  return exists(connection_.get(), beginCall(), SchemaObjectKind::Trigger, name);
}

bool Database::indexExists(const std::string& name) noexcept {
  return exists(connection_.get(), beginCall(), SchemaObjectKind::Index, name);
}

bool Database::integrityCheck(std::vector<std::string>& problems) noexcept {
  problems.clear();
  if (!beginCall()) return false;
  try {
    if (!query(*connection_, "PRAGMA integrity_check", {},
               [&](sqlite3_stmt* stmt) { problems.push_back(columnText(stmt, 0)); })) {
      problems.clear();
      return false;
    }
    // A sound database answers one row, "ok".
    if (problems.size() == 1 && problems.front() == "ok") problems.clear();
    return true;
  } catch (...) {
    problems.clear();
    return connection_->fail(SQLITE_NOMEM, "out of memory while checking integrity", std::string());
  }
}

bool Database::foreignKeyCheck(std::vector<ForeignKeyViolation>& violations) noexcept {
  violations.clear();
  if (!beginCall()) return false;
  try {
    if (!query(*connection_, "PRAGMA foreign_key_check", {}, [&](sqlite3_stmt* stmt) {
          ForeignKeyViolation violation;
          violation.table = columnText(stmt, 0);
          if (sqlite3_column_type(stmt, 1) != SQLITE_NULL) violation.rowID = sqlite3_column_int64(stmt, 1);
          violation.destinationTable = columnText(stmt, 2);
          violation.foreignKeyIndex = sqlite3_column_int(stmt, 3);
          violations.push_back(std::move(violation));
        })) {
      violations.clear();
      return false;
    }
    return true;
  } catch (...) {
    violations.clear();
    return connection_->fail(SQLITE_NOMEM, "out of memory while checking foreign keys", std::string());
  }
}

}  // namespace sqlitebridge
