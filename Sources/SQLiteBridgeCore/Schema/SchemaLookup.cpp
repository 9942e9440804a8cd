// Finding a schema object by the name a caller gives (see SchemaLookup.hpp
// and the rule written above Database::tableExists).
#include "SchemaLookup.hpp"

#include <cstdint>
#include <vector>

#include "Query.hpp"
#include "SchemaPragmas.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

// The connection's schemas in the order SQLite searches an unqualified name:
// temp (when it exists), main, then attached ones in the order attached.
bool searchOrder(Connection& connection, std::vector<std::string>& schemas) {
  schemas.clear();
  std::string temp;
  // Columns: seq, name, file; in seq order.
  const bool ok = pragmaRows(connection, std::string(), "database_list", std::string(), false, [&](sqlite3_stmt* stmt) {
    if (sqlite3_column_int64(stmt, 0) == 1) {
      temp = columnText(stmt, 1);
    } else {
      schemas.push_back(columnText(stmt, 1));
    }
  });
  if (!ok) return false;
  if (!temp.empty()) schemas.insert(schemas.begin(), temp);
  return true;
}

bool kindHasType(SchemaObjectKind kind, const std::string& type) {
  switch (kind) {
    case SchemaObjectKind::Table:
      return type == "table" || type == "virtual" || type == "shadow";
    case SchemaObjectKind::View:
      return type == "view";
    case SchemaObjectKind::TableOrView:
      return type == "table" || type == "virtual" || type == "shadow" || type == "view";
    case SchemaObjectKind::Trigger:
      return type == "trigger";
    case SchemaObjectKind::Index:
      return type == "index";
  }
  return false;
}

// Triggers and indexes: each schema's schema table, in search order.
bool findInSchemaTables(Connection& connection, SchemaObjectKind kind, const std::vector<std::string>& order,
                        const std::string& schema, const std::string& name, SchemaObject& object, bool& found) {
  const char* type = kind == SchemaObjectKind::Trigger ? "trigger" : "index";
  for (const std::string& candidate : order) {
    if (!schema.empty() && !sameIdentifier(candidate, schema)) continue;
    const std::string sql = "SELECT name FROM " + quoteIdentifier(candidate) +
                            ".sqlite_schema WHERE type = ?1 AND name = ?2 COLLATE NOCASE";
    const bool ok = query(connection, sql, {type, name}, [&](sqlite3_stmt* stmt) {
      if (found) return;
      object.schema = candidate;
      object.name = columnText(stmt, 0);
      found = true;
    });
    if (!ok) return false;
    if (found) return true;
  }
  return true;
}

// Tables and views: PRAGMA table_list, which also knows SQLite's own tables
// (`sqlite_schema` and `sqlite_master` name the same one). `schema` empty:
// any schema, the first in search order.
bool findTableOrView(Connection& connection, SchemaObjectKind kind, const std::vector<std::string>& order,
                     const std::string& schema, const std::string& name, SchemaObject& object, bool& found) {
  std::size_t best = order.size();
  // PRAGMA table_list finds SQLite's schema tables by their old names only
  // (and reports the new ones).
  const std::string listed = sameIdentifier(name, "sqlite_schema")        ? std::string("sqlite_master")
                             : sameIdentifier(name, "sqlite_temp_schema") ? std::string("sqlite_temp_master")
                                                                          : name;
  const bool ok =
      query(connection, "SELECT schema, name, type FROM pragma_table_list(?1)", {listed}, [&](sqlite3_stmt* stmt) {
        const std::string rowSchema = columnText(stmt, 0);
        if (!kindHasType(kind, columnText(stmt, 2))) return;
        if (!schema.empty() && !sameIdentifier(rowSchema, schema)) return;
        for (std::size_t rank = 0; rank < best; ++rank) {
          if (order[rank] == rowSchema) {
            best = rank;
            object.schema = rowSchema;
            object.name = columnText(stmt, 1);
            found = true;
            break;
          }
        }
      });
  return ok;
}

bool findIn(Connection& connection, SchemaObjectKind kind, const std::vector<std::string>& order,
            const std::string& schema, const std::string& name, SchemaObject& object, bool& found) {
  if (kind == SchemaObjectKind::Trigger || kind == SchemaObjectKind::Index) {
    return findInSchemaTables(connection, kind, order, schema, name, object, found);
  }
  return findTableOrView(connection, kind, order, schema, name, object, found);
}

}  // namespace

bool findSchemaObject(Connection& connection, SchemaObjectKind kind, const std::string& given, SchemaObject& object,
                      bool& found) {
  found = false;
  // SQLite reads a bound name as a C string, so "t\0x" would name "t": no
  // name holds NUL. "" is a name like any other (SQLite makes a table "").
  if (given.find('\0') != std::string::npos) return true;
  std::vector<std::string> order;
  if (!searchOrder(connection, order)) return false;
  // The name as it is first.
  if (!findIn(connection, kind, order, std::string(), given, object, found)) return false;
  if (found) return true;
  // Then `schema.rest`, for each dot whose prefix names a schema (a schema
  // name may hold a dot itself).
  for (std::size_t dot = given.find('.'); dot != std::string::npos; dot = given.find('.', dot + 1)) {
    const std::string prefix = given.substr(0, dot);
    for (const std::string& schema : order) {
      if (!sameIdentifier(schema, prefix)) continue;
      if (!findIn(connection, kind, order, schema, given.substr(dot + 1), object, found)) return false;
      if (found) return true;
    }
  }
  return true;
}

bool requireTable(Connection& connection, SchemaObjectKind kind, const std::string& given, SchemaObject& table) {
  bool found = false;
  if (!findSchemaObject(connection, kind, given, table, found)) return false;
  if (found) return true;
  if (given.find('\0') != std::string::npos) {
    std::string printable = given;
    for (char& c : printable) {
      if (c == '\0') c = '?';
    }
    return connection.fail(SQLITE_ERROR, "no such table: " + printable + " (the name holds a NUL byte)", std::string());
  }
  return connection.fail(SQLITE_ERROR, "no such table: " + given, std::string());
}

}  // namespace sqlitebridge
