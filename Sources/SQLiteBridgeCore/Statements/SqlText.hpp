// Small helpers for SQL text the core writes or inspects. Internal (this
// header is not installed), but exported from a shared core: the cluster
// library (Sources/SQLiteBridgeClusterCore) calls them too.
#pragma once

#include <string>
#include <string_view>

#include "sqlitebridge/Export.hpp"

namespace sqlitebridge {

/// `identifier` as a double-quoted SQL identifier ("a""b" for a"b), so any
/// name, however hostile, stays a name.
SQLITEBRIDGE_API std::string quoteIdentifier(const std::string& identifier);
/// `text` as a single-quoted SQL string literal ('it''s' for it's).
SQLITEBRIDGE_API std::string quoteStringLiteral(const std::string& text);

/// Whether two identifiers are the same to SQLite: equal but for ASCII case.
SQLITEBRIDGE_API bool sameIdentifier(std::string_view a, std::string_view b) noexcept;
/// `identifier` with ASCII letters lowered: two names are the same
/// identifier (`sameIdentifier`) exactly when their folded forms are equal.
SQLITEBRIDGE_API std::string foldIdentifier(std::string_view identifier);
/// Whether `name` starts with `sqlite_` in any ASCII case: the prefix SQLite
/// keeps for its own tables (sqlite_schema, sqlite_sequence, sqlite_stat1…).
SQLITEBRIDGE_API bool isSQLiteReservedName(std::string_view name) noexcept;

/// Position of the first character at or after `from` that is not
/// whitespace, a semicolon or a comment; `sql.size()` when only those remain.
/// A NUL byte is never skipped, not even inside a comment (SQLite's text
/// ends there), so text after one is never taken for comment.
SQLITEBRIDGE_API std::size_t skipIgnorable(std::string_view sql, std::size_t from) noexcept;

/// At most `limit` characters of `sql` starting at `from`, with "..." when
/// cut, for error messages.
SQLITEBRIDGE_API std::string excerpt(std::string_view sql, std::size_t from, std::size_t limit = 60);

}  // namespace sqlitebridge
