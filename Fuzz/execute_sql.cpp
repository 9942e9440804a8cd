// Fuzz target execute_sql: arbitrary bytes as SQL text through every entry
// point that takes SQL (execute in its forms, executeScript, validate,
// prepare + step, prepareNext, forEachRow, the schema lookups), on an
// in-memory database with a small schema (a table with rows, an index, a
// trigger, a view).
//
// Input: chunks separated by 0xFF bytes; a chunk's first byte picks the
// entry point, the rest is the SQL. A fresh database per input, so every
// input reproduces on its own.
//
// Invariants (a broken one aborts):
// - nothing crashes and no sanitizer reports;
// - a failing call leaves lastError() with a non-zero code and a message, a
//   successful one leaves code 0 and no message;
// - a one-statement entry point never runs SQL after the first statement.
//   An oracle prepares the same text with the raw C API on the same
//   connection just before the call: when SQLite reports more SQL after the
//   first statement (another statement, or an unrecognized token), the call
//   must fail with SQLITE_MISUSE before anything runs (no statement is
//   traced with SQLITE_TRACE_STMT, no row changes); when preparing fails, it
//   must fail with SQLite's code, again running nothing; when it runs, the
//   statement SQLite traces first is exactly the text up to the oracle's
//   tail. A wrong argument count fails with SQLITE_RANGE, running nothing.
// - validate(sql) agrees with prepare(sql); the schema lookups change
//   nothing; values read through the wrapper equal the raw sqlite3_column_*
//   reads.
#include <climits>

#include "FuzzSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;

namespace {

const char* const kSchema =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL, c BLOB, d);"
    "INSERT INTO t VALUES (1, 'one', 1.5, x'01', NULL), (2, 'two', -0.0, x'', 2), (3, NULL, 1e308, zeroblob(3), '3');"
    "CREATE INDEX t_a ON t(a);"
    "CREATE TABLE log(msg);"
    "CREATE TRIGGER t_insert AFTER INSERT ON t BEGIN INSERT INTO log VALUES ('insert ' || new.id); END;"
    "CREATE VIEW v AS SELECT id, a FROM t WHERE id > 1;";

// Statements that began running during one call, in order, by handle.
struct Trace {
  bool on = false;
  std::vector<sqlite3_stmt*> statements;
  std::vector<std::string> texts;
};

Trace& trace() {
  static Trace instance;
  return instance;
}

int onTrace(unsigned type, void*, void* p, void*) {
  Trace& t = trace();
  if (!t.on || type != SQLITE_TRACE_STMT) return 0;
  auto* stmt = static_cast<sqlite3_stmt*>(p);
  for (sqlite3_stmt* seen : t.statements) {
    if (seen == stmt) return 0;  // a trigger of a statement already seen
  }
  t.statements.push_back(stmt);
  const char* text = sqlite3_sql(stmt);
  t.texts.emplace_back(text != nullptr ? text : "");
  return 0;
}

// What SQLite itself makes of `sql` as the text of one statement.
struct Oracle {
  // Ambiguous: one statement, then text on which SQLite and the wrapper's
  // "only comments and whitespace" may differ (a NUL byte, a bare "/*").
  enum Kind { PrepareError, Empty, Trailing, Single, Ambiguous } kind = Empty;
  int rc = SQLITE_OK;
  std::string first;  // the first statement's text, up to SQLite's tail
  int parameterCount = 0;
  std::vector<std::string> parameterNames;  // index 1...count; "" for `?`
};

const char* kindName(Oracle::Kind kind) {
  switch (kind) {
    case Oracle::PrepareError:
      return "prepare error";
    case Oracle::Empty:
      return "no statement";
    case Oracle::Trailing:
      return "trailing SQL";
    case Oracle::Single:
      return "one statement";
    case Oracle::Ambiguous:
      return "one statement, then a NUL byte or comment punctuation";
  }
  return "?";
}

