// Records: the one place their SQL is written (planRecord) and their rules
// run (runRecord): which columns an UPDATE sets and which it matches, what
// a missing row is, what `save` does. The C++ record templates
// (Database::insert<T>, ...) and the Swift facade (interop::RecordAccess)
// both come here; they only bind the record's values.
#include <cstdint>
#include <string>
#include <vector>

#include "Connection.hpp"
#include "ConversionFailure.hpp"
#include "SqlText.hpp"
#include "TableHelperSQL.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/interop/Schema.hpp"

namespace sqlitebridge {

namespace {

const char* operationName(RecordOperation operation) noexcept {
  switch (operation) {
    case RecordOperation::Insert:
      return "insert";
    case RecordOperation::Update:
      return "update";
    case RecordOperation::Save:
      return "save";
    case RecordOperation::Delete:
      return "delete";
    case RecordOperation::SelectByKey:
      return "fetch by key";
    case RecordOperation::SelectAll:
      return "fetch all";
  }
  return "record operation";
}

// `"k1" = ? AND "k2" = ?` for the key columns.
bool keyCondition(Connection& connection, const std::vector<std::string>& primaryKey, std::string& sql) {
  for (std::size_t i = 0; i < primaryKey.size(); ++i) {
    std::string column;
    if (!quoted(connection, primaryKey[i], "primary key column name", column)) return false;
    if (i > 0) sql += " AND ";
    sql += column + " = ?";
  }
  return true;
}

// The index in `columns` of `name` (as SQLite matches names: ASCII case
// ignored), or -1.
int columnIndex(const std::vector<std::string>& columns, const std::string& name) noexcept {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (sameIdentifier(columns[i], name)) return static_cast<int>(i);
  }
  return -1;
}

// Fills plan.keyColumns; fails when the record lacks a key column.
bool findKeyColumns(Connection& connection, const std::vector<std::string>& columns, RecordPlan& plan) {
  plan.keyColumns.clear();
  for (const std::string& key : plan.primaryKey) {
    const int index = columnIndex(columns, key);
    if (index < 0) {
      return connection.fail(SQLITE_MISUSE,
                             std::string(operationName(plan.operation)) + " of a record of " +
                                 quoteIdentifier(plan.table) + ": the record has no value for its primary key column " +
                                 quoteIdentifier(key),
                             std::string());
    }
    plan.keyColumns.push_back(index);
  }
  return true;
}

bool updatePlan(Connection& connection, const std::vector<std::string>& columns, RecordPlan& plan) {
  std::string table;
  if (!quoted(connection, plan.table, "table name", table)) return false;
  plan.sql = "UPDATE " + table + " SET ";
  plan.bindOrder.clear();
  bool first = true;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columnIndex(plan.primaryKey, columns[i]) >= 0) continue;
    std::string column;
    if (!quoted(connection, columns[i], "column name", column)) return false;
    if (!first) plan.sql += ", ";
    first = false;
    plan.sql += column + " = ?";
    plan.bindOrder.push_back(static_cast<int>(i));
  }
  if (first) {
    // Only the key: set it to itself, so the UPDATE still tells whether
    // the row exists (SQLite counts every row it matched).
    for (std::size_t i = 0; i < plan.primaryKey.size(); ++i) {
      const std::string column = quoteIdentifier(plan.primaryKey[i]);
      plan.sql += (i > 0 ? ", " : "") + column + " = " + column;
    }
  }
  plan.sql += " WHERE ";
  if (!keyCondition(connection, plan.primaryKey, plan.sql)) return false;
  plan.bindOrder.insert(plan.bindOrder.end(), plan.keyColumns.begin(), plan.keyColumns.end());
  return true;
}

std::vector<int> identityOrder(std::size_t count) {
  std::vector<int> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = static_cast<int>(i);
  return order;
}

}  // namespace

