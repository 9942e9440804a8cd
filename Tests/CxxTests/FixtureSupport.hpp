// Writing the shared fixtures in Tests/Fixtures/ (JSON that both test suites
// read): string literals, and the path of a fixture file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace sqlitebridge_test {

/// The path of `name` in Tests/Fixtures/ (the build defines the folder).
inline std::string fixturePath(const std::string& name) { return std::string(SQLITEBRIDGE_FIXTURES_DIR) + "/" + name; }

/// Whether the test should (re)write its fixture instead of checking it
/// (SQLITEBRIDGE_WRITE_FIXTURES=1).
inline bool writingFixtures() {
  const char* flag = std::getenv("SQLITEBRIDGE_WRITE_FIXTURES");
  return flag != nullptr && std::string(flag) == "1";
}

/// Whether `text` is well-formed UTF-8.
inline bool isValidUtf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    std::uint32_t codePoint = 0;
    if (lead < 0x80) {
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      codePoint = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      codePoint = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      codePoint = lead & 0x07;
    } else {
      return false;
    }
    if (text.size() - i < length) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      codePoint = (codePoint << 6) | (next & 0x3F);
    }
    const std::uint32_t smallest = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (codePoint < smallest || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

// A JSON string literal. UTF-8 passes through; text that is not valid UTF-8
// (which no case stores, and which no message should hold) is escaped byte by
// byte so that the file stays valid JSON, and the caller reports it.
inline std::string jsonString(const std::string& text) {
  const bool valid = isValidUtf8(text);
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (byte < 0x20 || byte == 0x7F || (!valid && byte >= 0x80)) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace sqlitebridge_test
