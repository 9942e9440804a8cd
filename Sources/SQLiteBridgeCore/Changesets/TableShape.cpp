#include "TableShape.hpp"

#include <algorithm>
#include <new>

#include "Connection.hpp"
#include "SessionAPI.hpp"

namespace sqlitebridge {

bool TableShape::hasPrimaryKey() const noexcept {
  return std::any_of(primaryKey.begin(), primaryKey.end(), [](bool key) { return key; });
}

bool readTableShape(Connection& connection, const std::string& schema, const std::string& table, TableShape& out,
                    Error* error) noexcept {
  static const char sql[] = "SELECT pk FROM pragma_table_info(?1, ?2) ORDER BY cid";
  sqlite3_stmt* statement = nullptr;
  int rc = connection.prepare(sql, -1, &statement, nullptr);
  TableShape shape;
  try {
    if (rc == SQLITE_OK)
      rc = sqlite3_bind_text(statement, 1, table.data(), static_cast<int>(table.size()), SQLITE_STATIC);
    if (rc == SQLITE_OK) {
      rc = sqlite3_bind_text(statement, 2, schema.data(), static_cast<int>(schema.size()), SQLITE_STATIC);
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(statement)) == SQLITE_ROW) {
      shape.primaryKey.push_back(sqlite3_column_int(statement, 0) > 0);
      rc = SQLITE_OK;
    }
  } catch (const std::bad_alloc&) {
    rc = SQLITE_NOMEM;
  }
  std::string message = rc == SQLITE_DONE ? std::string() : std::string(sqlite3_errmsg(connection.db));
  if (statement != nullptr) connection.finalize(statement);
  if (rc != SQLITE_DONE) return changesetFailure(error, rc, "reading the columns of " + table + ": " + message);
  shape.exists = !shape.primaryKey.empty();
  out = std::move(shape);
  return true;
}

bool changesetFitsTable(const std::string& table, const std::vector<bool>& changesetPrimaryKey, const TableShape& shape,
                        Error* error) noexcept {
  try {
    if (!shape.exists) {
      return changesetFailure(error, SQLITE_SCHEMA,
                              "the changeset changes table \"" + table +
                                  "\", which this database lacks (pass the tables to apply to skip it)");
    }
    bool fits = changesetPrimaryKey.size() <= shape.primaryKey.size();
    for (std::size_t i = 0; fits && i < shape.primaryKey.size(); ++i) {
      const bool key = i < changesetPrimaryKey.size() && changesetPrimaryKey[i];
      fits = key == shape.primaryKey[i];
    }
    if (fits) return true;
    return changesetFailure(error, SQLITE_SCHEMA,
                            "the changeset's table \"" + table + "\" (" + std::to_string(changesetPrimaryKey.size()) +
                                " columns) does not fit the table here (" + std::to_string(shape.primaryKey.size()) +
                                " columns): the columns or the primary key differ");
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
