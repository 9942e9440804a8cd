#pragma once

#include <string>

#include "Export.hpp"
#include "ColumnDecoder.hpp"
#include "ColumnLookup.hpp"
#include "Row.hpp"
#include "Statement.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// The current row of a running statement, read in place: nothing is copied
/// until asked for. Valid only until the statement steps again, resets or
/// is destroyed — inside a `forEachRow` body, for instance. `copy()` makes a
/// `Row` that may outlive it.
class SQLITEBRIDGE_API RowView {
 public:
  /// A view of `statement`'s current row.
  explicit RowView(const Statement& statement) noexcept : statement_(&statement), size_(statement.columnCount()) {}
  /// A view of `statement`'s current row whose reads by name go through
  /// `lookup` (see `ColumnLookup`; call its `startRow()` first). A null
  /// `lookup` searches every time, as the constructor above.
  RowView(const Statement& statement, ColumnLookup* lookup) noexcept
      : statement_(&statement),
        size_(lookup != nullptr ? lookup->columnCount(statement) : statement.columnCount()),
        lookup_(lookup) {}

  /// Number of columns.
  int size() const noexcept { return size_; }
  /// The name SQL gives column `index`; empty when out of range.
  std::string columnName(int index) const noexcept { return statement_->columnName(index); }
  /// Index of the leftmost column named `name` (ASCII case-insensitive), or
  /// -1 when there is none.
  int columnIndex(const std::string& name) const noexcept;
  /// Column `index`, borrowed (see `Statement::column`); NULL when out of
  /// range.
  SQLITEBRIDGE_INLINE ColumnView column(int index) const noexcept { return statement_->column(index); }
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
    return decode(index, out);
  }
  /// Reads the leftmost column named `name` (case-insensitive) into `out`;
  /// fails as `get(int, T&)` does, and with SQLITE_RANGE when no column has
  /// that name.
  template <typename T>
  SQLITEBRIDGE_INLINE bool get(const std::string& name, T& out) const {
    const int index = indexOf(name);
    if (index < 0) return failMissingColumn(name);
    return get(index, out);
  }
  /// `get(name, out)` for a name written in place (`row.get("title",
  /// title)`): with a `ColumnLookup`, a name it remembers is not copied into
  /// a `std::string` first. The name ends at its first NUL.
  template <typename T, std::size_t N>
  SQLITEBRIDGE_INLINE bool get(const char (&name)[N], T& out) const {
    if (lookup_ != nullptr) {
      const int index = lookup_->recall(name, std::char_traits<char>::length(name));
      if (index >= 0) {
        lookup_->advance();
        return decode(index, out);  // found in this row's columns: in range
      }
    }
    return getNamed(name, out);
  }

 private:
  friend class Statement;
  // A view of a statement known to have `size` columns (forEachRow reads
  // the count once per run, not once per row).
  RowView(const Statement& statement, int size) noexcept : statement_(&statement), size_(size) {}
  bool failMissingColumn(const std::string& name) const noexcept;
  // `get(index, out)` for an index known to be in range.
  template <typename T>
  SQLITEBRIDGE_INLINE bool decode(int index, T& out) const {
    // The statement is valid: a view of an invalid one has no columns.
    if (ColumnDecoder<T>::decode(Statement::readColumn(statement_->stmt_, index), out)) return true;
    return statement_->failConversion(index, DecodedTypeName<T>::value());
  }
  // `get(const char (&)[N], T&)` without a remembered answer, out of line
  // so that the inlined hits stay small.
  template <typename T>
  __attribute__((noinline)) bool getNamed(const char* name, T& out) const {
    return get(std::string(name), out);
  }
  // columnIndex, through the lookup when there is one.
  SQLITEBRIDGE_INLINE int indexOf(const std::string& name) const noexcept {
    if (lookup_ == nullptr) return columnIndex(name);
    int index = lookup_->recall(name);
    if (index != ColumnLookup::kUnknown) {
      lookup_->advance();
      return index;
    }
    index = columnIndex(name);
    lookup_->remember(name, index);
    return index;
  }

  const Statement* statement_;
  int size_;  // read once per row, not once per get
  ColumnLookup* lookup_ = nullptr;
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
