#include "sqlitebridge/Statement.hpp"

#include <climits>
#include <cstring>

#include "Connection.hpp"

namespace sqlitebridge {

Statement::Statement(std::shared_ptr<Connection> connection, sqlite3_stmt* stmt, void* cacheEntry) noexcept
    : connection_(std::move(connection)), stmt_(stmt), cacheEntry_(cacheEntry) {}

Statement::Statement(Statement&& other) noexcept
    : connection_(std::move(other.connection_)),
      stmt_(other.stmt_),
      cacheEntry_(other.cacheEntry_),
      namedBound_(std::move(other.namedBound_)),
      columnNames_(std::move(other.columnNames_)) {
  other.stmt_ = nullptr;
  other.cacheEntry_ = nullptr;
}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    release();
    connection_ = std::move(other.connection_);
    stmt_ = other.stmt_;
    cacheEntry_ = other.cacheEntry_;
    namedBound_ = std::move(other.namedBound_);
    columnNames_ = std::move(other.columnNames_);
    other.stmt_ = nullptr;
    other.cacheEntry_ = nullptr;
  }
  return *this;
}

Statement::~Statement() { release(); }

void Statement::release() noexcept {
  if (stmt_ == nullptr) return;
  if (cacheEntry_ != nullptr && connection_) {
    // Lent by the statement cache: return it (reset, bindings cleared).
    connection_->statementCache.giveBack(static_cast<StatementCache::Entry*>(cacheEntry_));
  } else {
    sqlite3_finalize(stmt_);
  }
  stmt_ = nullptr;
  cacheEntry_ = nullptr;
}

std::string Statement::sql() const noexcept {
  const char* text = stmt_ ? sqlite3_sql(stmt_) : nullptr;
  return text ? std::string(text) : std::string();
}

bool Statement::isReadOnly() const noexcept { return stmt_ != nullptr && sqlite3_stmt_readonly(stmt_) != 0; }

bool Statement::fail(int code, const std::string& message) const noexcept {
  if (connection_) connection_->fail(code, message, sql());
  return false;
}

bool Statement::hasError() const noexcept { return connection_ && connection_->error.isError(); }

void Statement::clearError() noexcept {
  if (connection_) connection_->clearError();
}

bool Statement::check(int resultCode) noexcept {
  if (resultCode == SQLITE_OK) return true;
  if (connection_) connection_->failFromSQLite(resultCode, sql());
  return false;
}

bool Statement::checkIndex(int index) noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  const int count = sqlite3_bind_parameter_count(stmt_);
  if (index < 1 || index > count) {
    return fail(SQLITE_RANGE, "parameter index " + std::to_string(index) + " is out of range: the statement has " +
                                  std::to_string(count) + " parameter(s)");
  }
  return true;
}

// MARK: Parameters

int Statement::parameterCount() const noexcept { return stmt_ ? sqlite3_bind_parameter_count(stmt_) : 0; }

int Statement::parameterIndex(const std::string& name) const noexcept {
  return stmt_ ? sqlite3_bind_parameter_index(stmt_, name.c_str()) : 0;
}

std::string Statement::parameterName(int index) const noexcept {
  const char* name = stmt_ ? sqlite3_bind_parameter_name(stmt_, index) : nullptr;
  return name ? std::string(name) : std::string();
}

bool Statement::expectArgumentCount(std::size_t count) noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  const int expected = sqlite3_bind_parameter_count(stmt_);
  if (count != static_cast<std::size_t>(expected)) {
    return fail(SQLITE_RANGE, "wrong number of arguments: the statement has " + std::to_string(expected) +
                                  " parameter(s) but " + std::to_string(count) + " argument(s) were given");
  }
  return true;
}

bool Statement::bindNull(int index) noexcept { return checkIndex(index) && check(sqlite3_bind_null(stmt_, index)); }

bool Statement::bindInteger(int index, std::int64_t value) noexcept {
  return checkIndex(index) && check(sqlite3_bind_int64(stmt_, index, value));
}

bool Statement::bindReal(int index, double value) noexcept {
  return checkIndex(index) && check(sqlite3_bind_double(stmt_, index, value));
}

bool Statement::bindText(int index, const void* utf8, std::size_t size) noexcept {
  if (!checkIndex(index)) return false;
  // A null pointer would bind NULL; empty text is not NULL.
  const char* bytes = utf8 != nullptr ? static_cast<const char*>(utf8) : "";
  return check(sqlite3_bind_text64(stmt_, index, bytes, size, SQLITE_TRANSIENT, SQLITE_UTF8));
}

