// Writing the shared fixtures in Tests/Fixtures/ (JSON that both test suites
// read): string literals, and the path of a fixture file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sqlitebridge/interop/Interop.hpp>
#include <sqlitebridge/interop/Testing.hpp>

namespace sqlitebridge_test {

/// The path of `name` in Tests/Fixtures/ (the build defines the folder).
inline std::string fixturePath(const std::string& name) { return std::string(SQLITEBRIDGE_FIXTURES_DIR) + "/" + name; }

/// Whether the test should (re)write its fixture instead of checking it
/// (SQLITEBRIDGE_WRITE_FIXTURES=1).
inline bool writingFixtures() {
  const char* flag = std::getenv("SQLITEBRIDGE_WRITE_FIXTURES");
  return flag != nullptr && std::string(flag) == "1";
}

/// Whether `text` is well-formed UTF-8 (the core's rule).
inline bool isValidUtf8(const std::string& text) {
  return sqlitebridge::interop::ValueTesting::isValidUTF8(text.data(), text.size());
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