Oracle consult(sqlite3* db, const std::string& sql) {
  Oracle oracle;
  fuzz::resetBudget();
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  oracle.rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt, &tail);
  if (oracle.rc != SQLITE_OK) {
    oracle.kind = Oracle::PrepareError;
    return oracle;
  }
  if (stmt == nullptr) {
    oracle.kind = Oracle::Empty;
    return oracle;
  }
  const std::size_t end = static_cast<std::size_t>(tail - sql.data());
  oracle.first = sql.substr(0, end);
  oracle.parameterCount = sqlite3_bind_parameter_count(stmt);
  oracle.parameterNames.push_back("");
  for (int i = 1; i <= oracle.parameterCount; ++i) {
    const char* name = sqlite3_bind_parameter_name(stmt, i);
    oracle.parameterNames.emplace_back(name != nullptr ? name : "");
  }
  sqlite3_finalize(stmt);
  // SQLite takes a vertical tab for whitespace after other whitespace but
  // rejects one at the start of a token ("unrecognized token"); the wrapper
  // skips it like any whitespace, which drops no SQL. So the oracle reads it
  // as a space (inside a literal that changes nothing that matters here).
  std::string rest = sql.substr(end);
  for (char& c : rest) {
    if (c == '\v') c = ' ';
  }
  sqlite3_stmt* next = nullptr;
  const char* restTail = nullptr;
  const int rc = sqlite3_prepare_v2(db, rest.data(), static_cast<int>(rest.size()), &next, &restTail);
  if (next != nullptr) {
    oracle.kind = Oracle::Trailing;
  } else if (rc != SQLITE_OK) {
    // Text SQLite cannot read. Only comment punctuation SQLite tokenizes
    // differently at the end of its input ("/*" followed by the end or a NUL
    // is a slash and a star to SQLite, an unterminated comment to the
    // wrapper) and NUL bytes may be taken either way; anything else must be
    // refused as trailing SQL. (strchr finds NUL too: the set's terminator.)
    bool onlyPunctuation = true;
    for (char c : rest) {
      if (std::strchr(" \t\n\f\r;/*-", c) == nullptr) onlyPunctuation = false;
    }
    oracle.kind = onlyPunctuation ? Oracle::Ambiguous : Oracle::Trailing;
  } else if (restTail == rest.data() + rest.size()) {
    oracle.kind = Oracle::Single;
  } else {
    oracle.kind = Oracle::Ambiguous;  // SQLite stopped at a NUL byte
  }
  sqlite3_finalize(next);
  return oracle;
}

// Observes one call: what ran, and whether anything changed.
class Call {
 public:
  Call(Database& db, const char* name, const std::string& sql)
      : db_(db),
        name_(name),
        sql_(sql),
        changesBefore_(sqlite3_total_changes64(db.handle())),
        schemaBefore_(fuzz::rawRows(db.handle(), "PRAGMA schema_version")),
        autocommitBefore_(sqlite3_get_autocommit(db.handle())) {
    trace().statements.clear();
    trace().texts.clear();
    fuzz::resetBudget();
    trace().on = true;
  }
  ~Call() { trace().on = false; }

  // The call has returned `ok`.
  void finished(bool ok) {
    trace().on = false;
    fuzz::checkErrorContract(db_, ok, name_, sql_);
  }

  bool ranNothing() const { return trace().statements.empty() && changedNothing(); }

  // No row, schema or transaction state changed. Weaker than ranNothing: a
  // statement the wrapper cached for this text earlier is traced when it
  // starts, before SQLite re-prepares it for a changed schema and fails as
  // a fresh prepare does (the table it names is gone), having run nothing.
  bool changedNothing() const {
    return sqlite3_total_changes64(db_.handle()) == changesBefore_ &&
           fuzz::rawRows(db_.handle(), "PRAGMA schema_version") == schemaBefore_ &&
           sqlite3_get_autocommit(db_.handle()) == autocommitBefore_;
  }

