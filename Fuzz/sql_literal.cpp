// Fuzz target sql_literal: SQL literals (`sqlitebridge::SQL`) built from
// random pieces -- values of every storage class (text and blobs of any
// bytes: quotes, semicolons, comment starts, NUL, invalid UTF-8), lists of
// them (empty ones too), nested literals, and identifiers of any bytes --
// into `SELECT <expression> AS <identifier>, ...`, run through
// Database::execute and Database::prepare, and a table and column named by
// two more identifiers, created, filled and read through literals.
//
// Input: a column count byte, then per column a kind byte (0: a value; 1: a
// value IN a list; 2: a value in a nested literal), its values (a type byte
// and payload each; a list starts with its length byte) and its alias (a
// length byte and the bytes); then the table's and the column's names.
//
// Invariants (a broken one aborts): the text of the literal, and the text
// SQLite prepared (sqlite3_sql), is exactly the skeleton the pieces describe
// -- the fixed text, a `?` per value, `(?, ?)` per list (`()` when empty),
// each name in double quotes with `"` doubled -- so no value is ever part of
// the SQL; the statement has one parameter per argument; each value column
// reads back exactly what was bound (a NaN as NULL), each IN column is 0, 1
// or NULL; every result column is named exactly its identifier's bytes, and
// so are the created table and column (sqlite_master, PRAGMA table_info);
// an identifier holding NUL makes the literal invalid, and running it fails
// with SQLITE_MISUSE and a message, before anything runs.
#include <cmath>
#include <cstring>

#include "FuzzSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::SQL;
using sqlitebridge::Statement;
using sqlitebridge::Value;
using sqlitebridge::ValueType;

namespace {

// The oracle's own quoting, written apart from the core's.
std::string expectedQuoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

Value readValue(fuzz::Input& input) {
  switch (input.byte() % 5) {
    case 0:
      return Value();
    case 1:
      return Value(static_cast<std::int64_t>(input.bits(8)));
    case 2: {
      const std::uint64_t bits = input.bits(8);
      double real;
      std::memcpy(&real, &bits, sizeof real);
      return Value(real);
    }
    case 3:
      return Value(input.bytes(input.byte()));
    default: {
      const std::string bytes = input.bytes(input.byte());
      return Value::fromBlob(bytes.data(), bytes.size());
    }
  }
}

/// What reading back `bound` gives: the same, but NULL for a NaN (SQLite
/// stores no NaN).
Value expectedBack(const Value& bound) {
  if (bound.type() == ValueType::Real && std::isnan(bound.asReal())) return Value();
  return bound;
}

bool same(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  if (a.type() == ValueType::Real) {
    const double x = a.asReal(), y = b.asReal();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  return a == b;
}

struct Column {
  int kind = 0;
  Value value;
  std::vector<Value> list;
  std::string alias;
};

/// Checks that running `literal` fails as an invalid one must.
void expectRefused(Database& db, const SQL& literal) {
  FUZZ_CHECK(!literal.isValid() && literal.failure().resultCode() == ResultCode::Misuse,
             "a literal with a NUL in a name is not refused (\"%s\")", fuzz::printable(literal.text()).c_str());
  const bool ran = db.execute(literal);
  fuzz::checkErrorContract(db, ran, "execute(literal)", literal.text());
  FUZZ_CHECK(!ran && db.lastError().resultCode() == ResultCode::Misuse, "an invalid literal ran (\"%s\")",
             fuzz::printable(literal.text()).c_str());
  FUZZ_CHECK(!db.prepare(literal).isValid(), "an invalid literal was prepared");
}

void checkSelect(Database& db, const std::vector<Column>& columns) {
  SQL literal = SQL::raw("SELECT ");
  std::string skeleton = "SELECT ";
  std::vector<Value> arguments;
  bool nulInName = false;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const Column& column = columns[i];
    if (i > 0) {
      literal.sql(", ");
      skeleton += ", ";
    }
    switch (column.kind) {
      case 0:
        literal.value(column.value);
        skeleton += "?";
        break;
      case 1:
        literal.sql("(").value(column.value).sql(" IN ").list(column.list).sql(")");
        skeleton += "(? IN (";
        for (std::size_t j = 0; j < column.list.size(); ++j) skeleton += j == 0 ? "?" : ", ?";
        skeleton += "))";
        break;
      default:
        literal.sql("(").literal(SQL::raw("").value(column.value)).sql(")");
        skeleton += "(?)";
        break;
    }
    arguments.push_back(column.value);
    if (column.kind == 1) arguments.insert(arguments.end(), column.list.begin(), column.list.end());
    literal.sql(" AS ").identifier(column.alias);
    skeleton += " AS " + expectedQuoted(column.alias);
    nulInName = nulInName || column.alias.find('\0') != std::string::npos;
  }

  FUZZ_CHECK(literal.text() == skeleton, "the literal's text is \"%s\", its pieces say \"%s\"",
             fuzz::printable(literal.text()).c_str(), fuzz::printable(skeleton).c_str());
  FUZZ_CHECK(literal.arguments().size() == arguments.size(), "%zu arguments for %zu values", literal.arguments().size(),
             arguments.size());
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    FUZZ_CHECK(same(literal.arguments()[i], arguments[i]), "argument %zu is not the value given", i);
  }
  if (nulInName) return expectRefused(db, literal);
  FUZZ_CHECK(literal.isValid(), "a literal without NUL in its names is invalid: %s", literal.failure().message.c_str());

