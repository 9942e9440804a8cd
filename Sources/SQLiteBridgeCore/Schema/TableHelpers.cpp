// Table helpers: insert, update, remove, select, createTable, addColumn and
// dropTable. The one place their SQL is written (the Swift facade asks
// interop::TableHelperAccess for the same text): identifiers quoted, values
// bound, and the refusals (empty WHERE, NUL in a name, a type that is not a
// type name, a malformed reference) decided before anything runs.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "Connection.hpp"
#include "SqlText.hpp"
#include "TableHelperSQL.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/interop/Schema.hpp"

namespace sqlitebridge {

namespace {

bool isSpace(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

bool isLetter(char c) noexcept { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }

bool isDigit(char c) noexcept { return c >= '0' && c <= '9'; }

bool blank(const std::string& sql) noexcept {
  for (char c : sql) {
    if (!isSpace(c)) return false;
  }
  return true;
}

const char* conflictClause(ConflictResolution resolution) noexcept {
  switch (resolution) {
    case ConflictResolution::Replace:
      return "INSERT OR REPLACE INTO ";
    case ConflictResolution::Ignore:
      return "INSERT OR IGNORE INTO ";
    case ConflictResolution::Fail:
      return "INSERT OR FAIL INTO ";
    case ConflictResolution::Rollback:
      return "INSERT OR ROLLBACK INTO ";
    case ConflictResolution::Abort:
      break;
  }
  return "INSERT OR ABORT INTO ";
}

}  // namespace

// `name` quoted into `out`, or SQLITE_MISUSE naming `what` when it holds NUL
// (SQLite's text would end there, and the name silently become another).
bool quoted(Connection& connection, const std::string& name, const char* what, std::string& out) {
  if (name.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_MISUSE, std::string("the ") + what + " holds a NUL byte", std::string());
  }
  out = quoteIdentifier(name);
  return true;
}

bool insertSQL(Connection& connection, const std::string& table, const std::vector<std::string>& columns,
               ConflictResolution onConflict, std::string& sql) {
  std::string name;
  if (!quoted(connection, table, "table name", name)) return false;
  sql = conflictClause(onConflict) + name;
  if (columns.empty()) {
    sql += " DEFAULT VALUES";
    return true;
  }
  std::string list;
  std::string parameters;
  for (const std::string& column : columns) {
    std::string quotedColumn;
    if (!quoted(connection, column, "column name", quotedColumn)) return false;
    if (!list.empty()) {
      list += ", ";
      parameters += ", ";
    }
    list += quotedColumn;
    parameters += '?';
  }
  sql += " (" + list + ") VALUES (" + parameters + ")";
  return true;
}

namespace {

// The WHERE clause of caller SQL: in parentheses, the closing one on a line
// of its own so that a trailing `--` comment cannot swallow it.
std::string whereClause(const std::string& whereSQL) { return " WHERE (" + whereSQL + "\n)"; }

bool updateSQL(Connection& connection, const std::string& table, const std::vector<std::string>& columns,
               const std::string& whereSQL, std::string& sql) {
  std::string name;
  if (!quoted(connection, table, "table name", name)) return false;
  if (columns.empty()) {
    return connection.fail(SQLITE_MISUSE, "update of " + name + " has no column to set", std::string());
  }
  if (blank(whereSQL)) {
    return connection.fail(SQLITE_MISUSE,
                           "update of " + name + " needs a WHERE condition; write \"1\" to update every row",
                           std::string());
  }
  sql = "UPDATE " + name + " SET ";
  bool first = true;
  for (const std::string& column : columns) {
    std::string quotedColumn;
    if (!quoted(connection, column, "column name", quotedColumn)) return false;
    if (!first) sql += ", ";
    first = false;
    sql += quotedColumn + " = ?";
  }
  sql += whereClause(whereSQL);
  return true;
}

bool deleteSQL(Connection& connection, const std::string& table, const std::string& whereSQL, std::string& sql) {
  std::string name;
  if (!quoted(connection, table, "table name", name)) return false;
  if (blank(whereSQL)) {
    return connection.fail(SQLITE_MISUSE,
                           "delete from " + name + " needs a WHERE condition; write \"1\" to delete every row",
                           std::string());
  }
  sql = "DELETE FROM " + name + whereClause(whereSQL);
  return true;
}

bool selectSQL(Connection& connection, const std::vector<std::string>& columns, const std::string& table,
               const std::string& whereSQL, const std::vector<std::string>& orderBy, bool hasLimit, std::int64_t limit,
               std::string& sql) {
  std::string name;
  if (!quoted(connection, table, "table name", name)) return false;
  if (hasLimit && limit < 0) {
    return connection.fail(SQLITE_MISUSE, "the limit of a select must not be negative: " + std::to_string(limit),
                           std::string());
  }
  // Columns are qualified by the table: SQLite reads an unqualified
  // double-quoted name that matches no column as a string literal (its
  // "double-quoted string" leniency), which would make a misspelt column a
  // column of constant text instead of an error. The alias keeps the name
  // as the caller wrote it.
  sql = "SELECT ";
  if (columns.empty()) sql += '*';
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::string column;
    if (!quoted(connection, columns[i], "column name", column)) return false;
    if (i > 0) sql += ", ";
    sql += name + "." + column + " AS " + column;
  }
  sql += " FROM " + name;
  if (!blank(whereSQL)) sql += whereClause(whereSQL);
  for (std::size_t i = 0; i < orderBy.size(); ++i) {
    std::string column;
    if (!quoted(connection, orderBy[i], "ORDER BY column name", column)) return false;
    sql += i == 0 ? " ORDER BY " : ", ";
    sql += name + "." + column;
  }
  if (hasLimit) sql += " LIMIT ?";
  return true;
}

// Words that start a column constraint: refused in a type, so that only the
// ColumnDefinition's options add constraints.
bool isConstraintWord(const std::string& word) noexcept {
  for (const char* keyword : {"CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE",
                              "REFERENCES", "GENERATED", "AS"}) {
    if (sameIdentifier(word, keyword)) return true;
  }
  return false;
}

// A signed number at `i` ([+-]digits[.digits]), skipping spaces around it.
bool signedNumber(const std::string& type, std::size_t& i) noexcept {
  while (i < type.size() && isSpace(type[i])) ++i;
  if (i < type.size() && (type[i] == '+' || type[i] == '-')) ++i;
  const std::size_t digits = i;
  while (i < type.size() && isDigit(type[i])) ++i;
  if (i == digits) return false;
  if (i < type.size() && type[i] == '.') {
    ++i;
    while (i < type.size() && isDigit(type[i])) ++i;
  }
  while (i < type.size() && isSpace(type[i])) ++i;
  return true;
}

// SQLite's type-name: words, then optionally (n) or (n, m), nothing after.
bool isTypeName(const std::string& type) {
  std::size_t i = 0;
  bool sawWord = false;
  for (;;) {
    while (i < type.size() && isSpace(type[i])) ++i;
    if (i == type.size()) return true;
    if (isLetter(type[i])) {
      const std::size_t start = i;
      while (i < type.size() && (isLetter(type[i]) || isDigit(type[i]))) ++i;
      if (isConstraintWord(type.substr(start, i - start))) return false;
      sawWord = true;
      continue;
    }
    if (type[i] != '(' || !sawWord) return false;
    ++i;
    if (!signedNumber(type, i)) return false;
    if (i < type.size() && type[i] == ',') {
      ++i;
      if (!signedNumber(type, i)) return false;
    }
    if (i == type.size() || type[i] != ')') return false;
    ++i;
    while (i < type.size() && isSpace(type[i])) ++i;
    return i == type.size();
  }
}

// Whether SQLite reads the SQL expression `sql` as exactly `real`, bit for
// bit (evaluated as an INSERT evaluates a DEFAULT). SQLite's own
// decimal-to-double conversion is not correctly rounded in every version:
// 3.40 misreads some 17-digit reals by a bit.
bool readsBackAs(Connection& connection, const std::string& sql, double real) noexcept {
  const std::string select = "SELECT " + sql;
  sqlite3_stmt* stmt = nullptr;
  bool same = false;
  if (connection.prepare(select.c_str(), static_cast<int>(select.size()), &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) == SQLITE_FLOAT) {
    const double read = sqlite3_column_double(stmt, 0);
    same = std::memcmp(&read, &real, sizeof real) == 0;
  }
  connection.finalize(stmt);
  return same;
}

// printf of a real, with a locale's decimal comma made SQL's decimal point.
std::string printed(const char* format, int precision, double real) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, precision, real);
  std::string text(buffer);
  for (char& c : text) {
    if (!isDigit(c) && c != '-' && c != '+' && c != 'e' && c != 'E') c = '.';
  }
  return text;
}

