// Fuzz target table_helpers: hostile table and column names, types,
// references and values through the table helpers (createTable, insert,
// select, update, addColumn, remove, dropTable) next to a sentinel table
// with rows, an index, a view and a trigger.
//
// Input: a flags byte (bit 0: ifNotExists; bits 1-4: the second column is
// NOT NULL, UNIQUE, PRIMARY KEY, AUTOINCREMENT; bit 5: it has a default;
// bit 6: add a third column; bit 7: run in a transaction), a byte choosing
// the ConflictResolution, a byte for the select's limit, then fields
// separated by 0xFF bytes: table, column 1, column 2, column 2's type, its
// references, column 3, and three values (inserted, updated, column 2's
// default), each a type byte (NULL, integer, real, text, blob) and its
// bytes.
//
// Invariants (a broken one aborts): the error contract after every call;
// nothing but the named table changes: the sentinel table's rows and every
// schema row not of that table are as before after every call, and after
// the final dropTable the whole database is as it began (sqlite_sequence
// aside); identifiers never become SQL: a name holding NUL fails with
// SQLITE_MISUSE, and a table created under a new name is found under
// exactly that name with exactly the columns asked for; a value inserted
// and updated reads back exactly (NaN as NULL); update and remove report 1
// changed row; select returns at most `limit` rows; a DEFAULT of a column
// without a type reads back as the value it was written from.
#include <cmath>
#include <cstring>

#include "FuzzSupport.hpp"

using sqlitebridge::ColumnDefinition;
using sqlitebridge::ConflictResolution;
using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::Value;

