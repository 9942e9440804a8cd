// interop::FunctionAccess: custom functions, aggregates and collations with C
// callbacks and a context pointer (the Swift facade's closures), on top of
// Database::createFunction, createAggregate and createCollation.
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "Connection.hpp"
#include "sqlitebridge/interop/Extensions.hpp"

namespace sqlitebridge::interop {

namespace {

// The caller's context, released once when the last copy of the function
// that holds it goes (SQLite destroying the function), or at once when
// nothing came to hold it.
struct Owned {
  Owned(void* context, FunctionAccess::Release release) noexcept : context(context), release(release) {}
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (release != nullptr) release(context);
  }
  void* context;
  FunctionAccess::Release release;
};

// Shares `context`, releasing it at once when out of memory (null then).
std::shared_ptr<Owned> own(void* context, FunctionAccess::Release release) noexcept {
  try {
    return std::make_shared<Owned>(context, release);
  } catch (...) {
    if (release != nullptr) release(context);
    return nullptr;
  }
}

}  // namespace

bool FunctionAccess::outOfMemory(Database& database) noexcept {
  if (database.isOpen()) database.connection_->fail(SQLITE_NOMEM, "out of memory", "");
  return false;
}

namespace {

// One group of a Swift aggregate.
class CallbackAggregate : public Aggregate {
 public:
  CallbackAggregate(void* aggregate, AggregateCallbacks::Step step, AggregateCallbacks::Finalize finalize,
                    FunctionAccess::Release release) noexcept
      : aggregate_(aggregate), step_(step), finalize_(finalize), release_(release) {}
  CallbackAggregate(const CallbackAggregate&) = delete;
  CallbackAggregate& operator=(const CallbackAggregate&) = delete;
  ~CallbackAggregate() override { release_(aggregate_); }

  bool step(const std::vector<Value>& arguments, std::string& error) override {
    return step_(aggregate_, &arguments, &error);
  }
  bool finalize(Value& result, std::string& error) override { return finalize_(aggregate_, &result, &error); }

 private:
  void* aggregate_;
  AggregateCallbacks::Step step_;
  AggregateCallbacks::Finalize finalize_;
  FunctionAccess::Release release_;
};

}  // namespace

bool FunctionAccess::createFunction(Database& database, const std::string& name, int argumentCount, bool deterministic,
                                    Call call, Release release, void* context) noexcept {
  std::shared_ptr<Owned> owned = own(context, release);
  if (owned == nullptr) return outOfMemory(database);
  std::function<bool(const std::vector<Value>&, Value&, std::string&)> function;
  try {
    function = [owned, call](const std::vector<Value>& arguments, Value& result, std::string& error) {
      return call(owned->context, &arguments, &result, &error);
    };
  } catch (...) {
    return outOfMemory(database);
  }
  owned.reset();  // the function holds it now
  return database.createFunction(name, argumentCount, deterministic, std::move(function));
}

bool FunctionAccess::createAggregate(Database& database, const std::string& name, int argumentCount, bool deterministic,
                                     const AggregateCallbacks& callbacks) noexcept {
  const AggregateCallbacks::MakeAggregate makeAggregate = callbacks.makeAggregate;
  const AggregateCallbacks::Step step = callbacks.step;
  const AggregateCallbacks::Finalize finalize = callbacks.finalize;
  const ReleaseBox releaseAggregate = callbacks.releaseAggregate;
  std::shared_ptr<Owned> owned = own(callbacks.box, callbacks.release);
  if (owned == nullptr) return outOfMemory(database);
  std::function<std::unique_ptr<Aggregate>()> factory;
  try {
    factory = [owned, makeAggregate, step, finalize, releaseAggregate]() -> std::unique_ptr<Aggregate> {
      void* aggregate = makeAggregate(owned->context);
      if (aggregate == nullptr) return nullptr;
      try {
        return std::make_unique<CallbackAggregate>(aggregate, step, finalize, releaseAggregate);
      } catch (...) {
        releaseAggregate(aggregate);
        throw;
      }
    };
  } catch (...) {
    return outOfMemory(database);
  }
  owned.reset();
  return database.createAggregate(name, argumentCount, deterministic, std::move(factory));
}

bool FunctionAccess::createCollation(Database& database, const std::string& name, Compare compare, Release release,
                                     void* context) noexcept {
  std::shared_ptr<Owned> owned = own(context, release);
  if (owned == nullptr) return outOfMemory(database);
  std::function<int(std::string_view, std::string_view)> function;
  try {
    function = [owned, compare](std::string_view a, std::string_view b) {
      return compare(owned->context, a.data(), a.size(), b.data(), b.size());
    };
  } catch (...) {
    return outOfMemory(database);
  }
  owned.reset();
  return database.createCollation(name, std::move(function));
}

bool FunctionAccess::setText(Value* result, const void* bytes, std::size_t size) noexcept {
  try {
    *result = size > 0 ? Value(std::string(static_cast<const char*>(bytes), size)) : Value(std::string());
    return true;
  } catch (...) {
    return false;
  }
}

bool FunctionAccess::setBlob(Value* result, const void* bytes, std::size_t size) noexcept {
  try {
    *result = Value::fromBlob(size > 0 ? bytes : "", size);
    return true;
  } catch (...) {
    return false;
  }
}

bool FunctionAccess::setError(std::string* error, const void* bytes, std::size_t size) noexcept {
  try {
    if (size > 0) {
      error->assign(static_cast<const char*>(bytes), size);
    } else {
      error->clear();
    }
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace sqlitebridge::interop