bool Statement::bindText(int index, const std::string& text) noexcept {
  return bindText(index, text.data(), text.size());
}

bool Statement::bindBlob(int index, const void* bytes, std::size_t size) noexcept {
  if (!checkIndex(index)) return false;
  // A null pointer would bind NULL; a zero-length blob is not NULL.
  if (size == 0) return check(sqlite3_bind_zeroblob(stmt_, index, 0));
  return check(sqlite3_bind_blob64(stmt_, index, bytes, size, SQLITE_TRANSIENT));
}

bool Statement::bind(int index, const Value& value) noexcept {
  switch (value.type()) {
    case ValueType::Null:
      return bindNull(index);
    case ValueType::Integer:
      return bindInteger(index, value.asInteger());
    case ValueType::Real:
      return bindReal(index, value.asReal());
    case ValueType::Text:
    case ValueType::Blob:
      break;
  }
  try {
    if (value.type() == ValueType::Text) return bindText(index, value.asText());
    const std::vector<std::uint8_t> blob = value.asBlob();
    return bindBlob(index, blob.data(), blob.size());
  } catch (...) {
    return fail(SQLITE_NOMEM, "out of memory while binding parameter " + std::to_string(index));
  }
}

bool Statement::bind(int index, const char* text) noexcept {
  if (text == nullptr) return bindNull(index);
  return bindText(index, text, std::strlen(text));
}

bool Statement::bindUnsigned(int index, unsigned long long value) noexcept {
  if (value > static_cast<unsigned long long>(INT64_MAX)) {
    return checkIndex(index) &&
           fail(SQLITE_RANGE, "the unsigned value " + std::to_string(value) + " for parameter " +
                                  std::to_string(index) + " does not fit SQLite's 64-bit signed integer");
  }
  return bindInteger(index, static_cast<std::int64_t>(value));
}

bool Statement::bind(const std::vector<Value>& arguments) noexcept {
  if (!expectArgumentCount(arguments.size())) return false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (!bind(static_cast<int>(i + 1), arguments[i])) return false;
  }
  return true;
}

bool Statement::bind(const NamedValues& arguments) noexcept {
  if (!beginNamedArguments()) return false;
  for (const auto& argument : arguments) {
    const ParameterMatch match = matchNamedArgument(argument.first.data(), argument.first.size());
    if (match.count == 0) return false;
    for (int i = 0; i < match.count; ++i) {
      if (!bind(match.index(i), argument.second)) return false;
    }
  }
  return endNamedArguments();
}

bool Statement::beginNamedArguments() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  const int count = sqlite3_bind_parameter_count(stmt_);
  for (int index = 1; index <= count; ++index) {
    const char* name = sqlite3_bind_parameter_name(stmt_, index);
    if (name == nullptr || name[0] == '?') {
      return fail(SQLITE_RANGE, "parameter " + std::to_string(index) +
                                    " is positional (?), so the statement needs positional arguments, not named ones");
    }
  }
  try {
    namedBound_.assign(static_cast<std::size_t>(count) + 1, false);
  } catch (...) {
    return fail(SQLITE_NOMEM, "out of memory while binding named arguments");
  }
  return true;
}