// A decimal literal SQLite reads back as exactly `real` (finite): the
// shortest of 15 to 17 significant digits that does, else an 18-digit one
// near it (finer than the spacing of doubles, so one of them lands on it).
// Empty when none does.
std::string exactDecimal(Connection& connection, double real) {
  for (int precision = 15; precision <= 17; ++precision) {
    const std::string text = printed("%.*g", precision, real);
    if (readsBackAs(connection, text, real)) return text;
  }
  // d.ddddddddddddddddde±x: 18 digits, read as an integer and an exponent.
  const std::string scientific = printed("%.*e", 17, real);
  const std::size_t e = scientific.find('e');
  if (e == std::string::npos) return std::string();
  std::string digits;
  for (std::size_t i = 0; i < e; ++i) {
    if (isDigit(scientific[i])) digits += scientific[i];
  }
  const bool negative = scientific[0] == '-';
  const long long significand = std::stoll(digits);
  const int exponent = std::stoi(scientific.substr(e + 1)) - 17;
  for (long long offset = 1; offset <= 64; ++offset) {
    for (const long long candidate : {significand - offset, significand + offset}) {
      if (candidate <= 0) continue;
      const std::string text = (negative ? "-" : "") + std::to_string(candidate) + "e" + std::to_string(exponent);
      if (readsBackAs(connection, text, real)) return text;
    }
  }
  return std::string();
}

