// For the Swift facade only; no stability promise. The cluster client
// (`ClusterDatabase`) and node (`ClusterNode`) as the Swift facade calls
// them, and the row and value lists their calls fill. Swift imports it with
// the explicit submodule SQLiteBridgeCore.Interop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "Values.hpp"

namespace sqlitebridge::interop {

/// The rows a call returned whole (a cluster result), named so that Swift
/// can make one and read it in place.
using RowList = std::vector<Row>;
/// The members of a cluster, named so that Swift can make the list
/// `ClusterDatabase::members` fills.
using ClusterMemberList = std::vector<ClusterMember>;

/// `ClusterDatabase` and `ClusterNode` for the Swift facade: every rule
/// (the retry rules, refusals, guards, conversions, the wording of errors)
/// is theirs; these entry points only give Swift the shapes it can call, and
/// each is `noexcept` (the members that are not report memory running out
/// as SQLITE_NOMEM instead of throwing).
struct SQLITEBRIDGE_API ClusterAccess {
  /// A write block's body as Swift gives it: true to commit, false (the
  /// Swift error kept by the caller) to roll back.
  using WriteBody = bool (*)(void* context);

  /// `database.execute(sql, arguments, &rows)`: same failures, reported in
  /// `lastError`.
  static bool execute(ClusterDatabase& database, const std::string& sql, const ValueList& arguments,
                      RowList& rows) noexcept;
  /// `database.runWriteBlock` calling `body(context)` as the block (which
  /// may run more than once, as `ClusterDatabase::write` says). True when
  /// COMMIT succeeded; otherwise false with `error` saying why.
  static bool write(ClusterDatabase& database, WriteBody body, void* context, Error& error) noexcept;
  /// `database.lastError()`; SQLITE_NOMEM (without a message) when it
  /// cannot be copied.
  static Error lastError(const ClusterDatabase& database) noexcept;
  /// `database.leaderAddress()`; empty when not connected (or when memory
  /// runs out).
  static std::string leaderAddress(const ClusterDatabase& database) noexcept;
  /// Sets `names` to `database.lastColumnNames()`; false (`names` empty)
  /// only when memory runs out.
  static bool lastColumnNames(const ClusterDatabase& database, StringList& names) noexcept;
  /// `node.address()`; empty when not running (or when memory runs out).
  static std::string nodeAddress(const ClusterNode& node) noexcept;

  /// Appends a value to `values` (text and blobs copied from `size` bytes at
  /// `bytes`, NUL bytes kept: the client refuses text holding one); false
  /// only when memory runs out.
  static bool appendNull(ValueList& values) noexcept;
  static bool appendInteger(ValueList& values, std::int64_t integer) noexcept;
  static bool appendReal(ValueList& values, double real) noexcept;
  static bool appendText(ValueList& values, const void* bytes, std::size_t size) noexcept;
  static bool appendBlob(ValueList& values, const void* bytes, std::size_t size) noexcept;

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
};
}  // namespace sqlitebridge::interop
