// The schema pragmas, run as statements (see SchemaPragmas.hpp).
#include "SchemaPragmas.hpp"

namespace sqlitebridge {

bool readTableColumns(Connection& connection, const std::string& schema, const std::string& table,
                      std::vector<TableColumnRow>& out) {
  return pragmaRows(connection, schema, "table_xinfo", table, true, [&](sqlite3_stmt* stmt) {
    TableColumnRow column;
    column.name = columnText(stmt, 1);
    column.declaredType = columnText(stmt, 2);
    column.isNotNull = sqlite3_column_int(stmt, 3) != 0;
    column.hasDefault = sqlite3_column_type(stmt, 4) != SQLITE_NULL;
    if (column.hasDefault) column.defaultValueSQL = columnText(stmt, 4);
    column.primaryKeyIndex = sqlite3_column_int(stmt, 5);
    column.isHidden = sqlite3_column_int(stmt, 6) != 0;
    out.push_back(std::move(column));
  });
}

bool firstForeignKeyViolation(Connection& connection, const std::string& table, std::string& violation) {
  violation.clear();
  // Columns: table, rowid, parent, fkid.
  return pragmaRows(connection, std::string(), "foreign_key_check", table, !table.empty(), [&](sqlite3_stmt* stmt) {
    violation = "row " + columnText(stmt, 1) + " of " + columnText(stmt, 0) + " references a missing row of " +
                columnText(stmt, 2);
    return false;
  });
}

bool tablesReferencing(Connection& connection, const std::string& table, std::vector<std::string>& out) {
  std::vector<std::string> tables;
  if (!query(connection, "SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY rowid", {},
             [&](sqlite3_stmt* stmt) { tables.push_back(columnText(stmt, 0)); })) {
    return false;
  }
  for (const std::string& candidate : tables) {
    if (sameIdentifier(candidate, table)) continue;
    bool references = false;
    // Columns: id, seq, table, from, to, on_update, on_delete, match.
    if (!pragmaRows(connection, "main", "foreign_key_list", candidate, true, [&](sqlite3_stmt* stmt) {
          references = sameIdentifier(columnText(stmt, 2), table);
          return !references;
        })) {
      return false;
    }
    if (references) out.push_back(candidate);
  }
  return true;
}

}  // namespace sqlitebridge