// `real` as an expression SQLite evaluates exactly: its 53-bit integer
// significand, made a real, times or divided by powers of two (each step is
// exact in binary floating point, subnormals included). The last resort:
// ALTER TABLE ADD COLUMN refuses it as a default that is not constant.
std::string exactRealExpression(double real) {
  int exponent = 0;
  const double fraction = std::frexp(real, &exponent);  // real = fraction * 2^exponent
  const auto significand = static_cast<std::int64_t>(std::ldexp(fraction, 53));
  const int shift = exponent - 53;
  std::string text = "(CAST(" + std::to_string(significand) + " AS REAL)";
  const char* operation = shift > 0 ? " * " : " / ";
  for (int remaining = shift > 0 ? shift : -shift; remaining > 0; remaining -= 62) {
    text += operation + std::to_string(std::int64_t{1} << (remaining < 62 ? remaining : 62));
  }
  return text + ")";
}

// A DEFAULT SQLite reads back as exactly `real`: NULL for NaN (SQLite stores
// NaN as NULL), (9e999) and (-9e999) for the infinities, a decimal for the
// rest; an integral real is cast to REAL, since SQLite reads the default of
// a column ALTER TABLE added as an integer when it is integral.
std::string realDefault(Connection& connection, double real) {
  if (std::isnan(real)) return "NULL";
  if (std::isinf(real)) return real > 0 ? "(9e999)" : "(-9e999)";
  std::string decimal;
  const bool integral = std::trunc(real) == real;
  if (integral && std::fabs(real) < 9.0e18) {
    decimal = real == 0 && std::signbit(real) ? "-0.0" : std::to_string(static_cast<std::int64_t>(real));
  } else {
    decimal = exactDecimal(connection, real);
    if (decimal.empty()) return exactRealExpression(real);
  }
  return integral ? "(CAST(" + decimal + " AS REAL))" : decimal;
}

