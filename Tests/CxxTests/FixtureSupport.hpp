// Writing the shared fixtures in Tests/Fixtures/ (JSON that both test suites
// read): string literals, and the path of a fixture file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

/// The lines of `text`.
inline std::vector<std::string> textLines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

/// Checks that the fixture `name` holds exactly `generated`, line by line
/// (a test failure per differing line); with SQLITEBRIDGE_WRITE_FIXTURES=1
/// writes it instead.
inline void expectCommittedFixture(const std::string& name, const std::string& generated) {
  const std::string path = fixturePath(name);
  if (writingFixtures()) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << generated;
    return;
  }
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << "cannot read " << path;
  std::ostringstream committed;
  committed << file.rdbuf();
  const std::vector<std::string> expected = textLines(committed.str());
  const std::vector<std::string> actual = textLines(generated);
  for (std::size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    EXPECT_EQ(i < actual.size() ? actual[i] : "<missing>", i < expected.size() ? expected[i] : "<missing>")
        << "line " << i + 1 << " of " << path;
  }
}

}  // namespace sqlitebridge_test