  // The oracle's verdict against what the call did.
  void checkAgainst(const Oracle& oracle, bool ok, bool prepareOnly = false) {
    const sqlitebridge::Error error = db_.lastError();
    switch (oracle.kind) {
      case Oracle::PrepareError:
        FUZZ_CHECK(!ok && error.code == (oracle.rc & 0xff) && changedNothing(),
                   "%s: SQLite fails to prepare \"%s\" with %d, but the call returned %d with code %d%s", name_,
                   fuzz::printable(sql_).c_str(), oracle.rc, ok, error.code,
                   changedNothing() ? "" : " and changed the database");
        break;
      case Oracle::Empty:
      case Oracle::Trailing:
        FUZZ_CHECK(!ok && error.code == SQLITE_MISUSE && ranNothing(),
                   "%s: \"%s\" is %s for SQLite, but the call returned %d with code %d (%s)%s", name_,
                   fuzz::printable(sql_).c_str(), kindName(oracle.kind), ok, error.code,
                   fuzz::printable(error.message).c_str(), ranNothing() ? "" : " and ran SQL");
        break;
      case Oracle::Ambiguous:
        if (!ok && error.code == SQLITE_MISUSE && ranNothing()) break;
        [[fallthrough]];
      case Oracle::Single:
        if (prepareOnly) {
          FUZZ_CHECK(ok, "%s: SQLite prepares \"%s\" as one statement, but the call failed: %d %s", name_,
                     fuzz::printable(sql_).c_str(), error.code, fuzz::printable(error.message).c_str());
          FUZZ_CHECK(trace().statements.empty(), "%s: preparing \"%s\" ran a statement", name_,
                     fuzz::printable(sql_).c_str());
        } else if (!ok && error.message.find("more SQL follows") != std::string::npos) {
          FUZZ_CHECK(false, "%s: SQLite reads \"%s\" as %s, but the call rejected trailing SQL: %s", name_,
                     fuzz::printable(sql_).c_str(), kindName(oracle.kind), fuzz::printable(error.message).c_str());
        } else if (!trace().texts.empty()) {
          FUZZ_CHECK(trace().texts[0] == oracle.first,
                     "%s: for \"%s\" the statement that ran was \"%s\", not the first statement \"%s\"", name_,
                     fuzz::printable(sql_).c_str(), fuzz::printable(trace().texts[0]).c_str(),
                     fuzz::printable(oracle.first).c_str());
        }
        break;
    }
  }

 private:
  Database& db_;
  const char* name_;
  const std::string& sql_;
  sqlite3_int64 changesBefore_;
  std::vector<std::string> schemaBefore_;
  int autocommitBefore_;
};

// A Value read through the wrapper equals the raw read of the same column.
void checkColumn(const Statement& statement, int index, const Value& value, const char* how) {
  sqlite3_stmt* stmt = statement.handle();
  const int type = sqlite3_column_type(stmt, index);
  static const ValueType kTypes[] = {ValueType::Null, ValueType::Integer, ValueType::Real,
                                     ValueType::Text, ValueType::Blob,    ValueType::Null};
  FUZZ_CHECK(value.type() == kTypes[type], "%s: column %d has SQLite type %d but the Value's type is %d", how, index,
             type, static_cast<int>(value.type()));
  switch (value.type()) {
    case ValueType::Integer:
      FUZZ_CHECK(value.asInteger() == sqlite3_column_int64(stmt, index), "%s: integer differs", how);
      break;
    case ValueType::Real: {
      const double raw = sqlite3_column_double(stmt, index);
      const double read = value.asReal();
      FUZZ_CHECK(std::memcmp(&raw, &read, sizeof raw) == 0, "%s: real %a read as %a", how, raw, read);
      break;
    }
    case ValueType::Text: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, index));
      const std::string raw(text != nullptr ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, index)));
      FUZZ_CHECK(value.asText() == raw, "%s: text \"%s\" read as \"%s\"", how, fuzz::printable(raw).c_str(),
                 fuzz::printable(value.asText()).c_str());
      break;
    }
    case ValueType::Blob: {
      const auto* blob = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt, index));
      const std::vector<std::uint8_t> raw(blob, blob + sqlite3_column_bytes(stmt, index));
      FUZZ_CHECK(value.asBlob() == raw, "%s: blob of %zu bytes read differently", how, raw.size());
      break;
    }
    case ValueType::Null:
      break;
  }
}

// Reads every column of the current row every way the row can be read.
void readRow(const Statement& statement) {
  const RowView view(statement);
  FUZZ_CHECK(view.size() == statement.columnCount(), "RowView size %d, columnCount %d", view.size(),
             statement.columnCount());
  const Row copy = view.copy();
  FUZZ_CHECK(copy.size() == static_cast<std::size_t>(view.size()), "RowView::copy has %zu columns, the row %d",
             copy.size(), view.size());
  for (int i = 0; i < view.size(); ++i) {
    const Value value = statement.columnValue(i);
    checkColumn(statement, i, value, "Statement::columnValue");
    FUZZ_CHECK(view.value(i) == value || (value.type() == ValueType::Real && value.asReal() != value.asReal()),
               "RowView::value(%d) differs from columnValue", i);
    FUZZ_CHECK(copy.value(static_cast<std::size_t>(i)) == value, "RowView::copy value %d differs", i);
    FUZZ_CHECK(copy.columnName(static_cast<std::size_t>(i)) == statement.columnName(i), "column name %d differs", i);
    Value got;
    FUZZ_CHECK(view.get(i, got) && got == value, "RowView::get<Value>(%d) differs", i);
    const std::string name = statement.columnName(i);
    const int found = view.columnIndex(name);
    FUZZ_CHECK(found >= 0 && found <= i, "column \"%s\" (%d) not found by name (%d)", fuzz::printable(name).c_str(), i,
               found);
  }
}

