// Fuzz target value_round_trip: random bytes as a sequence of values --
// NULL, 64-bit integers, doubles by their raw bits (NaN payloads, infinities,
// -0.0, subnormals), text (any bytes: embedded NUL, invalid UTF-8, empty,
// past the in-place and the 4 KiB "large value" sizes) and blobs (also
// empty) -- each bound with one of the binding APIs (positional, named with
// and without prefix, Value, typed bind functions and overloads, a bind
// callback, the caller-driven named binding, RETURNING through forEachRow),
// stored in a column without affinity, and read back through every read API
// (columnValue, column, RowView::value / get, Row::value by index and name,
// execute into rows and into one Row, forEachRow, executeScript with rows).
//
// Input: per value a kind byte, its payload, then a byte choosing the
// binding API.
//
// Invariants (a broken one aborts): every read gives back exactly what was
// bound -- same storage class, same bytes, same bits (-0.0 stays -0.0); a NaN
// comes back NULL, as SQLite stores it. The typed getters convert exactly as
// documented (and fail with SQLITE_MISMATCH, leaving the output alone,
// otherwise). Value::asInteger / asReal / asText / asBlob of a read value
// equal the raw sqlite3_column_int64 / double / text / blob of the stored
// value. Copies and moves of a Value keep it; an unsigned integer above
// INT64_MAX fails to bind with SQLITE_RANGE.
#include <cmath>
#include <limits>
#include <optional>

#include "FuzzSupport.hpp"
#include <sqlitebridge/interop/Interop.hpp>
#include <sqlitebridge/interop/Testing.hpp>

using sqlitebridge::Database;
using sqlitebridge::NamedValues;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using sqlitebridge::Statement;
using sqlitebridge::StepResult;
using sqlitebridge::Value;
using sqlitebridge::ValueType;
using sqlitebridge::interop::DatabaseAccess;
using sqlitebridge::interop::ParameterMatch;
using sqlitebridge::interop::StatementAccess;
using sqlitebridge::interop::StatementTesting;

