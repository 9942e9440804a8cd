#pragma once

#include <string>

#include "ColumnDecoder.hpp"
#include "Row.hpp"
#include "Statement.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// The current row of a running statement, read in place: nothing is copied
/// until asked for. Valid only until the statement steps again, resets or
/// is destroyed — inside a `forEachRow` body, for instance. `copy()` makes a
/// `Row` that may outlive it.
class RowView {
 public:
  /// A view of `statement`'s current row.
  explicit RowView(const Statement& statement) noexcept : statement_(&statement), size_(statement.columnCount()) {}

  /// Number of columns.
  int size() const noexcept { return size_; }
  /// The name SQL gives column `index`; empty when out of range.
  std::string columnName(int index) const noexcept { return statement_->columnName(index); }
  /// Index of the leftmost column named `name` (ASCII case-insensitive), or
  /// -1 when there is none.
  int columnIndex(const std::string& name) const noexcept;
  /// Column `index`, borrowed (see `Statement::column`); NULL when out of
  /// range.
  ColumnView column(int index) const noexcept { return statement_->column(index); }
  /// Column `index`, copied; NULL when out of range.
  Value value(int index) const noexcept { return statement_->columnValue(index); }
  /// The leftmost column named `name` (case-insensitive), copied; NULL when
  /// there is none.
  Value value(const std::string& name) const noexcept;
  /// True when column `index` is NULL (or out of range).
  bool isNull(int index) const noexcept { return column(index).type == ValueType::Null; }
  /// The whole row, copied.
  Row copy() const noexcept { return statement_->row(); }

  /// Reads column `index` into `out` with the exact conversions of
  /// `ColumnDecoder`. On failure `out` is unchanged and the database's
  /// `lastError()` is SQLITE_MISMATCH (or SQLITE_RANGE for a bad index),
  /// naming the column and its value.
  template <typename T>
  SQLITEBRIDGE_INLINE bool get(int index, T& out) const {
    if (index < 0 || index >= size()) {
      return statement_->failConversion(index, DecodedTypeName<T>::value());
    }
    // The statement is valid: a view of an invalid one has no columns.
    if (ColumnDecoder<T>::decode(Statement::readColumn(statement_->stmt_, index), out)) return true;
    return statement_->failConversion(index, DecodedTypeName<T>::value());
  }
  /// Reads the leftmost column named `name` (case-insensitive) into `out`;
  /// fails as `get(int, T&)` does, and with SQLITE_RANGE when no column has
  /// that name.
  template <typename T>
  bool get(const std::string& name, T& out) const {
    const int index = columnIndex(name);
    if (index < 0) return failMissingColumn(name);
    return get(index, out);
  }

 private:
  friend class Statement;
  // A view of a statement known to have `size` columns (forEachRow reads
  // the count once per run, not once per row).
  RowView(const Statement& statement, int size) noexcept : statement_(&statement), size_(size) {}
  bool failMissingColumn(const std::string& name) const noexcept;

  const Statement* statement_;
  int size_;  // read once per row, not once per get
};

template <typename Body>
bool Statement::forEachRow(Body&& body) {
  clearError();
  int columns = -1;  // read after the first step: a re-prepare may change it
  for (;;) {
    const StepResult result = step();
    if (result == StepResult::Done) return !hasError();
    if (result == StepResult::Error) return false;
    if (columns < 0) columns = columnCount();
    const RowView row(*this, columns);
    if constexpr (std::is_same_v<std::invoke_result_t<Body&, const RowView&>, bool>) {
      if (!body(row)) return !hasError();
    } else {
      body(row);
    }
  }
}

}  // namespace sqlitebridge
