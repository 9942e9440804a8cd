// Custom SQL functions and aggregates: Database::createFunction,
// createAggregate and removeFunction. SQLite owns each function's state
// (sqlite3_create_function_v2's xDestroy), so replacing, removing and closing
// release it. Every callback is caught at the trampoline: no C++ exception
// unwinds through SQLite's C frames.
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "Connection.hpp"
#include "SQLiteValue.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

using ScalarFunction = std::function<bool(const std::vector<Value>&, Value&, std::string&)>;
using AggregateFactory = std::function<std::unique_ptr<Aggregate>()>;

struct ScalarState {
  std::string name;
  ScalarFunction function;
};

struct AggregateState {
  std::string name;
  AggregateFactory makeAggregate;
};

// What SQLite's aggregate context holds for one group (zeroed by SQLite on
// first use): the group's object, made at the first step (or at finalize
// for an empty group), and whether a step failed (then finalize only
// destroys it).
struct AggregateSlot {
  Aggregate* aggregate;
  bool failed;
};

std::vector<Value> argumentsOf(int count, sqlite3_value** values) {
  std::vector<Value> arguments;
  arguments.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) arguments.push_back(valueOf(values[i]));
  return arguments;
}

void setResult(sqlite3_context* context, const Value& result) noexcept {
  const ColumnView view = result.view();
  switch (view.type) {
    case ValueType::Integer:
      sqlite3_result_int64(context, view.integer);
      break;
    case ValueType::Real:
      sqlite3_result_double(context, view.real);
      break;
    case ValueType::Text:
      // A null pointer would make NULL: empty text points at "".
      sqlite3_result_text64(context, view.size > 0 ? static_cast<const char*>(view.bytes) : "", view.size,
                            SQLITE_TRANSIENT, SQLITE_UTF8);
      break;
    case ValueType::Blob:
      // A zero-length blob stays a blob (a null pointer would make NULL).
      if (view.size == 0) {
        sqlite3_result_zeroblob(context, 0);
      } else {
        sqlite3_result_blob64(context, view.bytes, view.size, SQLITE_TRANSIENT);
      }
      break;
    case ValueType::Null:
      sqlite3_result_null(context);
      break;
  }
}

void setError(sqlite3_context* context, const std::string& error, const std::string& name, const char* what) noexcept {
  if (!error.empty()) {
    sqlite3_result_error(context, error.data(),
                         static_cast<int>(error.size() > 0x7fffffff ? 0x7fffffff : error.size()));
    return;
  }
  try {
    const std::string message = "function " + name + " " + what;
    sqlite3_result_error(context, message.c_str(), -1);
  } catch (...) {
    sqlite3_result_error_nomem(context);
  }
}

// Reports the exception being handled (inside a catch block).
void setCaughtError(sqlite3_context* context, const std::string& name) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(context);
  } catch (const std::exception& exception) {
    const char* what = exception.what();
    if (what != nullptr && *what != '\0') {
      sqlite3_result_error(context, what, -1);
    } else {
      setError(context, std::string(), name, "threw a C++ exception");
    }
  } catch (...) {
    setError(context, std::string(), name, "threw a C++ exception");
  }
}

void callScalar(sqlite3_context* context, int count, sqlite3_value** values) noexcept {
  auto* state = static_cast<ScalarState*>(sqlite3_user_data(context));
  try {
    const std::vector<Value> arguments = argumentsOf(count, values);
    Value result;
    std::string error;
    if (!state->function(arguments, result, error)) return setError(context, error, state->name, "failed");
    setResult(context, result);
  } catch (...) {
    setCaughtError(context, state->name);
  }
}

void destroyScalar(void* state) noexcept { delete static_cast<ScalarState*>(state); }

// The group's slot and its object, made on first use; null (with the error
// set) when memory ran out or the factory failed.
AggregateSlot* slotOf(sqlite3_context* context, AggregateState& state) {
  auto* slot = static_cast<AggregateSlot*>(sqlite3_aggregate_context(context, sizeof(AggregateSlot)));
  if (slot == nullptr) {
    sqlite3_result_error_nomem(context);
    return nullptr;
  }
  if (slot->aggregate == nullptr && !slot->failed) {
    // Failed until made, so that a factory that throws is not called again
    // for the same group.
    slot->failed = true;
    std::unique_ptr<Aggregate> made = state.makeAggregate();
    if (made == nullptr) {
      setError(context, std::string(), state.name, "made no aggregate (its factory returned null)");
      return nullptr;
    }
    slot->aggregate = made.release();
    slot->failed = false;
  }
  return slot;
}