// Binds something to every parameter, alternating types.
void bindAll(Statement& statement, int count) {
  for (int i = 1; i <= count; ++i) {
    switch (i % 5) {
      case 0:
        statement.bindNull(i);
        break;
      case 1:
        statement.bindInteger(i, i);
        break;
      case 2:
        statement.bindReal(i, 0.5 * i);
        break;
      case 3:
        statement.bindText(i, std::string("p\0q", 3));
        break;
      default:
        statement.bindBlob(i, "\x01\x02", 2);
        break;
    }
  }
}

void runExecute(Database& db, const std::string& sql, int form) {
  const Oracle oracle = consult(db.handle(), sql);
  bool ok = false;
  switch (form) {
    case 0: {
      std::vector<Row> rows;
      Call call(db, "execute(sql, &rows)", sql);
      ok = db.execute(sql, &rows);
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      if (!ok) FUZZ_CHECK(rows.empty(), "execute failed but appended %zu rows", rows.size());
      for (const Row& row : rows) {
        FUZZ_CHECK(rows.empty() || row.size() == rows[0].size(), "rows of one result differ in size");
        for (std::size_t i = 0; i < row.size(); ++i) {
          const long index = row.columnIndex(row.columnName(i));
          FUZZ_CHECK(index >= 0 && static_cast<std::size_t>(index) <= i, "Row::columnIndex of column %zu is %ld", i,
                     index);
        }
      }
      break;
    }
    case 1: {
      Row row;
      Call call(db, "execute(sql, Row&)", sql);
      ok = db.execute(sql, row);
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      break;
    }
    case 2: {
      Call call(db, "execute(sql)", sql);
      ok = db.execute(sql);
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      break;
    }
    case 3: {
      // Positional arguments: the right count, or one too many (SQLITE_RANGE).
      const int count = oracle.parameterCount + (sql.size() % 3 == 0 ? 1 : 0);
      std::vector<Value> arguments;
      for (int i = 0; i < count; ++i) {
        arguments.push_back(i % 2 == 0 ? Value(i) : Value(std::string("arg")));
      }
      std::vector<Row> rows;
      Call call(db, "execute(sql, arguments, &rows)", sql);
      ok = db.execute(sql, arguments, &rows);
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      if (oracle.kind == Oracle::Ambiguous && !ok && db.lastError().code == SQLITE_MISUSE) break;
      if ((oracle.kind == Oracle::Single || oracle.kind == Oracle::Ambiguous) && count != oracle.parameterCount) {
        FUZZ_CHECK(!ok && db.lastError().code == SQLITE_RANGE && call.ranNothing(),
                   "%d arguments for %d parameters: returned %d, code %d", count, oracle.parameterCount, ok,
                   db.lastError().code);
      }
      break;
    }
    case 4: {
      // Named arguments, one per distinct name (without its prefix).
      NamedValues arguments;
      bool positional = false;
      std::vector<std::string> bare;
      for (int i = 1; i <= oracle.parameterCount; ++i) {
        const std::string& name = oracle.parameterNames[static_cast<std::size_t>(i)];
        if (name.empty() || name[0] == '?') {
          positional = true;
          continue;
        }
        const std::string key = name.substr(1);
        bool seen = false;
        for (const std::string& b : bare) seen = seen || b == key;
        if (seen) continue;
        bare.push_back(key);
        arguments.add(key, Value(static_cast<std::int64_t>(i)));
      }
      std::vector<Row> rows;
      Call call(db, "execute(sql, named, &rows)", sql);
      ok = db.execute(sql, arguments, &rows);
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      if (oracle.kind == Oracle::Ambiguous && !ok && db.lastError().code == SQLITE_MISUSE) break;
      if (positional && (oracle.kind == Oracle::Single || oracle.kind == Oracle::Ambiguous)) {
        FUZZ_CHECK(!ok && db.lastError().code == SQLITE_RANGE && call.ranNothing(),
                   "named arguments for a statement with positional parameters: returned %d, code %d", ok,
                   db.lastError().code);
      }
      break;
    }
    case 5: {
      Call call(db, "forEachRow", sql);
      int rows = 0;
      ok = db.forEachRow(sql, [&](const RowView& row) {
        ++rows;
        for (int i = 0; i < row.size(); ++i) (void)row.value(i);
        return rows < 1000;
      });
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      break;
    }
    default: {
      Call call(db, "execute(sql, bind, onRow)", sql);
      ok = db.execute(
          sql,
          [&](Statement& statement) {
            bindAll(statement, statement.parameterCount());
            return true;
          },
          [&](const RowView& row) { (void)row.copy(); });
      call.finished(ok);
      call.checkAgainst(oracle, ok);
      break;
    }
  }
}

