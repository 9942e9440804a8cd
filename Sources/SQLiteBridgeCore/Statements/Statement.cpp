#include "sqlitebridge/Statement.hpp"

#include <algorithm>

#include <climits>
#include <cstring>

#include "Connection.hpp"
#include "ConversionFailure.hpp"
#include "StatementState.hpp"
#include "sqlitebridge/interop/Statements.hpp"

namespace sqlitebridge {

Statement::Statement(std::shared_ptr<Connection> connection, sqlite3_stmt* stmt,
                     StatementCacheEntry* cacheEntry) noexcept
    : connection_(std::move(connection)), stmt_(stmt), cacheEntry_(cacheEntry) {}

Statement::State& Statement::state() const {
  if (state_ != nullptr) return *state_;
  if (cacheEntry_ != nullptr) {
    // A cached statement's state stays with it in the cache.
    StatementCacheEntry* entry = cacheEntry_;
    if (entry->state == nullptr) entry->state = new State();
    state_ = entry->state;
    ownsState_ = false;
  } else {
    state_ = new State();
    ownsState_ = true;
  }
  return *state_;
}

void Statement::release() noexcept {
  if (ownsState_) delete state_;
  state_ = nullptr;
  ownsState_ = false;
  if (stmt_ == nullptr) return;
  if (cacheEntry_ != nullptr && connection_) {
    // Lent by the statement cache: give it back (reset; a large value bound
    // is released now rather than kept until the statement's next use).
    connection_->statementCache.giveBack(cacheEntry_, boundLargeValue_);
  } else if (connection_) {
    connection_->finalize(stmt_);
  } else {
    sqlite3_finalize(stmt_);
  }
  // The read transaction a request's render opened for this statement
  // (FetchHold) ends with it.
  if (connection_) connection_->fetchHold.endIfOwnedBy(stmt_);
  stmt_ = nullptr;
  cacheEntry_ = nullptr;
  boundLargeValue_ = false;
  // A transaction this statement ended is told to its observers now.
  if (connection_) connection_->deliverObservations();
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

bool Statement::notPrepared() noexcept { return fail(SQLITE_MISUSE, "the statement is not prepared"); }

// SQLite checks the index itself; only a failure costs more than a compare.
bool Statement::bindFailed(int index, int resultCode) noexcept {
  if (resultCode == SQLITE_RANGE) {
    return fail(SQLITE_RANGE, "parameter index " + std::to_string(index) + " is out of range: the statement has " +
                                  std::to_string(parameterCount()) + " parameter(s)");
  }
  return check(resultCode);
}

// MARK: Parameters

int Statement::parameterCount() const noexcept { return stmt_ ? sqlite3_bind_parameter_count(stmt_) : 0; }

int Statement::parameterIndex(const std::string& name) const noexcept {
  // SQLite reads a C string: ":id\0x" would find ":id". No name holds NUL.
  if (stmt_ == nullptr || name.find('\0') != std::string::npos) return 0;
  return sqlite3_bind_parameter_index(stmt_, name.c_str());
}

std::string Statement::parameterName(int index) const noexcept {
  const char* name = stmt_ ? sqlite3_bind_parameter_name(stmt_, index) : nullptr;
  return name ? std::string(name) : std::string();
}

bool Statement::wrongArgumentCount(std::size_t count) noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  const int expected = sqlite3_bind_parameter_count(stmt_);
  if (count != static_cast<std::size_t>(expected)) {
    return fail(SQLITE_RANGE, "wrong number of arguments: the statement has " + std::to_string(expected) +
                                  " parameter(s) but " + std::to_string(count) + " argument(s) were given");
  }
  return true;
}

// Values above this many bytes are released when a cached statement comes
// back, instead of staying referenced until it is next used.
constexpr std::size_t kLargeValue = 4096;

bool Statement::bindText(int index, const void* utf8, std::size_t size) noexcept {
  if (stmt_ == nullptr) return notPrepared();
  // A null pointer would bind NULL; empty text is not NULL.
  const char* bytes = utf8 != nullptr ? static_cast<const char*>(utf8) : "";
  if (size > kLargeValue) boundLargeValue_ = true;
  return bound(index, sqlite3_bind_text64(stmt_, index, bytes, size, SQLITE_TRANSIENT, SQLITE_UTF8));
}

bool Statement::bindText(int index, const std::string& text) noexcept {
  return bindText(index, text.data(), text.size());
}

bool Statement::bindBlob(int index, const void* bytes, std::size_t size) noexcept {
  if (stmt_ == nullptr) return notPrepared();
  // A null pointer would bind NULL; a zero-length blob is not NULL.
  if (size == 0) return bound(index, sqlite3_bind_zeroblob(stmt_, index, 0));
  if (size > kLargeValue) boundLargeValue_ = true;
  return bound(index, sqlite3_bind_blob64(stmt_, index, bytes, size, SQLITE_TRANSIENT));
}

bool Statement::bind(int index, const char* text) noexcept {
  if (text == nullptr) return bindNull(index);
  return bindText(index, text, std::strlen(text));
}

bool Statement::bindUnsigned(int index, unsigned long long value) noexcept {
  if (value > static_cast<unsigned long long>(INT64_MAX)) {
    if (stmt_ == nullptr) return notPrepared();
    if (index < 1 || index > parameterCount()) return bound(index, SQLITE_RANGE);
    return fail(SQLITE_RANGE, "the unsigned value " + std::to_string(value) + " for parameter " +
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
    const interop::ParameterMatch match = matchNamedArgument(argument.first.data(), argument.first.size());
    if (match.count == 0) return false;
    for (int i = 0; i < match.count; ++i) {
      if (!bind(match.index(i), argument.second)) return false;
    }
  }
  return endNamedArguments();
}

bool Statement::beginNamedArguments() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  try {
    State& names = state();
    if (!names.namesRead) names.readNames(stmt_);
    if (names.hasPositional) {
      for (int index = 1; index < static_cast<int>(names.prefix.size()); ++index) {
        if (names.prefix[static_cast<std::size_t>(index)] != 0) continue;
        return fail(SQLITE_RANGE,
                    "parameter " + std::to_string(index) +
                        " is positional (?), so the statement needs positional arguments, not named ones");
      }
    }
    if (++names.round == 0) {  // wrapped: forget every earlier round
      std::fill(names.filledIn.begin(), names.filledIn.end(), 0);
      names.round = 1;
    }
    names.filled = 0;
    names.hint = 1;
  } catch (...) {
    return fail(SQLITE_NOMEM, "out of memory while binding named arguments");
  }
  return true;
}

interop::ParameterMatch Statement::matchNamedArgument(const void* key, std::size_t size) noexcept {
  interop::ParameterMatch match;
  if (stmt_ == nullptr) {
    fail(SQLITE_MISUSE, "the statement is not prepared");
    return match;
  }
  if (state_ == nullptr || !state_->namesRead) {
    fail(SQLITE_MISUSE, "matchNamedArgument needs beginNamedArguments first");
    return match;
  }
  State& names = *state_;
  const std::string_view name(static_cast<const char*>(key), size);
  const bool prefixed = size > 0 && (name[0] == ':' || name[0] == '@' || name[0] == '$');
  const int count = static_cast<int>(names.prefix.size()) - 1;
  const auto add = [&](int index) {
    (match.count == 0 ? match.first : match.count == 1 ? match.second : match.third) = index;
    ++match.count;
  };
  // Keys mostly come in parameter order: try where the last one ended, and
  // scan only when that is not it (or the name has several prefixes).
  const int hint = names.hint;
  if (hint <= count && names.names(hint, name, prefixed) &&
      (prefixed || !names.sharedBare[static_cast<std::size_t>(hint)])) {
    add(hint);
  } else {
    for (int index = 1; index <= count && match.count < 3; ++index) {
      if (names.names(index, name, prefixed)) add(index);
    }
  }
  try {
    if (match.count == 0) {
      std::string list;
      for (int index = 1; index <= count; ++index) list += (list.empty() ? "" : ", ") + parameterName(index);
      fail(SQLITE_RANGE, "the argument \"" + std::string(name) + "\" matches no parameter of the statement" +
                             (list.empty() ? std::string(" (it has none)") : " (it has " + list + ")"));
      return interop::ParameterMatch();
    }
    for (int i = 0; i < match.count; ++i) {
      const auto index = static_cast<std::size_t>(match.index(i));
      if (names.filledIn[index] == names.round) {
        fail(SQLITE_RANGE, "the argument \"" + std::string(name) + "\" is given twice (parameter " +
                               parameterName(match.index(i)) + ")");
        return interop::ParameterMatch();
      }
    }
  } catch (...) {
    fail(SQLITE_NOMEM, "out of memory while binding named arguments");
    return interop::ParameterMatch();
  }
  for (int i = 0; i < match.count; ++i) names.filledIn[static_cast<std::size_t>(match.index(i))] = names.round;
  names.filled += match.count;
  names.hint = match.index(match.count - 1) + 1;
  return match;
}

Error Statement::lastError() const noexcept {
  const bool prepared = connection_ && stmt_ != nullptr;
  try {
    if (!prepared) return Error{SQLITE_MISUSE, SQLITE_MISUSE, "the statement is not prepared", std::string()};
    return connection_->error;
  } catch (...) {
    return prepared ? Error{connection_->error.code, connection_->error.extendedCode, std::string(), std::string()}
                    : Error{SQLITE_MISUSE, SQLITE_MISUSE, std::string(), std::string()};
  }
}

bool Statement::startTrackingBinds() noexcept {
  if (stmt_ == nullptr) return notPrepared();
  try {
    State& tracked = state();
    tracked.boundIn.resize(static_cast<std::size_t>(parameterCount()) + 1, 0);
    // A new round marks every parameter unbound without clearing anything.
    if (++tracked.bindRound == 0) {
      std::fill(tracked.boundIn.begin(), tracked.boundIn.end(), 0);
      tracked.bindRound = 1;
    }
  } catch (...) {
    return fail(SQLITE_NOMEM, "out of memory while binding");
  }
  trackingBinds_ = true;
  return true;
}

void Statement::noteBound(int index) noexcept {
  // bound() only reports indexes SQLite accepted, so the state exists and
  // the index is in range.
  state_->boundIn[static_cast<std::size_t>(index)] = state_->bindRound;
}

bool Statement::finishTrackingBinds() noexcept {
  trackingBinds_ = false;
  const State& tracked = *state_;
  for (int index = 1; index < static_cast<int>(tracked.boundIn.size()); ++index) {
    if (tracked.boundIn[static_cast<std::size_t>(index)] == tracked.bindRound) continue;
    const std::string name = parameterName(index);
    return fail(SQLITE_RANGE, "no value for parameter " + (name.empty() ? "" : name + ", ") + "index " +
                                  std::to_string(index) + ": the bind callback left it unbound");
  }
  return true;
}

bool Statement::endNamedArguments() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  if (state_ == nullptr || !state_->namesRead)
    return fail(SQLITE_MISUSE, "endNamedArguments needs beginNamedArguments first");
  const State& names = *state_;
  const int count = static_cast<int>(names.prefix.size()) - 1;
  if (names.filled == count) return true;
  for (int index = 1; index <= count; ++index) {
    if (names.filledIn[static_cast<std::size_t>(index)] != names.round) {
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

StepResult Statement::stepFailed(int resultCode) noexcept {
  if (stmt_ == nullptr) {
    fail(SQLITE_MISUSE, "the statement is not prepared");
  } else {
    check(resultCode);
  }
  return StepResult::Error;
}

bool Statement::reset() noexcept {
  if (stmt_ == nullptr) return fail(SQLITE_MISUSE, "the statement is not prepared");
  // sqlite3_reset repeats the error of a failed step, which was already
  // reported by that step.
  sqlite3_reset(stmt_);
  // A schema change can re-prepare the statement with other columns.
  if (state_ != nullptr) state_->columnNames.reset();
  if (connection_) connection_->deliverObservations();
  return true;
}

// MARK: Columns

std::string Statement::columnName(int index) const noexcept {
  const char* name = stmt_ ? sqlite3_column_name(stmt_, index) : nullptr;
  return name ? std::string(name) : std::string();
}

std::shared_ptr<const std::vector<std::string>> Statement::columnNames() const noexcept {
  const int count = columnCount();
  try {
    std::shared_ptr<const std::vector<std::string>>& columnNames = state().columnNames;
    if (!columnNames || columnNames->size() != static_cast<std::size_t>(count)) {
      auto names = std::make_shared<std::vector<std::string>>();
      names->reserve(static_cast<std::size_t>(count));
      for (int i = 0; i < count; ++i) names->push_back(columnName(i));
      columnNames = std::move(names);
    }
    return columnNames;
  } catch (...) {
    return nullptr;
  }
}

Value Statement::makeValue(const ColumnView& view) {
  switch (view.type) {
    case ValueType::Null:
      break;
    case ValueType::Integer:
      return Value(view.integer);
    case ValueType::Real:
      return Value(view.real);
    case ValueType::Text:
    case ValueType::Blob:
      return Value::ofBytes(view.type, view.bytes, view.size);
  }
  return Value();
}

// An allocation failure terminates here (noexcept), as it always has;
// Database::run reads rows with makeValues, which reports it.
Value Statement::columnValue(int index) const noexcept { return makeValue(column(index)); }

bool Statement::failConversion(int index, const char* typeName) const noexcept {
  try {
    if (index < 0 || index >= columnCount()) {
      return fail(SQLITE_RANGE, columnIndexOutOfRangeMessage(index, static_cast<std::size_t>(columnCount())));
    }
    return fail(SQLITE_MISMATCH, conversionFailureMessage(columnName(index), column(index), typeName));
  } catch (...) {
    return fail(SQLITE_MISMATCH, "a column does not convert to the requested type");
  }
}

std::vector<Value> Statement::makeValues() const {
  sqlite3_stmt* const stmt = stmt_;
  const int count = stmt != nullptr ? sqlite3_column_count(stmt) : 0;
  std::vector<Value> values;
  values.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    // Read as column(i) reads it (sqlite3_column_value, then the accessor
    // the storage class needs), but straight into the Value: numbers go in
    // place without a ColumnView built on the stack in between, which cost
    // about 11 instructions a value.
    sqlite3_value* const value = sqlite3_column_value(stmt, i);
    const int type = sqlite3_value_type(value);
    if (__builtin_expect(type == SQLITE_INTEGER, 1)) {
      values.emplace_back(static_cast<std::int64_t>(sqlite3_value_int64(value)));
    } else if (type == SQLITE_FLOAT) {
      values.emplace_back(sqlite3_value_double(value));
    } else if (type == SQLITE_NULL) {
      values.emplace_back();
    } else {
      // Text before its byte count, as SQLite asks.
      ColumnView view{ValueType::Blob, 0, 0.0, nullptr, 0};
      if (type == SQLITE_TEXT) {
        view.type = ValueType::Text;
        view.bytes = sqlite3_value_text(value);
      } else {
        view.bytes = sqlite3_value_blob(value);
      }
      view.size = static_cast<std::size_t>(sqlite3_value_bytes(value));
      values.push_back(makeValue(view));
    }
  }
  return values;
}

Row Statement::row() const noexcept { return Row(columnNames(), makeValues()); }

}  // namespace sqlitebridge