bool defaultLiteral(Connection& connection, const std::string& column, const Value& value, std::string& out) {
  switch (value.type()) {
    case ValueType::Null:
      out = "NULL";
      return true;
    case ValueType::Integer:
      out = std::to_string(value.asInteger());
      return true;
    case ValueType::Real:
      out = realDefault(connection, value.asReal());
      return true;
    case ValueType::Text: {
      const std::string text = value.asText();
      if (text.find('\0') != std::string::npos) {
        return connection.fail(SQLITE_MISUSE, "the default text of column " + column + " holds a NUL byte",
                               std::string());
      }
      out = quoteStringLiteral(text);
      return true;
    }
    case ValueType::Blob: {
      static const char* const hex = "0123456789abcdef";
      out = "x'";
      for (std::uint8_t byte : value.asBlob()) {
        out += hex[byte >> 4];
        out += hex[byte & 0x0f];
      }
      out += '\'';
      return true;
    }
  }
  out = "NULL";
  return true;
}

std::string trimmed(const std::string& text) {
  std::size_t start = 0;
  std::size_t end = text.size();
  while (start < end && isSpace(text[start])) ++start;
  while (end > start && isSpace(text[end - 1])) --end;
  return text.substr(start, end - start);
}

// "table(column)" or "table" as REFERENCES "table"("column").
bool referencesClause(Connection& connection, const std::string& column, const std::string& references,
                      std::string& out) {
  const auto malformed = [&] {
    return connection.fail(SQLITE_MISUSE,
                           "the reference of column " + column + " is not \"table(column)\" or \"table\": \"" +
                               excerpt(references, 0) + "\"",
                           std::string());
  };
  if (references.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_MISUSE, "the reference of column " + column + " holds a NUL byte", std::string());
  }
  const std::size_t open = references.find('(');
  const std::string table = trimmed(references.substr(0, open));
  if (table.empty()) return malformed();
  // SQLite creates such a key, but then every change to the schema (or to
  // sqlite_stat1's rows) checks it and fails with "foreign key mismatch":
  // no table could be created, indexed or dropped while foreign keys are on.
  if (isSQLiteReservedName(table)) {
    return connection.fail(SQLITE_MISUSE,
                           "the reference of column " + column + " names SQLite's own table \"" + excerpt(table, 0) +
                               "\" (a foreign key to it would block every schema change)",
                           std::string());
  }
  out = " REFERENCES " + quoteIdentifier(table);
  if (open == std::string::npos) return true;
  const std::string rest = trimmed(references.substr(open + 1));
  if (rest.empty() || rest.back() != ')') return malformed();
  const std::string target = trimmed(rest.substr(0, rest.size() - 1));
  if (target.empty()) return malformed();
  out += "(" + quoteIdentifier(target) + ")";
  return true;
}

bool columnSQL(Connection& connection, const ColumnDefinition& definition, std::string& out) {
  std::string name;
  if (!quoted(connection, definition.name, "column name", name)) return false;
  if (!isTypeName(definition.type)) {
    return connection.fail(SQLITE_MISUSE,
                           "the type of column " + name +
                               " is not a type name (words and an optional (n) or (n, m)): \"" +
                               excerpt(definition.type, 0) + "\"",
                           std::string());
  }
  if (definition.autoincrement && !definition.primaryKey) {
    return connection.fail(SQLITE_MISUSE, "column " + name + " is AUTOINCREMENT without being the PRIMARY KEY",
                           std::string());
  }
  out = name;
  const std::string type = trimmed(definition.type);
  if (!type.empty()) out += " " + type;
  if (definition.primaryKey) out += " PRIMARY KEY";
  if (definition.autoincrement) out += " AUTOINCREMENT";
  if (definition.notNull) out += " NOT NULL";
  if (definition.unique) out += " UNIQUE";
  if (definition.defaultValue) {
    std::string literal;
    if (!defaultLiteral(connection, name, *definition.defaultValue, literal)) return false;
    out += " DEFAULT " + literal;
  }
  if (!definition.references.empty()) {
    std::string clause;
    if (!referencesClause(connection, name, definition.references, clause)) return false;
    out += clause;
  }
  return true;
}