bool Database::planRecord(RecordOperation operation, const std::string& table, const std::vector<std::string>& columns,
                          const std::vector<std::string>& primaryKey, ConflictResolution onConflict,
                          RecordPlan& plan) noexcept {
  if (!beginCall()) return false;
  Connection& connection = *connection_;
  try {
    plan = RecordPlan();
    plan.operation = operation;
    plan.table = table;
    plan.primaryKey = primaryKey;
    const bool needsKey = operation == RecordOperation::Update || operation == RecordOperation::Save ||
                          operation == RecordOperation::Delete || operation == RecordOperation::SelectByKey;
    if (needsKey && primaryKey.empty()) {
      return connection.fail(SQLITE_MISUSE,
                             std::string(operationName(operation)) + " of a record of " + quoteIdentifier(table) +
                                 ": the record type declares no primary key",
                             std::string());
    }
    std::string quotedTable;
    if (!quoted(connection, table, "table name", quotedTable)) return false;
    switch (operation) {
      case RecordOperation::Insert:
        plan.bindOrder = identityOrder(columns.size());
        return insertSQL(connection, table, columns, onConflict, plan.sql);
      case RecordOperation::Update:
        return findKeyColumns(connection, columns, plan) && updatePlan(connection, columns, plan);
      case RecordOperation::Save:
        plan.insertBindOrder = identityOrder(columns.size());
        return findKeyColumns(connection, columns, plan) && updatePlan(connection, columns, plan) &&
               insertSQL(connection, table, columns, onConflict, plan.insertSQL);
      case RecordOperation::Delete:
        if (!findKeyColumns(connection, columns, plan)) return false;
        plan.sql = "DELETE FROM " + quotedTable + " WHERE ";
        plan.bindOrder = plan.keyColumns;
        return keyCondition(connection, primaryKey, plan.sql);
      case RecordOperation::SelectByKey:
        plan.sql = "SELECT * FROM " + quotedTable + " WHERE ";
        plan.bindOrder = identityOrder(primaryKey.size());
        return keyCondition(connection, primaryKey, plan.sql);
      case RecordOperation::SelectAll:
        plan.sql = "SELECT * FROM " + quotedTable;
        return true;
    }
    return connection.fail(SQLITE_MISUSE, "unknown record operation", std::string());
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

bool Database::runRecordStatement(const std::string& sql, const std::vector<int>& order, RecordBinder bind,
                                  void* context) noexcept {
  Statement statement = cachedStatementForArguments(sql.data(), sql.size());
  if (!statement.isValid()) return false;
  if (!statement.expectArgumentCount(order.size())) return false;
  if (!bind(context, &statement, order.data(), order.size())) return false;
  for (;;) {
    const StepResult result = statement.step();
    if (result == StepResult::Done) return true;
    if (result == StepResult::Error) return false;
  }
}

bool Database::runRecordInsert(const std::string& sql, const std::vector<int>& order, RecordBinder bind, void* context,
                               std::int64_t* rowID, bool* inserted) noexcept {
  if (!runRecordStatement(sql, order, bind, context)) return false;
  if (rowID != nullptr) *rowID = interop::TableHelperAccess::insertedRowID(*this);
  if (inserted != nullptr) *inserted = changes() > 0;
  return true;
}

bool Database::failMissingRecord(const RecordPlan& plan, RecordBinder bind, void* context) noexcept {
  Connection& connection = *connection_;
  try {
    // The key values, read back through the binder: `SELECT ?, ...` gives
    // them as the UPDATE saw them.
    std::string select = "SELECT ";
    for (std::size_t i = 0; i < plan.keyColumns.size(); ++i) select += i > 0 ? ", ?" : "?";
    std::string key;
    Statement statement = prepare(select);
    if (statement.isValid() && bind(context, &statement, plan.keyColumns.data(), plan.keyColumns.size()) &&
        statement.step() == StepResult::Row) {
      for (std::size_t i = 0; i < plan.primaryKey.size(); ++i) {
        if (i > 0) key += ", ";
        key += quoteIdentifier(plan.primaryKey[i]) + " = " +
               describeValueForConversion(statement.column(static_cast<int>(i)));
      }
    }
    return connection.fail(SQLITE_NOTFOUND,
                           std::string(operationName(plan.operation)) + " of a record of " +
                               quoteIdentifier(plan.table) + ": no row has the key " + (key.empty() ? "given" : key),
                           plan.sql);
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

bool Database::runRecord(const RecordPlan& plan, RecordBinder bind, void* context, std::int64_t* rowID,
                         bool* changed) noexcept {
  if (rowID != nullptr) *rowID = 0;
  if (changed != nullptr) *changed = false;
  if (!beginCall()) return false;
  if (bind == nullptr) return connection_->fail(SQLITE_MISUSE, "a record needs a binder", std::string());
  switch (plan.operation) {
    case RecordOperation::Insert:
      return runRecordInsert(plan.sql, plan.bindOrder, bind, context, rowID, changed);
    case RecordOperation::Update:
      if (!runRecordStatement(plan.sql, plan.bindOrder, bind, context)) return false;
      if (changes() == 0) return failMissingRecord(plan, bind, context);
      if (changed != nullptr) *changed = true;
      return true;
    case RecordOperation::Save:
      if (!runRecordStatement(plan.sql, plan.bindOrder, bind, context)) return false;
      if (changes() > 0) return true;
      return runRecordInsert(plan.insertSQL, plan.insertBindOrder, bind, context, rowID, changed);
    case RecordOperation::Delete:
      if (!runRecordStatement(plan.sql, plan.bindOrder, bind, context)) return false;
      if (changed != nullptr) *changed = changes() > 0;
      return true;
    case RecordOperation::SelectByKey:
    case RecordOperation::SelectAll:
      break;
  }
  return connection_->fail(
      SQLITE_MISUSE,
      std::string("runRecord runs writes; ") + operationName(plan.operation) + " is a query: step its SQL",
      std::string());
}

bool Database::failRecord(int code, const std::string& message) noexcept {
  if (!connection_) return false;
  return connection_->fail(code, message, std::string());
}

}  // namespace sqlitebridge
