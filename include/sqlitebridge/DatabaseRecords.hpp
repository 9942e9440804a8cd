#pragma once

// The definitions of Database's record templates (fetch, fetchOne, forEach,
// fetchByKey, fetchAll, insert, update, save, remove) and of the variadic
// execute and forEachRow. Included at the end of Database.hpp; include
// that, not this.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ColumnLookup.hpp"
#include "Database.hpp"
#include "NamedValues.hpp"
#include "Record.hpp"
#include "RowView.hpp"
#include "Statement.hpp"
#include "Value.hpp"

namespace sqlitebridge {

namespace detail {

// A plan made by Database::planRecord for one operation, conflict rule and
// list of record columns.
struct CachedRecordPlan {
  RecordOperation operation;
  ConflictResolution onConflict;
  std::vector<std::string> columns;
  RecordPlan plan;
};

// Whether `values` (null: none) names exactly `columns`, in order.
inline bool sameColumns(const std::vector<std::string>& columns, const NamedValues* values) noexcept {
  if (values == nullptr) return columns.empty();
  if (columns.size() != values->size()) return false;
  std::size_t i = 0;
  for (const auto& entry : *values) {
    if (columns[i++] != entry.first) return false;
  }
  return true;
}

// The RecordBinder of the C++ templates: `context` is the record's
// NamedValues; parameter i + 1 takes the value of its column columns[i]
// (planRecord made `columns` from the same list, so each is in range).
inline bool bindRecordColumns(void* context, Statement* statement, const int* columns, std::size_t count) noexcept {
  const NamedValues::const_iterator values = static_cast<const NamedValues*>(context)->begin();
  for (std::size_t i = 0; i < count; ++i) {
    if (!statement->bind(static_cast<int>(i + 1), values[columns[i]].second)) return false;
  }
  return true;
}

}  // namespace detail

template <typename T>
const RecordPlan* Database::recordPlan(RecordOperation operation, const NamedValues* values,
                                       ConflictResolution onConflict) {
  static_assert(IsRecord<T>::value, "specialize sqlitebridge::RecordTraits<T> (see Record.hpp)");
  // A plan is only text (quoted names) and indexes: the same for every
  // connection. Kept per thread, so no lock; a few shapes per type.
  static thread_local std::deque<detail::CachedRecordPlan> plans;
  for (const detail::CachedRecordPlan& cached : plans) {
    if (cached.operation == operation && cached.onConflict == onConflict &&
        detail::sameColumns(cached.columns, values)) {
      return &cached.plan;
    }
  }
  try {
    detail::CachedRecordPlan made{operation, onConflict, {}, {}};
    if (values != nullptr) {
      made.columns.reserve(values->size());
      for (const auto& entry : *values) made.columns.push_back(entry.first);
    }
    if (!planRecord(operation, RecordTraits<T>::table, made.columns, RecordTraits<T>::primaryKey(), onConflict,
                    made.plan)) {
      return nullptr;
    }
    if (plans.size() >= 16) plans.pop_front();
    plans.push_back(std::move(made));
    return &plans.back().plan;
  } catch (const std::bad_alloc&) {
    failRecord(SQLITE_NOMEM, "out of memory while planning a record statement");
    return nullptr;
  }
}

template <typename T>
bool Database::writeRecord(RecordOperation operation, const T& record, ConflictResolution onConflict,
                           std::int64_t* rowID, bool* changed) {
  if (rowID != nullptr) *rowID = 0;
  if (changed != nullptr) *changed = false;
  NamedValues values;
  try {
    RecordTraits<T>::write(record, values);
  } catch (const std::bad_alloc&) {
    return failRecord(SQLITE_NOMEM, "out of memory while writing a record's values");
  }
  const RecordPlan* plan = recordPlan<T>(operation, &values, onConflict);
  return plan != nullptr && runRecord(*plan, &detail::bindRecordColumns, &values, rowID, changed);
}

template <typename T, typename>
bool Database::insert(const T& record, std::int64_t* rowID) {
  return writeRecord(RecordOperation::Insert, record, ConflictResolution::Abort, rowID, nullptr);
}

template <typename T, typename>
bool Database::insert(const T& record, ConflictResolution onConflict, std::int64_t* rowID) {
  return writeRecord(RecordOperation::Insert, record, onConflict, rowID, nullptr);
}

template <typename T, typename>
bool Database::update(const T& record) {
  return writeRecord(RecordOperation::Update, record, ConflictResolution::Abort, nullptr, nullptr);
}

template <typename T, typename>
bool Database::save(const T& record) {
  return writeRecord(RecordOperation::Save, record, ConflictResolution::Abort, nullptr, nullptr);
}

template <typename T, typename>
bool Database::remove(const T& record, bool* removed) {
  return writeRecord(RecordOperation::Delete, record, ConflictResolution::Abort, nullptr, removed);
}

template <typename T, typename Each>
bool Database::stepRecords(Statement& statement, Each&& each) {
  static_assert(IsRecord<T>::value, "specialize sqlitebridge::RecordTraits<T> (see Record.hpp)");
  statement.clearError();
  ColumnLookup lookup;
  for (;;) {
    const StepResult result = statement.step();
    if (result == StepResult::Done) return !statement.hasError();
    if (result == StepResult::Error) return false;
    lookup.startRow();
    const RowView row(statement, &lookup);
    T record{};
    if (!RecordTraits<T>::read(row, record)) {
      if (statement.hasError()) return false;
      return failRecord(SQLITE_ABORT, std::string("reading a record of table ") + RecordTraits<T>::table +
                                          ": RecordTraits::read gave up (returned false) without recording an error");
    }
    if (!each(std::move(record))) return !statement.hasError();
  }
}

template <typename T>
bool Database::fetch(const std::string& sql, const std::vector<Value>& arguments, std::vector<T>& out) {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  if (!statement.isValid() || !statement.bind(arguments)) return false;
  return fetchFrom(statement, out);
}

template <typename T>
bool Database::fetchFrom(Statement& statement, std::vector<T>& out) {
  const std::size_t oldSize = out.size();
  const auto dropAppended = [&] { out.erase(out.begin() + static_cast<std::ptrdiff_t>(oldSize), out.end()); };
  try {
    if (stepRecords<T>(statement, [&out](T&& record) {
          out.push_back(std::move(record));
          return true;
        })) {
      return true;
    }
  } catch (const std::bad_alloc&) {
    dropAppended();
    return failRecord(SQLITE_NOMEM, "out of memory while reading records");
  } catch (...) {
    dropAppended();
    throw;
  }
  dropAppended();
  return false;
}

template <typename T>
bool Database::fetchOne(const std::string& sql, const std::vector<Value>& arguments, std::optional<T>& out) {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  if (!statement.isValid() || !statement.bind(arguments)) return false;
  return stepFirstRecord(statement, out);
}

template <typename T, typename Body>
bool Database::forEach(const std::string& sql, const std::vector<Value>& arguments, Body&& body) {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  if (!statement.isValid() || !statement.bind(arguments)) return false;
  try {
    return stepRecords<T>(statement, [&body](T&& record) {
      const T& view = record;
      if constexpr (std::is_same_v<std::invoke_result_t<Body&, const T&>, bool>) {
        return static_cast<bool>(body(view));
      } else {
        body(view);
        return true;
      }
    });
  } catch (const std::bad_alloc&) {
    return failRecord(SQLITE_NOMEM, "out of memory while reading records");
  }
}

template <typename T>
bool Database::fetchByKey(const Value& key, std::optional<T>& out) {
  try {
    return fetchByKey<T>(std::vector<Value>{key}, out);
  } catch (const std::bad_alloc&) {
    return failRecord(SQLITE_NOMEM, "out of memory while reading a record");
  }
}

template <typename T>
bool Database::fetchByKey(const std::vector<Value>& key, std::optional<T>& out) {
  const RecordPlan* plan = recordPlan<T>(RecordOperation::SelectByKey, nullptr, ConflictResolution::Abort);
  if (plan == nullptr) return false;
  Statement statement = cachedStatementForArguments(plan->sql.data(), plan->sql.size());
  if (!statement.isValid() || !statement.expectArgumentCount(key.size())) return false;
  for (std::size_t i = 0; i < plan->bindOrder.size(); ++i) {
    if (!statement.bind(static_cast<int>(i + 1), key[static_cast<std::size_t>(plan->bindOrder[i])])) return false;
  }
  return stepFirstRecord(statement, out);
}

template <typename T>
bool Database::stepFirstRecord(Statement& statement, std::optional<T>& out) {
  std::optional<T> first;
  try {
    if (!stepRecords<T>(statement, [&first](T&& record) {
          first = std::move(record);
          return false;
        })) {
      return false;
    }
  } catch (const std::bad_alloc&) {
    return failRecord(SQLITE_NOMEM, "out of memory while reading a record");
  }
  out = std::move(first);
  return true;
}

template <typename T>
bool Database::fetchAll(std::vector<T>& out) {
  const RecordPlan* plan = recordPlan<T>(RecordOperation::SelectAll, nullptr, ConflictResolution::Abort);
  if (plan == nullptr) return false;
  try {
    return fetch<T>(plan->sql, std::vector<Value>(), out);
  } catch (const std::bad_alloc&) {
    return failRecord(SQLITE_NOMEM, "out of memory while reading records");
  }
}

template <typename T>
bool Database::fetchAll(const QueryRequest& request, std::vector<T>& out) {
  Statement statement;
  if (!lendRequest(request, statement)) return false;
  return fetchFrom(statement, out);
}

template <typename... Values, typename>
bool Database::execute(const std::string& sql, const Values&... values) noexcept {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  if (!statement.isValid() || !statement.bindValues(values...)) return false;
  for (;;) {
    const StepResult result = statement.step();
    if (result == StepResult::Done) return true;
    if (result == StepResult::Error) return false;
  }
}

template <typename Body, typename... Values, typename>
bool Database::forEachRow(const std::string& sql, Body&& body, const Values&... values) {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  return statement.isValid() && statement.bindValues(values...) && statement.forEachRow(std::forward<Body>(body));
}

}  // namespace sqlitebridge