namespace {

std::string describe(const Value& value) {
  char buffer[64];
  switch (value.type()) {
    case ValueType::Null:
      return "NULL";
    case ValueType::Integer:
      std::snprintf(buffer, sizeof buffer, "integer %lld", static_cast<long long>(value.asInteger()));
      return buffer;
    case ValueType::Real:
      std::snprintf(buffer, sizeof buffer, "real %a", value.asReal());
      return buffer;
    case ValueType::Text:
      return "text \"" + fuzz::printable(value.asText(), 60) + "\" (" + std::to_string(value.asText().size()) +
             " bytes)";
    case ValueType::Blob:
      return "blob of " + std::to_string(value.asBlob().size()) + " bytes";
  }
  return "?";
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Same storage class and the same bytes or bits.
bool same(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  if (a.type() == ValueType::Real) return sameBits(a.asReal(), b.asReal());
  return a == b;
}

void expectSame(const Value& expected, const Value& actual, const char* how, std::int64_t key) {
  FUZZ_CHECK(same(expected, actual), "%s (value %lld): bound %s, read back %s", how, static_cast<long long>(key),
             describe(expected).c_str(), describe(actual).c_str());
}

// One value to bind, and what must come back.
struct Case {
  Value bound;     // what the binding API is given
  Value expected;  // what SQLite stores
  int method = 0;
  std::string rawText;  // text/blob bytes, for the typed APIs
};

double specialDouble(std::uint8_t which) {
  const double table[] = {std::numeric_limits<double>::quiet_NaN(),
                          -std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          -0.0,
                          0.0,
                          std::numeric_limits<double>::denorm_min(),
                          -std::numeric_limits<double>::denorm_min(),
                          std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::max(),
                          -std::numeric_limits<double>::max(),
                          9223372036854775808.0,
                          -9223372036854775808.0,
                          9007199254740993.0,
                          0.1,
                          2.5,
                          -2.0,
                          1e308,
                          static_cast<double>(std::numeric_limits<float>::max()) * 2};
  return table[which % (sizeof table / sizeof table[0])];
}

Case readCase(fuzz::Input& input) {
  Case c;
  const std::uint8_t kind = input.byte();
  switch (kind % 8) {
    case 0:
      break;  // NULL
    case 1:
      c.bound = Value(static_cast<std::int64_t>(input.bits(8)));
      break;
    case 2:
      c.bound = Value(static_cast<std::int64_t>(static_cast<std::int8_t>(input.byte())));
      break;
    case 3: {
      const std::uint64_t bits = input.bits(8);
      double real;
      std::memcpy(&real, &bits, sizeof real);
      c.bound = Value(real);
      break;
    }
    case 4:
      c.bound = Value(specialDouble(input.byte()));
      break;
    default: {
      std::size_t length = input.byte();
      if (length == 255) length += static_cast<std::size_t>(input.bits(2));
      c.rawText = input.bytes(length);
      c.bound = kind % 8 == 6 ? Value::fromBlob(c.rawText.data(), c.rawText.size()) : Value(c.rawText);
      break;
    }
  }
  c.expected = c.bound;
  if (c.bound.type() == ValueType::Real && std::isnan(c.bound.asReal())) c.expected = Value();
  c.method = input.byte();
  return c;
}

// Binds `c` to parameter `index` of `statement` with the typed API chosen by
// `variant`, adjusting `c.expected` when that API changes the value (float,
// const char*). Returns false (with the error checked) when binding failed
// as it must.
bool bindTyped(Statement& statement, int index, Case& c, int variant, Database& db) {
  const Value& v = c.bound;
  switch (v.type()) {
    case ValueType::Null:
      switch (variant % 4) {
        case 0:
          return statement.bindNull(index);
        case 1:
          return statement.bind(index, nullptr);
        case 2:
          return statement.bind(index, std::nullopt);
        default:
          return statement.bind(index, std::optional<std::int64_t>());
      }
    case ValueType::Integer: {
      const std::int64_t i = v.asInteger();
      switch (variant % 10) {
        case 0:
          return statement.bindInteger(index, i);
        case 1:
          return statement.bind(index, static_cast<long long>(i));
        case 2:
          return statement.bind(index, static_cast<long>(i));
        case 3:
          if (i >= INT32_MIN && i <= INT32_MAX) return statement.bind(index, static_cast<int>(i));
          return statement.bind(index, std::optional<std::int64_t>(i));
        case 4:
          if (i >= INT16_MIN && i <= INT16_MAX) return statement.bind(index, static_cast<short>(i));
          return statement.bind(index, i);
        case 5:
          if (i >= INT8_MIN && i <= INT8_MAX) return statement.bind(index, static_cast<signed char>(i));
          return statement.bind(index, i);
        case 6:
          if (i >= 0 && i <= UINT8_MAX) return statement.bind(index, static_cast<unsigned char>(i));
          if (i >= 0 && i <= UINT16_MAX) return statement.bind(index, static_cast<unsigned short>(i));
          if (i >= 0 && i <= UINT32_MAX) return statement.bind(index, static_cast<unsigned int>(i));
          return statement.bind(index, i);
        case 7:
          if (i == 0 || i == 1) return statement.bind(index, i == 1);
          [[fallthrough]];
        case 8: {
          if (i >= 0) return statement.bind(index, static_cast<unsigned long long>(i));
          // Above INT64_MAX: refused, never wrapped to a negative number.
          const unsigned long long big = static_cast<unsigned long long>(i);
          FUZZ_CHECK(!statement.bind(index, big) && db.lastError().code == SQLITE_RANGE,
                     "binding unsigned %llu did not fail with SQLITE_RANGE (code %d)", big, db.lastError().code);
          FUZZ_CHECK(!statement.bind(index, static_cast<unsigned long>(big)) && db.lastError().code == SQLITE_RANGE,
                     "binding unsigned long %llu did not fail with SQLITE_RANGE", big);
          return statement.bind(index, i);
        }
        default:
          return statement.bind(index, std::optional<long long>(i));
      }
    }
    case ValueType::Real: {
      const double d = v.asReal();
      switch (variant % 4) {
        case 0:
          return statement.bindReal(index, d);
        case 1:
          return statement.bind(index, d);
        case 2: {
          const float f = static_cast<float>(d);
          if (!std::isnan(f)) c.expected = Value(static_cast<double>(f));
          return statement.bind(index, f);
        }
        default:
          return statement.bind(index, std::optional<double>(d));
      }
    }
    case ValueType::Text: {
      const std::string& text = c.rawText;
      switch (variant % 5) {
        case 0:
          return statement.bindText(index, text.data(), text.size());
        case 1:
          return statement.bindText(index, text);
        case 2:
          return statement.bind(index, std::string_view(text));
        case 3:
          // A C string ends at its first NUL.
          c.expected = Value(std::string(text.c_str()));
          return statement.bind(index, text.c_str());
        default:
          if (text.empty()) return statement.bindText(index, nullptr, 0);  // empty text, not NULL
          return statement.bind(index, std::optional<std::string>(text));
      }
    }
    case ValueType::Blob: {
      const std::vector<std::uint8_t> blob(c.rawText.begin(), c.rawText.end());
      switch (variant % 3) {
        case 0:
          return statement.bindBlob(index, blob.data(), blob.size());
        case 1:
          return statement.bind(index, blob);
        default:
          return statement.bind(index, std::optional<std::vector<std::uint8_t>>(blob));
      }
    }
  }
  return false;
}

// Checks the Value accessors of `value` (read back from key `key`) against
// the raw sqlite3_column_* conversions of the stored value, each on a fresh
// step so that no conversion sees another's leftovers.
void checkAccessors(Database& db, const Value& value, std::int64_t key) {
  sqlite3* h = db.handle();
  sqlite3_stmt* stmt = nullptr;
  FUZZ_CHECK(sqlite3_prepare_v2(h, "SELECT x FROM v WHERE k = ?1", -1, &stmt, nullptr) == SQLITE_OK, "prepare: %s",
             sqlite3_errmsg(h));
  sqlite3_bind_int64(stmt, 1, key);
  const auto step = [&] {
    sqlite3_reset(stmt);
    FUZZ_CHECK(sqlite3_step(stmt) == SQLITE_ROW, "value %lld is not stored", static_cast<long long>(key));
  };
  step();
  FUZZ_CHECK(value.asInteger() == sqlite3_column_int64(stmt, 0), "asInteger of %s is %lld, SQLite says %lld",
             describe(value).c_str(), static_cast<long long>(value.asInteger()),
             static_cast<long long>(sqlite3_column_int64(stmt, 0)));
  step();
  const double raw = sqlite3_column_double(stmt, 0);
  FUZZ_CHECK(sameBits(value.asReal(), raw) || (std::isnan(raw) && std::isnan(value.asReal())),
             "asReal of %s is %a, SQLite says %a", describe(value).c_str(), value.asReal(), raw);
  step();
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  const std::string rawText(text != nullptr ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
  FUZZ_CHECK(value.asText() == rawText, "asText of %s is \"%s\", SQLite says \"%s\"", describe(value).c_str(),
             fuzz::printable(value.asText()).c_str(), fuzz::printable(rawText).c_str());
  step();
  const auto* blob = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt, 0));
  const std::size_t size = static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0));
  const std::vector<std::uint8_t> rawBlob(blob, blob + (blob != nullptr ? size : 0));
  FUZZ_CHECK(value.asBlob() == rawBlob, "asBlob of %s differs from SQLite's %zu bytes", describe(value).c_str(),
             rawBlob.size());
  sqlite3_finalize(stmt);
}