void stepAggregate(sqlite3_context* context, int count, sqlite3_value** values) noexcept {
  auto* state = static_cast<AggregateState*>(sqlite3_user_data(context));
  AggregateSlot* slot = nullptr;
  try {
    slot = slotOf(context, *state);
    if (slot == nullptr || slot->failed) return;
    const std::vector<Value> arguments = argumentsOf(count, values);
    std::string error;
    if (!slot->aggregate->step(arguments, error)) {
      slot->failed = true;
      setError(context, error, state->name, "failed");
    }
  } catch (...) {
    if (slot != nullptr) slot->failed = true;
    setCaughtError(context, state->name);
  }
}

void finalizeAggregate(sqlite3_context* context) noexcept {
  auto* state = static_cast<AggregateState*>(sqlite3_user_data(context));
  AggregateSlot* slot = nullptr;
  try {
    slot = slotOf(context, *state);
    if (slot != nullptr && !slot->failed) {
      Value result;
      std::string error;
      if (slot->aggregate->finalize(result, error)) {
        setResult(context, result);
      } else {
        setError(context, error, state->name, "failed");
      }
    }
  } catch (...) {
    setCaughtError(context, state->name);
  }
  // SQLite calls xFinal for every group it stepped, also when the query
  // failed or was abandoned: the one place the object goes.
  if (slot != nullptr) {
    delete slot->aggregate;
    slot->aggregate = nullptr;
  } else if (auto* left = static_cast<AggregateSlot*>(sqlite3_aggregate_context(context, 0))) {
    delete left->aggregate;
    left->aggregate = nullptr;
  }
}

void destroyAggregate(void* state) noexcept { delete static_cast<AggregateState*>(state); }

bool holdsNul(const std::string& name) noexcept { return name.find('\0') != std::string::npos; }

// sqlite3_create_function_v2's answer: SQLite refuses a name longer than 255
// bytes or a count outside -1...127 with a bare SQLITE_MISUSE (no message).
bool reportRegistration(Connection& connection, int rc, const std::string& name) noexcept {
  if (rc == SQLITE_OK) return true;
  if (rc == SQLITE_MISUSE) {
    return connection.fail(SQLITE_MISUSE,
                           "SQLite refused the function \"" + name +
                               "\": its name must be at most 255 bytes and its argument count -1 (any) to 127",
                           "");
  }
  return connection.failFromSQLite(rc, "");
}

}  // namespace

namespace {

// The one sequence of `createFunction` and `createAggregate`: refuse a name
// holding NUL and an empty callable, move it into the state SQLite owns,
// register. SQLite destroys the state on failure too.
template <typename State, typename Callable>
bool registerFunction(Connection& connection, const std::string& name, int argumentCount, bool deterministic,
                      Callable&& callable, const char* emptyProblem,
                      void (*call)(sqlite3_context*, int, sqlite3_value**),
                      void (*step)(sqlite3_context*, int, sqlite3_value**), void (*finalize)(sqlite3_context*),
                      void (*destroy)(void*)) noexcept {
  if (holdsNul(name)) return connection.fail(SQLITE_MISUSE, "a function name cannot hold a NUL byte", "");
  State* state = nullptr;
  try {
    if (!callable) return connection.fail(SQLITE_MISUSE, "the function \"" + name + "\" " + emptyProblem, "");
    state = new State{name, std::forward<Callable>(callable)};
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", "");
  }
  const int rc = sqlite3_create_function_v2(connection.db, name.c_str(), argumentCount,
                                            SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0), state, call, step,
                                            finalize, destroy);
  return reportRegistration(connection, rc, name);
}

}  // namespace

bool Database::createFunction(const std::string& name, int argumentCount, bool deterministic,
                              std::function<bool(const std::vector<Value>&, Value&, std::string&)> function) noexcept {
  if (!beginCall()) return false;
  return registerFunction<ScalarState>(*connection_, name, argumentCount, deterministic, std::move(function),
                                       "is empty", callScalar, nullptr, nullptr, destroyScalar);
}

bool Database::createAggregate(const std::string& name, int argumentCount, bool deterministic,
                               std::function<std::unique_ptr<Aggregate>()> makeAggregate) noexcept {
  if (!beginCall()) return false;
  return registerFunction<AggregateState>(*connection_, name, argumentCount, deterministic, std::move(makeAggregate),
                                          "has no aggregate factory", nullptr, stepAggregate, finalizeAggregate,
                                          destroyAggregate);
}

bool Database::removeFunction(const std::string& name, int argumentCount) noexcept {
  if (!beginCall()) return false;
  Connection& connection = *connection_;
  if (holdsNul(name)) return connection.fail(SQLITE_MISUSE, "a function name cannot hold a NUL byte", "");
  const int rc = sqlite3_create_function_v2(connection.db, name.c_str(), argumentCount, SQLITE_UTF8, nullptr, nullptr,
                                            nullptr, nullptr, nullptr);
  return reportRegistration(connection, rc, name);
}

}  // namespace sqlitebridge
