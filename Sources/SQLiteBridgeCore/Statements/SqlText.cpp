#include "SqlText.hpp"

namespace sqlitebridge {

std::string quoteIdentifier(const std::string& identifier) {
  std::string quoted;
  quoted.reserve(identifier.size() + 2);
  quoted += '"';
  for (char c : identifier) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

std::string quoteStringLiteral(const std::string& text) {
  std::string quoted;
  quoted.reserve(text.size() + 2);
  quoted += '\'';
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  quoted += '\'';
  return quoted;
}

bool sameIdentifier(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string foldIdentifier(std::string_view identifier) {
  std::string folded(identifier);
  for (char& c : folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return folded;
}

bool isSQLiteReservedName(std::string_view name) noexcept {
  return name.size() >= 7 && sameIdentifier(name.substr(0, 7), "sqlite_");
}

std::size_t skipIgnorable(std::string_view sql, std::size_t from) noexcept {
  std::size_t i = from;
  const std::size_t n = sql.size();
  while (i < n) {
    const char c = sql[i];
    // SQLite's whitespace: space, tab, newline, vertical tab, form feed, CR.
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ';') {
      ++i;
    } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      while (i < n && sql[i] != '\n' && sql[i] != '\0') ++i;
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      // An unterminated block comment runs to the end, as in SQLite; for
      // SQLite the text ends at a NUL byte, so a comment does too, and the
      // NUL (with whatever follows it) is never skipped as comment text.
      const std::size_t close = sql.find("*/", i + 2);
      const std::size_t nul = sql.find('\0', i + 2);
      if (nul != std::string_view::npos && (close == std::string_view::npos || nul < close)) {
        i = nul;
      } else {
        i = close == std::string_view::npos ? n : close + 2;
      }
    } else {
      break;
    }
  }
  return i;
}

std::string excerpt(std::string_view sql, std::size_t from, std::size_t limit) {
  if (from >= sql.size()) return std::string();
  std::string text(sql.substr(from, limit));
  if (sql.size() - from > limit) text += "...";
  return text;
}

}  // namespace sqlitebridge