// A typed getter that must fail leaves `out` alone and reports SQLITE_MISMATCH.
template <typename T>
void expectGetFails(Database& db, const RowView& row, const T& sentinel, const char* type, const Value& value) {
  T out = sentinel;
  FUZZ_CHECK(!row.get(1, out), "get<%s> of %s succeeded", type, describe(value).c_str());
  FUZZ_CHECK(out == sentinel, "a failed get<%s> changed its output", type);
  FUZZ_CHECK(db.lastError().code == SQLITE_MISMATCH && !db.lastError().message.empty(),
             "a failed get<%s> of %s left code %d", type, describe(value).c_str(), db.lastError().code);
}

// The exact conversions RowView::get documents, for the column holding `value`.
void checkTypedGetters(Database& db, const RowView& row, const Value& value) {
  Value any;
  FUZZ_CHECK(row.get(1, any) && same(any, value), "get<Value> of %s gave %s", describe(value).c_str(),
             describe(any).c_str());
  std::optional<std::int64_t> optional = 7;
  switch (value.type()) {
    case ValueType::Null:
      FUZZ_CHECK(row.get(1, optional) && !optional, "get<optional> of NULL is not empty");
      expectGetFails(db, row, std::int64_t{42}, "int64", value);
      expectGetFails(db, row, 4.5, "double", value);
      expectGetFails(db, row, std::string("x"), "string", value);
      break;
    case ValueType::Integer: {
      const std::int64_t i = value.asInteger();
      std::int64_t i64 = 0;
      FUZZ_CHECK(row.get(1, i64) && i64 == i, "get<int64> of %lld", static_cast<long long>(i));
      FUZZ_CHECK(row.get(1, optional) && optional == i, "get<optional<int64>> of %lld", static_cast<long long>(i));
      double d = 0;
      FUZZ_CHECK(row.get(1, d) && sameBits(d, static_cast<double>(i)), "get<double> of %lld",
                 static_cast<long long>(i));
      bool b = false;
      FUZZ_CHECK(row.get(1, b) && b == (i != 0), "get<bool> of %lld", static_cast<long long>(i));
      if (i >= INT32_MIN && i <= INT32_MAX) {
        std::int32_t i32 = 0;
        FUZZ_CHECK(row.get(1, i32) && i32 == i, "get<int32> of %lld", static_cast<long long>(i));
      } else {
        expectGetFails(db, row, std::int32_t{42}, "int32", value);
      }
      if (i >= 0) {
        std::uint64_t u64 = 0;
        FUZZ_CHECK(row.get(1, u64) && u64 == static_cast<std::uint64_t>(i), "get<uint64> of %lld",
                   static_cast<long long>(i));
      } else {
        expectGetFails(db, row, std::uint64_t{42}, "uint64", value);
      }
      expectGetFails(db, row, std::string("x"), "string", value);
      expectGetFails(db, row, std::vector<std::uint8_t>{1}, "blob", value);
      break;
    }
    case ValueType::Real: {
      const double r = value.asReal();
      double d = 0;
      FUZZ_CHECK(row.get(1, d) && sameBits(d, r), "get<double> of %a gave %a", r, d);
      const float nearest = static_cast<float>(r);
      if (std::isfinite(r) && !std::isfinite(nearest)) {
        expectGetFails(db, row, 1.5f, "float", value);
      } else {
        float f = 0;
        FUZZ_CHECK(row.get(1, f) && std::memcmp(&f, &nearest, sizeof f) == 0, "get<float> of %a", r);
      }
      const bool integral = std::trunc(r) == r && r >= -9223372036854775808.0 && r < 9223372036854775808.0;
      if (integral) {
        std::int64_t i64 = 0;
        FUZZ_CHECK(row.get(1, i64) && i64 == static_cast<std::int64_t>(r), "get<int64> of %a", r);
      } else {
        expectGetFails(db, row, std::int64_t{42}, "int64", value);
      }
      expectGetFails(db, row, std::string("x"), "string", value);
      break;
    }
    case ValueType::Text: {
      std::string text;
      FUZZ_CHECK(row.get(1, text) && text == value.asText(), "get<string> of %s", describe(value).c_str());
      std::optional<std::string> optionalText;
      FUZZ_CHECK(row.get(1, optionalText) && optionalText == value.asText(), "get<optional<string>>");
      // Text is never parsed as a number, and is not a blob.
      expectGetFails(db, row, std::int64_t{42}, "int64", value);
      expectGetFails(db, row, 4.5, "double", value);
      expectGetFails(db, row, std::vector<std::uint8_t>{1}, "blob", value);
      break;
    }
    case ValueType::Blob: {
      std::vector<std::uint8_t> blob{9};
      FUZZ_CHECK(row.get(1, blob) && blob == value.asBlob(), "get<blob> of %s", describe(value).c_str());
      expectGetFails(db, row, std::string("x"), "string", value);
      expectGetFails(db, row, std::int64_t{42}, "int64", value);
      break;
    }
  }
}