bool createTableSQL(Connection& connection, const std::string& table, const std::vector<ColumnDefinition>& columns,
                    bool ifNotExists, std::string& sql) {
  std::string name;
  if (!quoted(connection, table, "table name", name)) return false;
  if (columns.empty()) {
    return connection.fail(SQLITE_MISUSE, "table " + name + " needs at least one column", std::string());
  }
  sql = std::string("CREATE TABLE ") + (ifNotExists ? "IF NOT EXISTS " : "") + name + " (";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::string column;
    if (!columnSQL(connection, columns[i], column)) return false;
    if (i > 0) sql += ", ";
    sql += column;
  }
  sql += ")";
  return true;
}

bool outOfMemory(Connection& connection) noexcept {
  return connection.fail(SQLITE_NOMEM, "out of memory while writing a table helper's SQL", std::string());
}

// Splits named values into their names and their values, in order.
void split(const NamedValues& values, std::vector<std::string>& names, std::vector<Value>& bound) {
  names.reserve(values.size());
  bound.reserve(values.size());
  for (const auto& [name, value] : values) {
    names.push_back(name);
    bound.push_back(value);
  }
}

}  // namespace

// MARK: Database

bool Database::insert(const std::string& table, const NamedValues& values, std::int64_t* rowID,
                      ConflictResolution onConflict) noexcept {
  if (!beginCall()) return false;
  try {
    std::vector<std::string> names;
    std::vector<Value> bound;
    split(values, names, bound);
    std::string sql;
    if (!insertSQL(*connection_, table, names, onConflict, sql) || !execute(sql, bound)) return false;
    if (rowID != nullptr) *rowID = interop::TableHelperAccess::insertedRowID(*this);
    return true;
  } catch (...) {
    return outOfMemory(*connection_);
  }
}

bool Database::update(const std::string& table, const NamedValues& set, const std::string& whereSQL,
                      const std::vector<Value>& arguments, int* changed) noexcept {
  if (!beginCall()) return false;
  try {
    std::vector<std::string> names;
    std::vector<Value> bound;
    split(set, names, bound);
    bound.insert(bound.end(), arguments.begin(), arguments.end());
    std::string sql;
    if (!updateSQL(*connection_, table, names, whereSQL, sql) || !execute(sql, bound)) return false;
    if (changed != nullptr) *changed = changes();
    return true;
  } catch (...) {
    return outOfMemory(*connection_);
  }
}

bool Database::remove(const std::string& table, const std::string& whereSQL, const std::vector<Value>& arguments,
                      int* changed) noexcept {
  if (!beginCall()) return false;
  try {
    std::string sql;
    if (!deleteSQL(*connection_, table, whereSQL, sql) || !execute(sql, arguments)) return false;
    if (changed != nullptr) *changed = changes();
    return true;
  } catch (...) {
    return outOfMemory(*connection_);
  }
}

bool Database::select(const std::vector<std::string>& columns, const std::string& table, const std::string& whereSQL,
                      const std::vector<Value>& arguments, std::vector<Row>& out,
                      const std::vector<std::string>& orderBy, std::optional<std::int64_t> limit) noexcept {
  out.clear();
  if (!beginCall()) return false;
  try {
    std::string sql;
    if (!selectSQL(*connection_, columns, table, whereSQL, orderBy, limit.has_value(), limit.value_or(0), sql)) {
      return false;
    }
    if (!limit) return execute(sql, arguments, &out);
    std::vector<Value> bound(arguments);
    bound.emplace_back(*limit);
    return execute(sql, bound, &out);
  } catch (...) {
    out.clear();
    return outOfMemory(*connection_);
  }
}

bool Database::createTable(const std::string& name, const std::vector<ColumnDefinition>& columns,
                           bool ifNotExists) noexcept {
  if (!beginCall()) return false;
  try {
    std::string sql;
    return createTableSQL(*connection_, name, columns, ifNotExists, sql) && execute(sql);
  } catch (...) {
    return outOfMemory(*connection_);
  }
}