void runPrepare(Database& db, const std::string& sql) {
  const Oracle oracle = consult(db.handle(), sql);
  bool valid;
  sqlitebridge::Error validateError;
  {
    Call call(db, "validate", sql);
    valid = db.validate(sql);
    call.finished(valid);
    call.checkAgainst(oracle, valid, true);
    validateError = db.lastError();
  }
  Call call(db, "prepare", sql);
  Statement statement = db.prepare(sql);
  call.finished(statement.isValid());
  call.checkAgainst(oracle, statement.isValid(), true);
  FUZZ_CHECK(statement.isValid() == valid && db.lastError().code == validateError.code,
             "validate (%d, code %d) and prepare (%d, code %d) disagree on \"%s\"", valid, validateError.code,
             statement.isValid(), db.lastError().code, fuzz::printable(sql).c_str());
  if (!statement.isValid()) return;
  FUZZ_CHECK(statement.parameterCount() == oracle.parameterCount, "parameterCount %d, SQLite says %d",
             statement.parameterCount(), oracle.parameterCount);
  for (int i = 1; i <= oracle.parameterCount; ++i) {
    FUZZ_CHECK(statement.parameterName(i) == oracle.parameterNames[static_cast<std::size_t>(i)],
               "parameterName(%d) differs", i);
    const std::string& name = oracle.parameterNames[static_cast<std::size_t>(i)];
    if (!name.empty()) {
      const int index = statement.parameterIndex(name);
      FUZZ_CHECK(index >= 1 && index <= i, "parameterIndex(%s) is %d", fuzz::printable(name).c_str(), index);
    }
  }
  FUZZ_CHECK(statement.sql() == std::string(oracle.first.c_str()), "Statement::sql differs from the first statement");
  bindAll(statement, statement.parameterCount());
  FUZZ_CHECK(!statement.bindNull(statement.parameterCount() + 1) && db.lastError().code == SQLITE_RANGE,
             "binding past the last parameter did not fail with SQLITE_RANGE");
  fuzz::resetBudget();
  for (int round = 0; round < 2; ++round) {
    for (int rows = 0; rows < 1000; ++rows) {
      const StepResult result = statement.step();
      if (result == StepResult::Done) break;
      if (result == StepResult::Error) {
        fuzz::checkErrorContract(db, false, "Statement::step", sql);
        break;
      }
      readRow(statement);
    }
    FUZZ_CHECK(statement.reset(), "reset failed");
  }
}

void runScript(Database& db, const std::string& sql, bool withRows) {
  Call call(db, withRows ? "executeScript(sql, onRow)" : "executeScript(sql)", sql);
  bool ok;
  if (withRows) {
    int rows = 0;
    ok = db.executeScript(sql, [&](const RowView& row) {
      (void)row.copy();
      return ++rows < 1000;
    });
  } else {
    ok = db.executeScript(sql);
  }
  call.finished(ok);
}

void runPrepareNext(Database& db, const std::string& sql) {
  std::size_t offset = 0;
  fuzz::resetBudget();
  for (int count = 0; count < 100; ++count) {
    const std::size_t before = offset;
    Statement statement = db.prepareNext(sql, offset);
    if (!statement.isValid()) {
      const sqlitebridge::Error error = db.lastError();
      // Finished (code 0: only filler was left) or failed (code and message).
      if (error.code != 0) fuzz::checkErrorContract(db, false, "prepareNext", sql);
      return;
    }
    FUZZ_CHECK(offset > before && offset <= sql.size(), "prepareNext moved the offset from %zu to %zu (size %zu)",
               before, offset, sql.size());
    fuzz::resetBudget();
    for (int rows = 0; rows < 100 && statement.step() == StepResult::Row; ++rows) readRow(statement);
  }
}