// Copies and moves keep a value; a moved-from value keeps its storage class.
void checkValueSemantics(const Value& value) {
  Value copy(value);
  FUZZ_CHECK(same(copy, value), "copy of %s differs", describe(value).c_str());
  Value assigned = Value(std::string("something else entirely, on the heap"));
  assigned = value;
  FUZZ_CHECK(same(assigned, value), "copy-assignment of %s differs", describe(value).c_str());
  Value& self = assigned;
  assigned = self;
  FUZZ_CHECK(same(assigned, value), "self-assignment of %s changed it", describe(value).c_str());
  Value moved(std::move(copy));
  FUZZ_CHECK(same(moved, value), "move of %s differs", describe(value).c_str());
  FUZZ_CHECK(copy.type() == value.type(), "a moved-from value changed its storage class");
  Value target(std::int64_t{5});
  target = std::move(moved);
  FUZZ_CHECK(same(target, value), "move-assignment of %s differs", describe(value).c_str());
  if (value.type() == ValueType::Text || value.type() == ValueType::Blob) {
    FUZZ_CHECK(moved.type() == value.type() && moved.asBlob().empty(), "a moved-from value kept bytes");
  }
  if (value.type() != ValueType::Real || !std::isnan(value.asReal())) {
    FUZZ_CHECK(target == value, "operator== says a copy of %s differs", describe(value).c_str());
  }
}

