// Custom collations: Database::createCollation and removeCollation. SQLite
// owns each collation's state (sqlite3_create_collation_v2's xDestroy), so
// replacing, removing and closing release it.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "Connection.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

using Compare = std::function<int(std::string_view, std::string_view)>;

int binaryCompare(std::string_view a, std::string_view b) noexcept {
  const int order = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (order != 0) return order;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

int callCompare(void* state, int aSize, const void* a, int bSize, const void* b) noexcept {
  const std::string_view first(aSize > 0 ? static_cast<const char*>(a) : "", aSize > 0 ? aSize : 0);
  const std::string_view second(bSize > 0 ? static_cast<const char*>(b) : "", bSize > 0 ? bSize : 0);
  try {
    return (*static_cast<Compare*>(state))(first, second);
  } catch (...) {
    // Nothing can fail a comparison: fall back to a consistent order.
    return binaryCompare(first, second);
  }
}

void destroyCompare(void* state) noexcept { delete static_cast<Compare*>(state); }

}  // namespace

bool Database::createCollation(const std::string& name,
                               std::function<int(std::string_view, std::string_view)> compare) noexcept {
  if (!beginCall()) return false;
  Connection& connection = *connection_;
  if (name.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_MISUSE, "a collation name cannot hold a NUL byte", "");
  }
  if (!compare) return connection.fail(SQLITE_MISUSE, "the collation \"" + name + "\" is empty", "");
  Compare* state = nullptr;
  try {
    state = new Compare(std::move(compare));
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", "");
  }
  const int rc =
      sqlite3_create_collation_v2(connection.db, name.c_str(), SQLITE_UTF8, state, callCompare, destroyCompare);
  if (rc != SQLITE_OK) {
    // Unlike functions, SQLite leaves the state to us when it refuses.
    delete state;
    return connection.failFromSQLite(rc, "");
  }
  return true;
}

bool Database::removeCollation(const std::string& name) noexcept {
  if (!beginCall()) return false;
  Connection& connection = *connection_;
  if (name.find('\0') != std::string::npos) {
    return connection.fail(SQLITE_MISUSE, "a collation name cannot hold a NUL byte", "");
  }
  const int rc = sqlite3_create_collation_v2(connection.db, name.c_str(), SQLITE_UTF8, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK || connection.failFromSQLite(rc, "");
}

}  // namespace sqlitebridge