// SQLite's own column names (pragma_table_xinfo) for the table or view that
// `name` names under the library's name rule (Database.hpp, "Schema
// introspection"): the name as it is, in SQLite's search order; when that
// names nothing, `schema.rest` for the first dot, left to right, whose prefix
// is a schema of the connection (ASCII case-insensitive) and whose rest names
// something in it.
std::vector<std::string> xinfoColumnsByNameRule(sqlite3* h, const std::string& name) {
  const auto columnsOf = [h](const std::string& table, const std::string* schema) {
    std::vector<std::string> names;
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(h, "SELECT name FROM pragma_table_xinfo(?1, ?2)", -1, &stmt, nullptr);
    sqlite3_bind_text(stmt, 1, table.data(), static_cast<int>(table.size()), SQLITE_TRANSIENT);
    if (schema != nullptr) {
      sqlite3_bind_text(stmt, 2, schema->data(), static_cast<int>(schema->size()), SQLITE_TRANSIENT);
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      names.emplace_back(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
    }
    sqlite3_finalize(stmt);
    return names;
  };
  std::vector<std::string> names = columnsOf(name, nullptr);
  if (!names.empty()) return names;
  std::vector<std::string> schemas;
  sqlite3_stmt* list = nullptr;
  sqlite3_prepare_v2(h, "SELECT name FROM pragma_database_list", -1, &list, nullptr);
  while (sqlite3_step(list) == SQLITE_ROW) {
    schemas.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(list, 0)));
  }
  sqlite3_finalize(list);
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    const std::string prefix = name.substr(0, dot);
    for (const std::string& schema : schemas) {
      if (sqlite3_stricmp(schema.c_str(), prefix.c_str()) != 0) continue;
      names = columnsOf(name.substr(dot + 1), &schema);
      if (!names.empty()) return names;
    }
  }
  return names;
}

void runSchemaLookup(Database& db, const std::string& name) {
  sqlite3* h = db.handle();
  const std::vector<std::string> schemaBefore = fuzz::rawRows(h, "PRAGMA schema_version");
  const sqlite3_int64 changesBefore = sqlite3_total_changes64(h);
  std::vector<std::string> columns{"stale"};
  fuzz::resetBudget();
  const bool ok = db.tableColumns(name, columns);
  fuzz::checkErrorContract(db, ok, "tableColumns", name);
  if (ok) {
    // Compared with SQLite's own answer for the same question, bound.
    const std::vector<std::string> expected = xinfoColumnsByNameRule(h, name);
    FUZZ_CHECK(columns == expected && !columns.empty(), "tableColumns(\"%s\") differs from pragma_table_xinfo",
               fuzz::printable(name).c_str());
  } else {
    FUZZ_CHECK(columns.empty(), "tableColumns failed but left %zu names", columns.size());
  }
  const bool has = db.hasTableColumn(name, "a");
  fuzz::checkErrorContract(db, has || db.lastError().code == 0 ? true : false, "hasTableColumn", name);
  FUZZ_CHECK(!has || ok, "hasTableColumn found a column of a table tableColumns did not find");
  if (ok) {
    bool listed = false;
    for (const std::string& column : columns) listed = listed || column == "a" || column == "A";
    FUZZ_CHECK(has == listed, "hasTableColumn(\"%s\", \"a\") is %d but tableColumns lists it: %d",
               fuzz::printable(name).c_str(), has, listed);
  }
  FUZZ_CHECK(fuzz::rawRows(h, "PRAGMA schema_version") == schemaBefore && sqlite3_total_changes64(h) == changesBefore,
             "a schema lookup of \"%s\" changed the database", fuzz::printable(name).c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::hardenProcess();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Database db = fuzz::openFuzzDatabase(kSchema);
  sqlite3* h = db.handle();
  sqlite3_trace_v2(h, SQLITE_TRACE_STMT, onTrace, nullptr);

  fuzz::Input input(data, size);
  for (int chunk = 0; chunk < 8 && !input.empty(); ++chunk) {
    const std::uint8_t selector = input.byte();
    const std::string sql = input.until(0xFF);
    switch (selector % 12) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
      case 5:
      case 6:
        runExecute(db, sql, selector % 12);
        break;
      case 7:
        runPrepare(db, sql);
        break;
      case 8:
        runScript(db, sql, false);
        break;
      case 9:
        runScript(db, sql, true);
        break;
      case 10:
        runPrepareNext(db, sql);
        break;
      default:
        runSchemaLookup(db, sql);
        break;
    }
  }
  return 0;
}