// Binds case `c` as row `key` with the API its method byte chooses; returns
// what SQLite must have stored (the case's expectation, adjusted by the API).
void insert(Database& db, Case& c, std::int64_t key) {
  const int method = c.method % 11;
  const int variant = c.method / 11;
  bool ok = false;
  const char* how = "?";
  switch (method) {
    case 0:
      how = "execute(positional Values)";
      ok = db.execute("INSERT INTO v(k, x) VALUES (?, ?)", std::vector<Value>{Value(key), c.bound});
      break;
    case 1: {
      how = "execute(named, keys without prefix)";
      NamedValues named;
      named.add("x", c.bound);
      named.add("k", Value(key));
      ok = db.execute("INSERT INTO v(k, x) VALUES (:k, $x)", named);
      break;
    }
    case 2:
      how = "execute(named, prefixed keys)";
      ok = db.execute("INSERT INTO v(k, x) VALUES (@k, :x)", {{"@k", Value(key)}, {":x", c.bound}});
      break;
    case 3: {
      how = "Statement::bind(int, Value)";
      Statement statement = db.prepare("INSERT INTO v(k, x) VALUES (?1, ?2)");
      ok = statement.bind(1, Value(key)) && statement.bind(2, c.bound) && statement.step() == StepResult::Done;
      break;
    }
    case 4:
    case 5: {
      how = "typed bind";
      Statement statement = db.prepare("INSERT INTO v(k, x) VALUES (?, ?)");
      ok = statement.bind(1, key) && bindTyped(statement, 2, c, variant, db) && statement.step() == StepResult::Done;
      break;
    }
    case 6:
      how = "execute(sql, bind callback, onRow)";
      ok = db.execute(
          "INSERT INTO v(k, x) VALUES (?, ?)",
          [&](Statement& statement) {
            return statement.bindInteger(1, key) && bindTyped(statement, 2, c, variant, db);
          },
          [](const RowView&) {});
      break;
    case 7: {
      how = "Statement::bind(vector<Value>)";
      Statement statement = db.cachedStatement("INSERT INTO v(k, x) VALUES (?, ?)");
      ok = statement.bind(std::vector<Value>{Value(key), c.bound}) && statement.step() == StepResult::Done;
      break;
    }
    case 8: {
      how = "beginNamedArguments / matchNamedArgument";
      Statement statement =
          StatementTesting::cachedStatementForArguments(db, "INSERT INTO v(k, x) VALUES (:k, :x)", 35);
      ok = StatementAccess::beginNamedArguments(statement);
      const ParameterMatch x = StatementAccess::matchNamedArgument(statement, "x", 1);
      const ParameterMatch k = StatementAccess::matchNamedArgument(statement, ":k", 2);
      ok = ok && x.count == 1 && k.count == 1 && statement.bind(x.first, c.bound) && statement.bind(k.first, key) &&
           StatementAccess::endNamedArguments(statement) && statement.step() == StepResult::Done;
      break;
    }
    case 9: {
      how = "forEachRow(INSERT ... RETURNING)";
      int rows = 0;
      ok = db.forEachRow("INSERT INTO v(k, x) VALUES (?, ?) RETURNING k, x", {Value(key), c.bound},
                         [&](const RowView& row) {
                           ++rows;
                           expectSame(c.expected, row.value(1), "RETURNING through RowView::value", key);
                         });
      ok = ok && rows == 1;
      break;
    }
    default: {
      how = "execute(SELECT ?) then insert";
      std::vector<Row> rows;
      ok = db.execute("SELECT ? AS x", std::vector<Value>{c.bound}, &rows) && rows.size() == 1;
      if (ok) expectSame(c.expected, rows[0].value("X"), "SELECT ? through Row::value(name)", key);
      ok = ok && db.execute("INSERT INTO v(k, x) VALUES (?, ?)", std::vector<Value>{Value(key), c.bound});
      break;
    }
  }
  // Statement calls record failures but, on the per-value hot path, do not
  // clear an earlier one (an expected SQLITE_RANGE above, say): only
  // Database calls promise code 0 after success.
  const bool statementLevel = method == 3 || method == 4 || method == 5 || method == 7 || method == 8;
  if (!ok || !statementLevel) fuzz::checkErrorContract(db, ok, how, "INSERT");
  FUZZ_CHECK(ok, "%s failed to store %s: %d %s", how, describe(c.bound).c_str(), db.lastError().code,
             db.lastError().message.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  std::vector<Case> cases;
  while (!input.empty() && cases.size() < 32) cases.push_back(readCase(input));

  Database db = Database::open(":memory:");
  FUZZ_CHECK(db.isOpen(), "cannot open an in-memory database: %s", db.error().c_str());
  FUZZ_CHECK(db.execute("CREATE TABLE v(k INTEGER PRIMARY KEY, x)"), "create: %s", db.error().c_str());

  for (std::size_t i = 0; i < cases.size(); ++i) {
    checkValueSemantics(cases[i].bound);
    insert(db, cases[i], static_cast<std::int64_t>(i));
  }

  // The raw C API: exactly the bytes and bits bound.
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::vector<std::string> raw = fuzz::rawRows(db.handle(), "SELECT x FROM v WHERE k = " + std::to_string(i));
    FUZZ_CHECK(raw.size() == 1, "row %zu: %s", i, raw.empty() ? "missing" : raw.back().c_str());
  }

  const std::string all = "SELECT k, x FROM v ORDER BY k";
  // Statement: columnValue, column, RowView, typed getters.
  {
    Statement statement = db.prepare(all);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      FUZZ_CHECK(statement.step() == StepResult::Row, "row %zu missing", i);
      const Value& expected = cases[i].expected;
      const auto key = static_cast<std::int64_t>(i);
      const Value read = statement.columnValue(1);
      expectSame(expected, read, "Statement::columnValue", key);
      const sqlitebridge::ColumnView view = statement.column(1);
      FUZZ_CHECK(view.type == expected.type(), "Statement::column type differs for %s", describe(expected).c_str());
      if (view.type == ValueType::Text || view.type == ValueType::Blob) {
        const std::string bytes = expected.asText();
        FUZZ_CHECK(
            view.size == bytes.size() && (view.size == 0 || std::memcmp(view.bytes, bytes.data(), view.size) == 0),
            "Statement::column bytes differ for %s", describe(expected).c_str());
      }
      const RowView row(statement);
      expectSame(expected, row.value(1), "RowView::value(index)", key);
      expectSame(expected, row.value("X"), "RowView::value(name)", key);
      expectSame(expected, row.copy().value(1), "RowView::copy", key);
      checkTypedGetters(db, row, expected);
    }
    FUZZ_CHECK(statement.step() == StepResult::Done, "more rows than values");
  }
  // execute into rows, by index and by name.
  {
    std::vector<Row> rows;
    FUZZ_CHECK(db.execute(all, &rows) && rows.size() == cases.size(), "execute(&rows): %s", db.error().c_str());
    for (std::size_t i = 0; i < cases.size(); ++i) {
      expectSame(cases[i].expected, rows[i].value(1), "Row::value(index)", static_cast<std::int64_t>(i));
      expectSame(cases[i].expected, rows[i].value("x"), "Row::value(name)", static_cast<std::int64_t>(i));
      expectSame(cases[i].expected, rows[i].values()[1], "Row::values", static_cast<std::int64_t>(i));
      checkAccessors(db, rows[i].value(1), static_cast<std::int64_t>(i));
    }
  }
  // One row at a time, by key: execute(sql, arguments, &rows) and execute(sql, Row&).
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto key = static_cast<std::int64_t>(i);
    std::vector<Row> rows;
    FUZZ_CHECK(db.execute("SELECT x FROM v WHERE k = ?", {Value(key)}, &rows) && rows.size() == 1,
               "execute(arguments): %s", db.error().c_str());
    expectSame(cases[i].expected, rows[0].value(0), "execute(sql, arguments, &rows)", key);
    if (i == 0) {
      Row first;
      FUZZ_CHECK(db.execute(all, first), "execute(Row&): %s", db.error().c_str());
      expectSame(cases[0].expected, first.value(1), "execute(sql, Row&)", 0);
    }
  }
  // Streaming: forEachRow and executeScript with rows.
  {
    std::size_t seen = 0;
    FUZZ_CHECK(db.forEachRow(all,
                             [&](const RowView& row) {
                               expectSame(cases[seen].expected, row.value("x"), "forEachRow",
                                          static_cast<std::int64_t>(seen));
                               ++seen;
                             }) &&
                   seen == cases.size(),
               "forEachRow: %s", db.error().c_str());
    seen = 0;
    FUZZ_CHECK(db.executeScript("SELECT 1 WHERE 0; " + all + ";",
                                [&](const RowView& row) {
                                  expectSame(cases[seen].expected, row.value(1), "executeScript rows",
                                             static_cast<std::int64_t>(seen));
                                  ++seen;
                                }) &&
                   seen == cases.size(),
               "executeScript: %s", db.error().c_str());
  }
  return 0;
}
