// The SQLite library the core runs on: `Database::sqliteVersion` and
// `Database::compileOptions` (and their Swift-facing forms).
#include <string>
#include <vector>

#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/interop/Interop.hpp"

namespace sqlitebridge {

std::string Database::sqliteVersion() { return sqlite3_libversion(); }

std::vector<std::string> Database::compileOptions() {
  std::vector<std::string> options;
  // The list `PRAGMA compile_options` reads, without a connection.
  for (int i = 0;; ++i) {
    const char* option = sqlite3_compileoption_get(i);
    if (option == nullptr) break;
    options.emplace_back(option);
  }
  return options;
}

namespace interop {

bool HookAccess::sqliteVersion(std::string& version) noexcept {
  try {
    version = Database::sqliteVersion();
    return true;
  } catch (...) {
    version.clear();
    return false;
  }
}

bool HookAccess::compileOptions(StringList& options) noexcept {
  try {
    options = Database::compileOptions();
    return true;
  } catch (...) {
    options.clear();
    return false;
  }
}

}  // namespace interop

}  // namespace sqlitebridge
