// For the Swift facade only; no stability promise. Values across the
// boundary: the lists Swift makes and reads (strings, values), SQL
// identifiers as the core compares and quotes them, and the wording of a
// failed typed read. Never included by <sqlitebridge/sqlitebridge.hpp>;
// Swift imports it with the explicit submodule SQLiteBridgeCore.Interop.
// Definitions: Sources/SQLiteBridgeCore/Values/ValueAccess.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"

namespace sqlitebridge::interop {

/// A list of strings (column names, table names, migration identifiers),
/// named so that Swift can make one.
using StringList = std::vector<std::string>;
/// A list of values (a custom function's arguments, a cluster call's
/// arguments), named so that Swift can make and read one.
using ValueList = std::vector<Value>;

/// SQL identifiers as the core compares and quotes them.
struct SQLITEBRIDGE_API Identifiers {
  /// Whether two identifiers (`aSize` and `bSize` bytes of UTF-8) are the
  /// same to SQLite: equal but for ASCII case. Never fails.
  static bool same(const void* a, std::size_t aSize, const void* b, std::size_t bSize) noexcept;
  /// Sets `quoted` to `name` as a double-quoted SQL identifier (`"a""b"` for
  /// `a"b`), so that any name stays a name. False when `name` holds NUL
  /// (SQLite's text would end there), with `problem` saying so, or when
  /// memory runs out (`problem` empty).
  static bool quote(const std::string& name, std::string& quoted, std::string& problem) noexcept;
};

/// The wording of a failed typed read, which the core owns (`RowView::get`
/// and `Row::get` say the same), for the Swift facade's own typed reads.
struct SQLITEBRIDGE_API Conversions {
  /// Sets `message` to `column "v" holds <value>[ <note>], which does not
  /// convert to <typeName>`, the value shown as the core shows it (reals as
  /// SQLite prints them, text cut after 40 bytes on a character boundary,
  /// text that is not valid UTF-8 by its size). False, with `message`
  /// empty, only when memory runs out.
  static bool failureMessage(const std::string& column, const ColumnView& value, const std::string& typeName,
                             const std::string& note, std::string& message) noexcept;
  /// How the same message shows `value` alone (`integer 42`, `real 2.5`,
  /// ...), for messages of the facade's own (such as text that is not
  /// JSON); false, with `shown` empty, only when memory runs out.
  static bool describeValue(const ColumnView& value, std::string& shown) noexcept;
  /// `no column named "x" in the row`; false only when memory runs out.
  static bool missingColumnMessage(const std::string& name, std::string& message) noexcept;
  /// `column index 7 is out of range: the row has 2 column(s)`; false only
  /// when memory runs out.
  static bool columnIndexOutOfRangeMessage(long long index, long long count, std::string& message) noexcept;
};

}  // namespace sqlitebridge::interop
