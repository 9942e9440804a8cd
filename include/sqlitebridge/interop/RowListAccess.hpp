// For the Swift facade only; no stability promise. Lists of rows a call
// returned whole (read in place by the facade's row decoder) and the value
// lists a call takes as arguments, for any caller that hands Swift whole
// results (the cluster client does). Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "Values.hpp"

namespace sqlitebridge::interop {

/// The rows a call returned whole, named so that Swift can make one and
/// read it in place.
using RowList = std::vector<Row>;

/// Reading a `RowList` and filling a `ValueList` from Swift. Each entry point
/// is `noexcept`: the ones that allocate report memory running out by their
/// return value instead of throwing.
struct SQLITEBRIDGE_API RowListAccess {
  /// How many rows `rows` holds.
  static std::size_t rowCount(const RowList& rows) noexcept { return rows.size(); }
  /// How many columns its rows have (0 without rows).
  static std::size_t columnCount(const RowList& rows) noexcept { return rows.empty() ? 0 : rows.front().size(); }
  /// The name of column `column` (empty when out of range or out of
  /// memory).
  static std::string columnName(const RowList& rows, std::size_t column) noexcept;
  /// Column `column` of row `row` (both in range), read in place: its bytes
  /// live as long as `rows` is neither changed nor destroyed.
  static ColumnView column(const RowList& rows, std::size_t row, std::size_t column) noexcept {
    return rows[row].values()[column].view();
  }

  /// Appends a value to `values` (text and blobs copied from `size` bytes at
  /// `bytes`, NUL bytes kept: whoever runs the values decides what a NUL in
  /// text means); false only when memory runs out.
  static bool appendNull(ValueList& values) noexcept;
  static bool appendInteger(ValueList& values, std::int64_t integer) noexcept;
  static bool appendReal(ValueList& values, double real) noexcept;
  static bool appendText(ValueList& values, const void* bytes, std::size_t size) noexcept;
  static bool appendBlob(ValueList& values, const void* bytes, std::size_t size) noexcept;
};

}  // namespace sqlitebridge::interop
