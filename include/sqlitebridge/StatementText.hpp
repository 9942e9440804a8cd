#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "Export.hpp"

namespace sqlitebridge {

/// SQL text cut where SQLite ends its statements (see `splitStatements`).
struct StatementSplit {
  /// The complete statements, in order, each ending with the `;` that
  /// completes it (a piece may be only filler before its `;`, as in `;;`).
  std::vector<std::string> statements;
  /// What follows the last complete statement: only whitespace and comments,
  /// or the start of a statement not finished yet.
  std::string rest;
};

/// True when `text` ends with a complete statement by SQLite's rule
/// (`sqlite3_complete`): its last `;` ends a statement, not a string
/// literal, a quoted name, a comment or a trigger body (`BEGIN … END;`).
/// False for text that is only whitespace and comments, and for text
/// holding a NUL byte (SQLite's text ends there). Says nothing about
/// whether the statement is valid SQL.
SQLITEBRIDGE_API bool isCompleteStatement(std::string_view text) noexcept;

/// Where the first complete statement of `text` ends: the offset just past
/// the first `;` that completes a statement (see `isCompleteStatement`), or
/// `std::string_view::npos` when no `;` does.
SQLITEBRIDGE_API std::size_t firstStatementEnd(std::string_view text) noexcept;

/// Cuts `text` at every `;` that completes a statement, as a shell that
/// reads statements line by line does: `split.statements` gets the
/// statements, `split.rest` what follows the last one. The pieces together
/// are `text`, byte for byte. A NUL byte ends nothing (the rest holds it).
/// Returns false, with `split` cleared, only when memory runs out.
SQLITEBRIDGE_API bool splitStatements(std::string_view text, StatementSplit& split) noexcept;

}  // namespace sqlitebridge
