// hasTableColumn and tableColumns: a table's columns from PRAGMA table_xinfo.
#include "Connection.hpp"
#include "Query.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// The table name is bound, not spliced into SQL, so no name can inject SQL.
bool readColumns(Connection& connection, const std::string& table, std::vector<std::string>& results) {
  results.clear();
  // SQLite reads the bound name as a C string, so "t\0x" would name table
  // "t"; no table name holds NUL.
  if (table.find('\0') != std::string::npos) {
    std::string printable = table;
    for (char& c : printable) {
      if (c == '\0') c = '?';
    }
    return connection.fail(SQLITE_ERROR, "no such table: " + printable + " (the name holds a NUL byte)", std::string());
  }
  const std::string sql = "SELECT name FROM pragma_table_xinfo(?1)";
  if (!query(connection, sql, {table}, [&](sqlite3_stmt* stmt) { results.push_back(columnText(stmt, 0)); })) {
    return false;
  }
  // Every table has a column, so no rows means no such table.
  if (results.empty()) return connection.fail(SQLITE_ERROR, "no such table: " + table, sql);
  return true;
}

}  // namespace

bool Database::tableColumns(const std::string& table, std::vector<std::string>& results) noexcept {
  if (!beginCall()) {
    results.clear();
    return false;
  }
  try {
    return readColumns(*connection_, table, results);
  } catch (...) {
    results.clear();
    return connection_->fail(SQLITE_NOMEM, "out of memory while reading columns of " + table, std::string());
  }
}

bool Database::hasTableColumn(const std::string& table, const std::string& column) noexcept {
  if (!beginCall()) return false;
  try {
    std::vector<std::string> columns;
    if (!readColumns(*connection_, table, columns)) return false;
    for (const std::string& name : columns) {
      if (sameIdentifier(name, column)) return true;
    }
    return false;
  } catch (...) {
    return connection_->fail(SQLITE_NOMEM, "out of memory while reading columns of " + table, std::string());
  }
}

}  // namespace sqlitebridge
