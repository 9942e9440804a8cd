#include "SQLiteFeatures.hpp"

#include <algorithm>

namespace sqlitebridge {

namespace {

// The first SQLite release with `feature`, as SQLITE_VERSION_NUMBER counts.
int firstVersion(SQLiteFeature feature) noexcept {
  switch (feature) {
    case SQLiteFeature::TableXinfo:
      return 3026000;
    case SQLiteFeature::TableList:
      return 3037000;
    case SQLiteFeature::OpenNoFollow:
      return 3031000;
    case SQLiteFeature::AuthorizerReadsOfTables:
      return 3019000;
  }
  return 0;
}

std::string versionText(int number) {
  return std::to_string(number / 1000000) + "." + std::to_string(number / 1000 % 1000) + "." +
         std::to_string(number % 1000);
}

}  // namespace

bool hasSQLiteFeature(SQLiteFeature feature) noexcept {
  const int needed = firstVersion(feature);
  return SQLITE_VERSION_NUMBER >= needed && sqlite3_libversion_number() >= needed;
}

std::string missingFeatureMessage(SQLiteFeature feature, const std::string& what) {
  const int running = std::min(SQLITE_VERSION_NUMBER, sqlite3_libversion_number());
  std::string message = what + " needs SQLite \u2265 " + versionText(firstVersion(feature)) +
                        "; this build runs on SQLite " + versionText(running);
#if defined(SQLITEBRIDGE_SQLCIPHER)
  message += " (SQLCipher)";
#endif
  return message;
}

bool failMissingFeature(Connection& connection, SQLiteFeature feature, const std::string& what) noexcept {
  try {
    return connection.fail(SQLITE_ERROR, missingFeatureMessage(feature, what), std::string());
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

}  // namespace sqlitebridge
