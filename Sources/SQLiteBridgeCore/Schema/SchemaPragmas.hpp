// The schema pragmas the core reads (table_xinfo, index_list, index_xinfo,
// foreign_key_list, foreign_key_check, database_list), run as statements:
// `PRAGMA "schema".name("argument")`, which names the schema and the table
// as identifiers. The rows come in the order the pragma gives them.
// Internal.
#pragma once

#include <string>
#include <vector>

#include "Query.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

/// Runs `PRAGMA "schema".pragma("argument")` (the schema left out when
/// empty, the argument when `hasArgument` is false) and calls `onRow(stmt)`
/// for each row, as `query` does (an `onRow` returning false stops). The
/// schema and the argument are quoted as identifiers, so any name stays a
/// name. Records the error on `connection` and returns false on failure.
template <typename OnRow>
bool pragmaRows(Connection& connection, const std::string& schema, const char* pragma, const std::string& argument,
                bool hasArgument, OnRow onRow) {
  std::string sql = "PRAGMA ";
  if (!schema.empty()) sql += quoteIdentifier(schema) + ".";
  sql += pragma;
  if (hasArgument) sql += "(" + quoteIdentifier(argument) + ")";
  return query(connection, sql, {}, onRow);
}

/// The columns of `PRAGMA table_xinfo` that the core reads, by position:
/// cid, name, type, notnull, dflt_value, pk, hidden.
struct TableColumnRow {
  std::string name;
  std::string declaredType;
  bool isNotNull = false;
  bool hasDefault = false;
  std::string defaultValueSQL;
  int primaryKeyIndex = 0;
  bool isHidden = false;
};

/// Reads the columns of `table` in `schema` ("" for the search order), in
/// declaration order.
bool readTableColumns(Connection& connection, const std::string& schema, const std::string& table,
                      std::vector<TableColumnRow>& out);

/// The first row `PRAGMA foreign_key_check` reports for `table` (every
/// table when empty), as "row R of T references a missing row of P";
/// empty when the foreign keys hold.
bool firstForeignKeyViolation(Connection& connection, const std::string& table, std::string& violation);

/// The tables of the main schema, other than `table`, with a foreign key
/// that references `table` (ASCII case ignored), in schema order.
bool tablesReferencing(Connection& connection, const std::string& table, std::vector<std::string>& out);

}  // namespace sqlitebridge
