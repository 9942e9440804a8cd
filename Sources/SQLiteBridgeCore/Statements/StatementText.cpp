#include "sqlitebridge/StatementText.hpp"

#include <new>
#include <string>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

namespace {

// sqlite3_complete reads up to a NUL terminator, so the text is copied into
// a string (which adds one); text holding a NUL is never complete.
bool isComplete(std::string_view text, std::string& buffer) {
  if (text.find('\0') != std::string_view::npos) return false;
  buffer.assign(text.data(), text.size());
  return sqlite3_complete(buffer.c_str()) != 0;
}

}  // namespace

bool isCompleteStatement(std::string_view text) noexcept {
  try {
    std::string buffer;
    return isComplete(text, buffer);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

std::size_t firstStatementEnd(std::string_view text) noexcept {
  try {
    std::string buffer;
    for (std::size_t semicolon = text.find(';'); semicolon != std::string_view::npos;
         semicolon = text.find(';', semicolon + 1)) {
      if (isComplete(text.substr(0, semicolon + 1), buffer)) return semicolon + 1;
    }
  } catch (const std::bad_alloc&) {
  }
  return std::string_view::npos;
}

bool splitStatements(std::string_view text, StatementSplit& split) noexcept {
  try {
    split.statements.clear();
    std::size_t start = 0;
    for (;;) {
      const std::size_t length = firstStatementEnd(text.substr(start));
      if (length == std::string_view::npos) break;
      split.statements.emplace_back(text.substr(start, length));
      start += length;
    }
    split.rest.assign(text.substr(start));
    return true;
  } catch (const std::bad_alloc&) {
    split.statements.clear();
    split.rest.clear();
    return false;
  }
}

}  // namespace sqlitebridge
