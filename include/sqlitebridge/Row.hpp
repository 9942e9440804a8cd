#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "Export.hpp"
#include "ColumnDecoder.hpp"
#include "Error.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// One result row: its values in SQL order, each with its column name as the
/// SQL names it (the alias if there is one). Duplicate names are all kept.
/// Rows of one query share a single list of column names.
class SQLITEBRIDGE_API Row {
 public:
  /// A row with no columns.
  Row() noexcept = default;
  /// A row of `values` named by `columnNames` (which must be as long).
  Row(std::shared_ptr<const std::vector<std::string>> columnNames, std::vector<Value> values) noexcept
      : names_(std::move(columnNames)), values_(std::move(values)) {}

  /// Number of columns.
  std::size_t size() const noexcept { return values_.size(); }
  /// True when the row has no columns.
  bool empty() const noexcept { return values_.empty(); }
  /// The name of column `index`; empty when `index` is out of range.
  std::string columnName(std::size_t index) const;
  /// The value of column `index`; NULL when `index` is out of range.
  Value value(std::size_t index) const;
  /// Whether a column is named `name`, compared ASCII case-insensitively as
  /// SQLite compares identifiers.
  bool hasColumn(const std::string& name) const noexcept;
  /// The value of the leftmost column named `name` (case-insensitive); NULL
  /// when there is none (use `hasColumn` to tell the two apart).
  Value value(const std::string& name) const;
  /// Index of the leftmost column named `name` (case-insensitive), or -1.
  long columnIndex(const std::string& name) const noexcept;

  /// All values, in column order.
  const std::vector<Value>& values() const noexcept { return values_; }

  /// Reads column `index` into `out` exactly, with the rules and messages of
  /// `RowView::get` (`ColumnDecoder`): a conversion happens only when it
  /// loses nothing. On failure `out` is unchanged, false is returned, and
  /// `*error` (when given) is `ResultCode::Mismatch` naming the column, its
  /// value and the type, or `ResultCode::Range` for an index out of range.
  /// (The `Value::as…` readers are lossy: text "12abc" reads as 12.)
  template <typename T>
  bool get(std::size_t index, T& out, Error* error = nullptr) const {
    if (index < values_.size() && ColumnDecoder<T>::decode(values_[index].view(), out)) return true;
    return failConversion(index, DecodedTypeName<T>::value(), error);
  }
  /// Reads the leftmost column named `name` (ASCII case-insensitive) into
  /// `out`; fails as `get(index, out, error)` does, and with
  /// `ResultCode::Range` when no column has that name.
  template <typename T>
  bool get(const std::string& name, T& out, Error* error = nullptr) const {
    const long index = columnIndex(name);
    if (index < 0) return failMissingColumn(name, error);
    return get(static_cast<std::size_t>(index), out, error);
  }

 private:
  bool failConversion(std::size_t index, const char* typeName, Error* error) const noexcept;
  static bool failMissingColumn(const std::string& name, Error* error) noexcept;

  std::shared_ptr<const std::vector<std::string>> names_;
  std::vector<Value> values_;
};

}  // namespace sqlitebridge