bool Database::addColumn(const ColumnDefinition& column, const std::string& table) noexcept {
  if (!beginCall()) return false;
  try {
    std::string sql;
    return interop::TableHelperAccess::addColumnSQL(*this, column, table, sql) && execute(sql);
  } catch (...) {
    return outOfMemory(*connection_);
  }
}

bool Database::dropTable(const std::string& name, bool ifExists) noexcept {
  if (!beginCall()) return false;
  try {
    std::string sql;
    if (!quoted(*connection_, name, "table name", sql)) return false;
    return execute(std::string("DROP TABLE ") + (ifExists ? "IF EXISTS " : "") + sql);
  } catch (...) {
    return outOfMemory(*connection_);
  }
}

// MARK: interop::TableHelperAccess

namespace interop {

bool TableHelperAccess::insertSQL(Database& database, const std::string& table, const StringList& columns,
                                  ConflictResolution onConflict, std::string& sql) noexcept {
  if (!database.beginCall()) return false;
  try {
    return sqlitebridge::insertSQL(*database.connection_, table, columns, onConflict, sql);
  } catch (...) {
    return outOfMemory(*database.connection_);
  }
}

bool TableHelperAccess::updateSQL(Database& database, const std::string& table, const StringList& columns,
                                  const std::string& whereSQL, std::string& sql) noexcept {
  if (!database.beginCall()) return false;
  try {
    return sqlitebridge::updateSQL(*database.connection_, table, columns, whereSQL, sql);
  } catch (...) {
    return outOfMemory(*database.connection_);
  }
}

bool TableHelperAccess::deleteSQL(Database& database, const std::string& table, const std::string& whereSQL,
                                  std::string& sql) noexcept {
  if (!database.beginCall()) return false;
  try {
    return sqlitebridge::deleteSQL(*database.connection_, table, whereSQL, sql);
  } catch (...) {
    return outOfMemory(*database.connection_);
  }
}

bool TableHelperAccess::selectSQL(Database& database, const SelectParts& parts, std::string& sql) noexcept {
  if (!database.beginCall()) return false;
  try {
    return sqlitebridge::selectSQL(*database.connection_, parts.columns, parts.table, parts.whereSQL, parts.orderBy,
                                   parts.hasLimit, parts.limit, sql);
  } catch (...) {
    return outOfMemory(*database.connection_);
  }
}

bool TableHelperAccess::addColumnSQL(Database& database, const ColumnDefinition& column, const std::string& table,
                                     std::string& sql) noexcept {
  if (!database.beginCall()) return false;
  try {
    std::string name;
    std::string definition;
    if (!quoted(*database.connection_, table, "table name", name) ||
        !columnSQL(*database.connection_, column, definition)) {
      return false;
    }
    sql = "ALTER TABLE " + name + " ADD COLUMN " + definition;
    return true;
  } catch (...) {
    return outOfMemory(*database.connection_);
  }
}

std::int64_t TableHelperAccess::insertedRowID(const Database& database) noexcept {
  // An ignored row inserted nothing: the last rowid would be an older row's.
  return database.changes() == 0 ? 0 : database.lastInsertRowId();
}

void TableHelperAccess::setDefaultInteger(ColumnDefinition& column, std::int64_t integer) noexcept {
  column.defaultValue = Value(integer);
}

void TableHelperAccess::setDefaultReal(ColumnDefinition& column, double real) noexcept {
  column.defaultValue = Value(real);
}

bool TableHelperAccess::setDefaultText(ColumnDefinition& column, const std::string& text) noexcept {
  try {
    column.defaultValue = Value(std::string(text));
    return true;
  } catch (...) {
    return false;
  }
}

bool TableHelperAccess::setDefaultBlob(ColumnDefinition& column, const void* bytes, std::size_t size) noexcept {
  try {
    column.defaultValue = Value::fromBlob(bytes, size);
    return true;
  } catch (...) {
    return false;
  }
}

void TableHelperAccess::setDefaultNull(ColumnDefinition& column) noexcept { column.defaultValue = Value(); }

}  // namespace interop

}  // namespace sqlitebridge