  fuzz::resetBudget();
  Statement statement = db.prepare(literal);
  if (!statement.isValid()) {
    // Only a limit may refuse it (too many columns, SQL too long).
    fuzz::checkErrorContract(db, false, "prepare(literal)", literal.text());
    return;
  }
  FUZZ_CHECK(statement.sql() == skeleton, "SQLite prepared \"%s\"", fuzz::printable(statement.sql()).c_str());
  FUZZ_CHECK(statement.parameterCount() == static_cast<int>(arguments.size()), "%d parameters for %zu arguments",
             statement.parameterCount(), arguments.size());

  std::vector<Row> rows;
  fuzz::resetBudget();
  const bool ok = db.execute(literal, &rows);
  fuzz::checkErrorContract(db, ok, "execute(literal)", literal.text());
  if (!ok) return;  // a value past SQLITE_LIMIT_LENGTH, say
  FUZZ_CHECK(rows.size() == 1, "%zu rows", rows.size());
  const Row& row = rows[0];
  FUZZ_CHECK(row.size() == columns.size(), "%zu columns for %zu", row.size(), columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) {
    FUZZ_CHECK(row.columnName(i) == columns[i].alias, "column %zu is named \"%s\", not \"%s\"", i,
               fuzz::printable(row.columnName(i)).c_str(), fuzz::printable(columns[i].alias).c_str());
    const Value read = row.value(i);
    if (columns[i].kind == 1) {
      FUZZ_CHECK(
          read.isNull() || (read.type() == ValueType::Integer && (read.asInteger() == 0 || read.asInteger() == 1)),
          "column %zu: IN gave neither 0, 1 nor NULL", i);
    } else {
      FUZZ_CHECK(same(read, expectedBack(columns[i].value)), "column %zu does not read back what was bound", i);
    }
  }
}

void checkTable(Database& db, const std::string& table, const std::string& column, const Value& value) {
  const SQL create = SQL::raw("CREATE TABLE ").identifier(table).sql("(").identifier(column).sql(")");
  FUZZ_CHECK(create.text() == "CREATE TABLE " + expectedQuoted(table) + "(" + expectedQuoted(column) + ")",
             "the CREATE literal is \"%s\"", fuzz::printable(create.text()).c_str());
  if (table.find('\0') != std::string::npos || column.find('\0') != std::string::npos) {
    return expectRefused(db, create);
  }
  fuzz::resetBudget();
  const bool created = db.execute(create);
  fuzz::checkErrorContract(db, created, "execute(CREATE literal)", create.text());
  if (!created) {
    // Only SQLite's reserved prefix may refuse a name.
    FUZZ_CHECK(table.size() >= 7 && fuzz::equalsIgnoringCase(table.substr(0, 7).c_str(), "sqlite_"),
               "CREATE TABLE of \"%s\" failed: %s", fuzz::printable(table).c_str(), db.error().c_str());
    return;
  }
  std::vector<Row> names;
  FUZZ_CHECK(db.execute(SQL::raw("SELECT name FROM sqlite_master WHERE type = 'table'"), &names), "%s",
             db.error().c_str());
  FUZZ_CHECK(names.size() == 1 && names[0].value(0) == Value(table), "the table is not named \"%s\"",
             fuzz::printable(table).c_str());
  std::vector<Row> info;
  FUZZ_CHECK(db.execute(SQL::raw("SELECT name FROM pragma_table_info(").value(table).sql(")"), &info), "%s",
             db.error().c_str());
  FUZZ_CHECK(info.size() == 1 && info[0].value(0) == Value(column), "the column is not named \"%s\"",
             fuzz::printable(column).c_str());

  fuzz::resetBudget();
  const SQL insert = SQL::raw("INSERT INTO ").identifier(table).sql(" VALUES (").value(value).sql(")");
  const bool inserted = db.execute(insert);
  fuzz::checkErrorContract(db, inserted, "execute(INSERT literal)", insert.text());
  if (!inserted) return;
  std::vector<Row> rows;
  const SQL select = SQL::raw("SELECT ").identifier(column).sql(" FROM ").identifier(table);
  FUZZ_CHECK(db.execute(select, &rows), "%s", db.error().c_str());
  FUZZ_CHECK(rows.size() == 1 && rows[0].columnName(0) == column, "the column read is not \"%s\"",
             fuzz::printable(column).c_str());
  FUZZ_CHECK(same(rows[0].value(0), expectedBack(value)), "the stored value does not read back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  std::vector<Column> columns(1 + input.byte() % 8);
  for (Column& column : columns) {
    column.kind = input.byte() % 3;
    column.value = readValue(input);
    if (column.kind == 1) {
      column.list.resize(input.byte() % 12);
      for (Value& value : column.list) value = readValue(input);
    }
    column.alias = input.bytes(input.byte() % 64);
  }
  const std::string table = input.bytes(input.byte() % 64);
  const std::string columnName = input.bytes(input.byte() % 64);

  Database db = Database::open(":memory:");
  FUZZ_CHECK(db.isOpen(), "cannot open an in-memory database: %s", db.error().c_str());
  fuzz::harden(db.handle());
  checkSelect(db, columns);
  checkTable(db, table, columnName, columns[0].value);
  return 0;
}