namespace {

const char* const kSchema =
    "CREATE TABLE sentinel(id INTEGER PRIMARY KEY, v TEXT UNIQUE, n);"
    "CREATE INDEX sentinel_n ON sentinel(n);"
    "CREATE VIEW sentinel_view AS SELECT v FROM sentinel;"
    "CREATE TABLE sentinel_log(msg);"
    "CREATE TRIGGER sentinel_audit AFTER UPDATE ON sentinel BEGIN INSERT INTO sentinel_log VALUES (new.v); END;"
    "INSERT INTO sentinel(v, n) VALUES ('a', 1), ('t', 2.5), ('x', x'00ff'), ('DROP TABLE t', NULL);";

Value decodeValue(const std::string& field) {
  if (field.empty()) return Value();
  const std::string payload = field.substr(1);
  switch (static_cast<unsigned char>(field[0]) % 5) {
    case 1: {
      std::uint64_t bits = 0;
      std::memcpy(&bits, payload.data(), std::min<std::size_t>(payload.size(), 8));
      return Value(static_cast<std::int64_t>(bits));
    }
    case 2: {
      double real = 0;
      std::uint64_t bits = 0;
      std::memcpy(&bits, payload.data(), std::min<std::size_t>(payload.size(), 8));
      std::memcpy(&real, &bits, sizeof real);
      return Value(real);
    }
    case 3:
      return Value(payload);
    case 4:
      return Value::fromBlob(payload.data(), payload.size());
    default:
      return Value();
  }
}

ConflictResolution conflict(std::uint8_t byte) {
  switch (byte % 5) {
    case 1:
      return ConflictResolution::Replace;
    case 2:
      return ConflictResolution::Ignore;
    case 3:
      return ConflictResolution::Fail;
    case 4:
      return ConflictResolution::Rollback;
    default:
      return ConflictResolution::Abort;
  }
}

bool holdsNul(const std::string& text) { return text.find('\0') != std::string::npos; }

bool sameIdentifier(const std::string& a, const std::string& b) {
  return a.size() == b.size() && fuzz::equalsIgnoringCase(a.c_str(), b.c_str());
}

// Every schema row (but sqlite_sequence's) and every row of the sentinel
// tables: what no helper call on another table may change.
std::vector<std::string> outside(sqlite3* h, const std::string& table) {
  std::string literal = "'";
  for (char c : table) literal += c == '\'' ? std::string("''") : std::string(1, c);
  literal += "'";
  // A name holding NUL names no table (every call with it must fail).
  const std::string exclude = holdsNul(table) ? "" : " AND tbl_name <> " + literal;
  std::vector<std::string> lines =
      fuzz::rawRows(h, "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name <> 'sqlite_sequence'" + exclude +
                           " ORDER BY type, name");
  for (const char* sentinel : {"sentinel", "sentinel_log"}) {
    lines.push_back(std::string("-- ") + sentinel);
    for (std::string& row : fuzz::rawRows(h, std::string("SELECT rowid, * FROM ") + sentinel + " ORDER BY rowid")) {
      lines.push_back(std::move(row));
    }
  }
  return lines;
}

std::vector<std::string> whole(sqlite3* h) {
  std::vector<std::string> lines;
  for (std::string& line : fuzz::snapshot(h)) {
    if (line.find("sqlite_sequence") == std::string::npos) lines.push_back(std::move(line));
  }
  return lines;
}

// The values of the table's one row (a column may be called rowid, so the
// table is read whole).
std::vector<Value> rowValues(Database& db, const std::string& table, const std::vector<std::string>& columns) {
  std::vector<Row> rows;
  fuzz::resetBudget();
  const bool ok = db.select(columns, table, "", {}, rows);
  fuzz::checkErrorContract(db, ok, "select", table);
  FUZZ_CHECK(ok, "select from \"%s\" failed: %s", fuzz::printable(table).c_str(), db.error().c_str());
  FUZZ_CHECK(rows.size() == 1, "select of the one row returned %zu rows", rows.size());
  FUZZ_CHECK(rows[0].size() == columns.size(), "select returned %zu columns, not %zu", rows[0].size(), columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) {
    FUZZ_CHECK(rows[0].columnName(i) == columns[i], "column %zu read back as \"%s\", not \"%s\"", i,
               fuzz::printable(rows[0].columnName(i)).c_str(), fuzz::printable(columns[i]).c_str());
  }
  return rows[0].values();
}

// What SQLite stores for `value` in a column without affinity.
Value stored(const Value& value) {
  if (value.type() == sqlitebridge::ValueType::Real && std::isnan(value.asReal())) return Value();
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::hardenProcess();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  const std::uint8_t flags = input.byte();
  const ConflictResolution onConflict = conflict(input.byte());
  const std::int64_t limit = input.byte() % 4;
  const std::string table = input.until(0xff);
  const std::string column1 = input.until(0xff);
  const std::string column2 = input.until(0xff);
  const std::string type2 = input.until(0xff);
  const std::string references2 = input.until(0xff);
  const std::string column3 = input.until(0xff);
  const Value inserted = decodeValue(input.until(0xff));
  const Value updated = decodeValue(input.until(0xff));
  const Value defaultValue = decodeValue(input.until(0xff));

  Database db = fuzz::openFuzzDatabase(kSchema);
  sqlite3* h = db.handle();
  const std::vector<std::string> initial = whole(h);
  const std::vector<std::string> others = outside(h, table);
  const auto checkOthers = [&](const char* call) {
    const std::vector<std::string> now = outside(h, table);
    FUZZ_CHECK(now == others, "%s on \"%s\" changed something else: %s", call, fuzz::printable(table).c_str(),
               fuzz::firstDifference(others, now).c_str());
  };
  const bool inTransaction = (flags & 0x80) != 0;
  if (inTransaction) FUZZ_CHECK(db.begin(), "begin: %s", db.error().c_str());

  // An object of that name already (any case): only createTable runs, and
  // must neither replace it nor change anything.
  bool existed = false;
  if (!holdsNul(table)) {
    for (const std::string& name : fuzz::rawRows(h, "SELECT name FROM sqlite_schema")) {
      existed = existed || sameIdentifier(name.substr(5), table);
    }
  }

  ColumnDefinition second{column2, type2};
  second.notNull = (flags & 0x02) != 0;
  second.unique = (flags & 0x04) != 0;
  second.primaryKey = (flags & 0x08) != 0;
  second.autoincrement = (flags & 0x10) != 0;
  if ((flags & 0x20) != 0) second.defaultValue = defaultValue;
  second.references = references2;
  const std::vector<ColumnDefinition> columns{ColumnDefinition{column1}, second};

  fuzz::resetBudget();
  const bool created = db.createTable(table, columns, (flags & 0x01) != 0);
  fuzz::checkErrorContract(db, created, "createTable", table);
  if (holdsNul(table) || holdsNul(column1) || holdsNul(column2) || holdsNul(references2)) {
    FUZZ_CHECK(!created && db.lastError().code == SQLITE_MISUSE, "a name holding NUL gave %d, code %d", created,
               db.lastError().code);
  }
  const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr, "createTable(\"%s\", [\"%s\", \"%s\" %s]): %s\n", fuzz::printable(table).c_str(),
                 fuzz::printable(column1).c_str(), fuzz::printable(column2).c_str(), fuzz::printable(type2).c_str(),
                 created ? "ok" : db.error().c_str());
  }
  checkOthers("createTable");
  if (!created || existed) {
    FUZZ_CHECK(whole(h) == initial, "createTable(\"%s\") %s but changed the database: %s",
               fuzz::printable(table).c_str(), created ? "found the table" : "failed",
               fuzz::firstDifference(initial, whole(h)).c_str());
    if (inTransaction && db.isInTransaction()) db.rollback();
    return 0;
  }

  // Found under exactly that name, with exactly those columns.
  const std::vector<std::string> found =
      fuzz::rawRows(h, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'sqlite_sequence'");
  std::size_t matches = 0;
  for (const std::string& name : found) matches += name.substr(5) == table ? 1 : 0;
  FUZZ_CHECK(matches == 1, "createTable(\"%s\") succeeded but %zu tables have exactly that name",
             fuzz::printable(table).c_str(), matches);
  std::vector<std::string> names;
  FUZZ_CHECK(db.tableColumns(table, names), "tableColumns: %s", db.error().c_str());
  FUZZ_CHECK(names.size() == 2 && names[0] == column1 && names[1] == column2,
             "table \"%s\" has %zu columns, the first \"%s\"", fuzz::printable(table).c_str(), names.size(),
             names.empty() ? "" : fuzz::printable(names[0]).c_str());

  fuzz::resetBudget();
  std::int64_t rowID = -1;
  const bool insertedOK = db.insert(table, {{column1, inserted}}, &rowID, onConflict);
  fuzz::checkErrorContract(db, insertedOK, "insert", table);
  if (verbose) std::fprintf(stderr, "insert: rowid %lld %s\n", static_cast<long long>(rowID), db.error().c_str());
  if (!insertedOK && inTransaction && !db.isInTransaction()) {
    // OR ROLLBACK rolled back the whole transaction, the table with it.
    FUZZ_CHECK(onConflict == ConflictResolution::Rollback, "insert failed (%s) and ended the transaction",
               db.error().c_str());
    FUZZ_CHECK(whole(h) == initial, "the rolled-back transaction left the database changed: %s",
               fuzz::firstDifference(initial, whole(h)).c_str());
    return 0;
  }
  checkOthers("insert");
  FUZZ_CHECK(!insertedOK || rowID != 0 || onConflict == ConflictResolution::Ignore,
             "insert succeeded with rowid 0 without Ignore");
  if (insertedOK && rowID != 0) {
    FUZZ_CHECK(rowValues(db, table, {column1})[0] == stored(inserted), "row %lld did not read back as inserted",
               static_cast<long long>(rowID));
    // A column without a type converts nothing: its DEFAULT literal must
    // read back as the very value it was written from.
    if (second.defaultValue && type2.find_first_not_of(" \t\n\v\f\r") == std::string::npos) {
      const Value value = rowValues(db, table, {column2})[0];
      FUZZ_CHECK(value == stored(*second.defaultValue), "the default of \"%s\" read back as another value (%s)",
                 fuzz::printable(column2).c_str(), fuzz::printable(value.asText()).c_str());
    }
    int changed = -1;
    fuzz::resetBudget();
    const bool updatedOK = db.update(table, {{column1, updated}}, "1", {}, &changed);
    fuzz::checkErrorContract(db, updatedOK, "update", table);
    checkOthers("update");
    FUZZ_CHECK(updatedOK, "update of \"%s\" failed: %s", fuzz::printable(table).c_str(), db.error().c_str());
    FUZZ_CHECK(changed == 1, "update changed %d rows", changed);
    FUZZ_CHECK(rowValues(db, table, {column1})[0] == stored(updated), "row did not read back as updated");
  }

  std::vector<Row> rows;
  fuzz::resetBudget();
  const bool selected = db.select({column2, column1}, table, "", {}, rows, {column2, column1}, limit);
  fuzz::checkErrorContract(db, selected, "select", table);
  FUZZ_CHECK(selected, "select from \"%s\" failed: %s", fuzz::printable(table).c_str(), db.error().c_str());
  FUZZ_CHECK(static_cast<std::int64_t>(rows.size()) <= limit, "select returned %zu rows, limit %lld", rows.size(),
             static_cast<long long>(limit));

  if ((flags & 0x40) != 0) {
    fuzz::resetBudget();
    const bool added = db.addColumn(ColumnDefinition{column3, type2}, table);
    fuzz::checkErrorContract(db, added, "addColumn", table);
    checkOthers("addColumn");
    if (added) {
      FUZZ_CHECK(db.tableColumns(table, names) && names.size() == 3 && names[2] == column3,
                 "addColumn(\"%s\") succeeded but the table's third column is not that",
                 fuzz::printable(column3).c_str());
    }
  }

  if (insertedOK && rowID != 0) {
    int changed = -1;
    fuzz::resetBudget();
    const bool removed = db.remove(table, "1", {}, &changed);
    fuzz::checkErrorContract(db, removed, "remove", table);
    checkOthers("remove");
    FUZZ_CHECK(removed && changed == 1, "remove gave %d, changed %d: %s", removed, changed, db.error().c_str());
  }

  fuzz::resetBudget();
  const bool dropped = db.dropTable(table);
  fuzz::checkErrorContract(db, dropped, "dropTable", table);
  if (verbose) std::fprintf(stderr, "select: %zu rows; dropTable: %s\n", rows.size(), dropped ? "ok" : "failed");
  FUZZ_CHECK(dropped, "dropTable(\"%s\") failed: %s", fuzz::printable(table).c_str(), db.error().c_str());
  FUZZ_CHECK(whole(h) == initial, "after dropping \"%s\" the database is not as it began: %s",
             fuzz::printable(table).c_str(), fuzz::firstDifference(initial, whole(h)).c_str());
  if (inTransaction && db.isInTransaction()) {
    FUZZ_CHECK(db.commit(), "commit: %s", db.error().c_str());
  }
  return 0;
}
