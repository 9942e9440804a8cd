// The oldest SQLite the core runs on (see SQLiteMinimum.hpp), and
// interop::OpeningTesting (interop/Testing.hpp), which lets the Swift tests
// check the message.
#include "SQLiteMinimum.hpp"

#include "sqlitebridge/interop/Testing.hpp"

// The sqlite3.h the core compiles with (kMinimumSQLiteVersionNumber).
#if SQLITE_VERSION_NUMBER < 3037000
#error \
    "SQLiteBridge needs SQLite 3.37.0 or newer, and this sqlite3.h is older: build a current engine with scripts/build-engine sqlite (or scripts/build-engine sqlcipher for the encrypted build)"
#endif

namespace sqlitebridge {

namespace {

std::string versionText(int number) {
  return std::to_string(number / 1000000) + "." + std::to_string(number / 1000 % 1000) + "." +
         std::to_string(number % 1000);
}

}  // namespace

std::string sqliteVersionProblem(int versionNumber) {
  if (versionNumber >= kMinimumSQLiteVersionNumber) return std::string();
  return "SQLiteBridge needs SQLite " + versionText(kMinimumSQLiteVersionNumber) +
         " or newer, but the SQLite library loaded is " + versionText(versionNumber) +
         " (compiled with sqlite3.h " SQLITE_VERSION "): link a current SQLite or SQLCipher";
}

bool checkSQLiteVersion(Connection& connection) noexcept {
  const int loaded = sqlite3_libversion_number();
  if (loaded >= kMinimumSQLiteVersionNumber) return true;
  try {
    return connection.fail(SQLITE_ERROR, sqliteVersionProblem(loaded), std::string());
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

namespace interop {

bool OpeningTesting::sqliteVersionProblem(int versionNumber, std::string& message) noexcept {
  try {
    message = sqlitebridge::sqliteVersionProblem(versionNumber);
    return true;
  } catch (...) {
    message.clear();
    return false;
  }
}

}  // namespace interop

}  // namespace sqlitebridge
