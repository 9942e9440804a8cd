// The SQLite library the core runs on: `Database::sqliteVersion` and
// `Database::compileOptions` (and their Swift-facing forms).
#include <string>
#include <vector>

#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/interop/Opening.hpp"

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

namespace {

// `out = make()`, for the noexcept Swift-facing forms: false, with `out`
// emptied, when memory runs out.
template <typename Out, typename Make>
bool assignOrClear(Out& out, Make make) noexcept {
  try {
    out = make();
    return true;
  } catch (...) {
    out.clear();
    return false;
  }
}

}  // namespace

bool LibraryInfo::sqliteVersion(std::string& version) noexcept {
  return assignOrClear(version, [] { return Database::sqliteVersion(); });
}

bool LibraryInfo::compileOptions(StringList& options) noexcept {
  return assignOrClear(options, [] { return Database::compileOptions(); });
}

}  // namespace interop

}  // namespace sqlitebridge
