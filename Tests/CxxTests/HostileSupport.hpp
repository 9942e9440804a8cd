// Helpers for the hostile-input tests (Hostile*Tests.cpp): names that try to
// become SQL, file modes under a umask, databases to damage, and the peak
// memory of the process.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "TestSupport.hpp"

// Under a sanitizer memory figures say nothing: AddressSanitizer keeps freed
// memory in quarantine, ThreadSanitizer maps shadow memory for what is
// touched.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SQLITEBRIDGE_HOSTILE_SANITIZED 1
#endif
#endif
#if (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)) && !defined(SQLITEBRIDGE_HOSTILE_SANITIZED)
#define SQLITEBRIDGE_HOSTILE_SANITIZED 1
#endif

namespace sqlitebridge_test {

#if defined(SQLITEBRIDGE_HOSTILE_SANITIZED)
constexpr bool kMemoryFiguresAreMeaningful = false;
#else
constexpr bool kMemoryFiguresAreMeaningful = true;
#endif

/// Identifiers written to break out of quoting or a bound value: each must
/// stay a name (never run as SQL). None holds NUL (tested on its own).
inline const std::vector<std::string>& hostileIdentifiers() {
  static const std::vector<std::string> names = {
      "victims; DROP TABLE victims; --",
      "victims\"; DROP TABLE victims; --",
      "victims\"\"; DROP TABLE victims; --",
      "victims'); DROP TABLE victims; --",
      "x' OR '1'='1",
      "victims) UNION SELECT name FROM sqlite_master --",
      "victims]; DROP TABLE victims; --",
      "`victims`; DROP TABLE victims; --",
      "\"victims\"",
      "'victims'",
      "[victims]",
      // A qualified name of a schema that does not hold victims (`main.victims`
      // is victims itself: schema calls accept qualified names).
      "temp.victims",
      "victims /* comment */",
      "victims -- comment",
      "victims\n; DROP TABLE victims",
      "?1",
      ":name",
  };
  return names;
}

/// `identifier` as a quoted SQL identifier, for tests that make tables with
/// hostile names on purpose.
inline std::string quoted(const std::string& identifier) {
  std::string text = "\"";
  for (char c : identifier) {
    if (c == '"') text += '"';
    text += c;
  }
  return text + "\"";
}

/// Sets the process umask for the life of the object.
class UmaskGuard {
 public:
  explicit UmaskGuard(mode_t mask) : previous_(::umask(mask)) {}
  ~UmaskGuard() { ::umask(previous_); }
  UmaskGuard(const UmaskGuard&) = delete;
  UmaskGuard& operator=(const UmaskGuard&) = delete;

 private:
  mode_t previous_;
};

/// The permission bits of the file at `path` (-1 when it cannot be read).
inline int permissionBits(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return -1;
  return static_cast<int>(info.st_mode & 0777);
}

/// Creates a database of many pages at `path`: table `t` (id, payload)
/// holding `rows` rows of 1000 bytes each and an index. Returns the page
/// size.
inline int makeMultiPageDatabase(const std::string& path, int rows = 200) {
  const std::string script =
      "PRAGMA page_size = 4096;"
      "CREATE TABLE t(id INTEGER PRIMARY KEY, payload TEXT NOT NULL);"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
      std::to_string(rows) +
      ") INSERT INTO t(payload) SELECT printf('%04d', i) || substr(hex(zeroblob(500)), 1, 996) FROM n;"
      "CREATE INDEX t_payload ON t(payload);";
  if (!makeDatabaseFile(path, script)) return 0;
  return 4096;
}

/// The resident-set high-water mark of this process in bytes (VmHWM), or -1
/// where /proc/self/status does not report it.
inline std::int64_t peakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return -1;
}

/// The resident set size now in bytes (VmRSS), or -1.
inline std::int64_t residentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return -1;
}

/// Resets the high-water mark to the current resident set (Linux 4.0+:
/// writing 5 to /proc/self/clear_refs); false where that is not possible,
/// and the peak then also counts earlier tests.
inline bool resetPeakResident() {
  std::ofstream clear("/proc/self/clear_refs");
  if (!clear) return false;
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

}  // namespace sqlitebridge_test