ParameterMatch Statement::matchNamedArgument(const void* key, std::size_t size) noexcept {
  ParameterMatch match;
  if (stmt_ == nullptr) {
    fail(SQLITE_MISUSE, "the statement is not prepared");
    return match;
  }
  const std::string_view name(static_cast<const char*>(key), size);
  try {
    // sqlite3_bind_parameter_index wants the name with its prefix, NUL-ended.
    std::string candidate;
    candidate.reserve(size + 2);
    const bool prefixed = size > 0 && (name[0] == ':' || name[0] == '@' || name[0] == '$');
    for (const char prefix : {':', '@', '$'}) {
      candidate.clear();
      if (!prefixed) candidate += prefix;
      candidate.append(name);
      const int index =
          name.find('\0') == std::string_view::npos ? sqlite3_bind_parameter_index(stmt_, candidate.c_str()) : 0;
      if (index > 0) {
        if (static_cast<std::size_t>(index) < namedBound_.size() && namedBound_[static_cast<std::size_t>(index)]) {
          fail(SQLITE_RANGE,
               "the argument \"" + std::string(name) + "\" is given twice (parameter " + parameterName(index) + ")");
          return ParameterMatch();
        }
        if (static_cast<std::size_t>(index) < namedBound_.size()) namedBound_[static_cast<std::size_t>(index)] = true;
        (match.count == 0 ? match.first : match.count == 1 ? match.second : match.third) = index;
        ++match.count;
      }
      if (prefixed) break;
    }
    if (match.count == 0) {
      std::string names;
      const int count = sqlite3_bind_parameter_count(stmt_);
      for (int index = 1; index <= count; ++index) {
        names += (names.empty() ? "" : ", ") + parameterName(index);
      }
      fail(SQLITE_RANGE, "the argument \"" + std::string(name) + "\" matches no parameter of the statement" +
                             (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
    }
  } catch (...) {
    fail(SQLITE_NOMEM, "out of memory while binding named arguments");
    return ParameterMatch();
  }
  return match;
}

bool Statement::endNamedArguments() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  const int count = sqlite3_bind_parameter_count(stmt_);
  for (int index = 1; index <= count; ++index) {
    if (static_cast<std::size_t>(index) >= namedBound_.size() || !namedBound_[static_cast<std::size_t>(index)]) {
      return fail(SQLITE_RANGE, "no argument for parameter " + parameterName(index));
    }
  }
  return true;
}

bool Statement::clearBindings() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  return check(sqlite3_clear_bindings(stmt_));
}

// MARK: Running

StepResult Statement::step() noexcept {
  if (stmt_ == nullptr) {
    fail(SQLITE_MISUSE, "the statement is not prepared");
    return StepResult::Error;
  }
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return StepResult::Row;
  if (rc == SQLITE_DONE) return StepResult::Done;
  check(rc);
  return StepResult::Error;
}

bool Statement::reset() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  // sqlite3_reset repeats the error of a failed step, which was already
  // reported by that step.
  sqlite3_reset(stmt_);
  // A schema change can re-prepare the statement with other columns.
  columnNames_.reset();
  return true;
}

// MARK: Columns

std::string Statement::columnName(int index) const noexcept {
  const char* name = stmt_ ? sqlite3_column_name(stmt_, index) : nullptr;
  return name ? std::string(name) : std::string();
}

std::shared_ptr<const std::vector<std::string>> Statement::columnNames() const noexcept {
  const int count = columnCount();
  if (!columnNames_ || columnNames_->size() != static_cast<std::size_t>(count)) {
    auto names = std::make_shared<std::vector<std::string>>();
    names->reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) names->push_back(columnName(i));
    columnNames_ = std::move(names);
  }
  return columnNames_;
}

Value Statement::columnValue(int index) const noexcept {
  const ColumnView view = column(index);
  switch (view.type) {
    case ValueType::Null:
      return Value();
    case ValueType::Integer:
      return Value(view.integer);
    case ValueType::Real:
      return Value(view.real);
    case ValueType::Text:
      return view.size == 0 ? Value(std::string())
                            : Value(std::string(static_cast<const char*>(view.bytes), view.size));
    case ValueType::Blob:
      return Value::fromBlob(view.bytes, view.size);
  }
  return Value();
}

bool Statement::failConversion(int index, const char* typeName) const noexcept {
  try {
    if (index < 0 || index >= columnCount()) {
      return fail(SQLITE_RANGE, "column index " + std::to_string(index) + " is out of range: the row has " +
                                    std::to_string(columnCount()) + " column(s)");
    }
    const Value value = columnValue(index);
    std::string shown;
    switch (value.type()) {
      case ValueType::Null:
        shown = "NULL";
        break;
      case ValueType::Integer:
        shown = "integer " + value.asText();
        break;
      case ValueType::Real:
        shown = "real " + value.asText();
        break;
      case ValueType::Text: {
        const std::string text = value.asText();
        shown = "text '" + text.substr(0, 40) + (text.size() > 40 ? "...'" : "'");
        break;
      }
      case ValueType::Blob:
        shown = "a blob of " + std::to_string(value.asBlob().size()) + " byte(s)";
        break;
    }
    return fail(SQLITE_MISMATCH,
                "column \"" + columnName(index) + "\" holds " + shown + ", which does not convert to " + typeName);
  } catch (...) {
    return fail(SQLITE_MISMATCH, "a column does not convert to the requested type");
  }
}

Row Statement::row() const noexcept {
  const int count = columnCount();
  std::vector<Value> values;
  values.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values.push_back(columnValue(i));
  return Row(columnNames(), std::move(values));
}

}  // namespace sqlitebridge
