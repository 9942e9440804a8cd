// Using SQLiteBridge vendored into a CMake project (FetchContent or
// add_subdirectory; see CMakeLists.txt): writes rows into an in-memory
// database, reads them back and checks them. Exits with status 1 on any
// mismatch.
#include <sqlitebridge/sqlitebridge.hpp>

#include <cstdint>
#include <iostream>
#include <string>

namespace sb = sqlitebridge;

int main() {
  int failures = 0;
  auto expect = [&](bool condition, const char* what) {
    if (!condition) {
      std::cerr << "cpp-subdirectory-consumer: expected " << what << '\n';
      ++failures;
    }
  };

  sb::Database db = sb::Database::open(":memory:");
  expect(db.isOpen(), "the database to open");
  expect(db.execute("CREATE TABLE t(n INTEGER NOT NULL, word TEXT)"), "CREATE TABLE to succeed");
  for (std::int64_t n = 1; n <= 10; ++n) {
    expect(db.execute("INSERT INTO t(n, word) VALUES (?, ?)", n, "w" + std::to_string(n)), "INSERT to succeed");
  }

  std::int64_t sum = 0;
  std::string last;
  expect(db.forEachRow("SELECT n, word FROM t ORDER BY n",
                       [&](const sb::RowView& row) {
                         std::int64_t n = 0;
                         const bool ok = row.get(0, n) && row.get(1, last);
                         sum += n;
                         return ok;
                       }),
         "SELECT to succeed");
  expect(sum == 55, "the sum of n to be 55");
  expect(last == "w10", "the last word to be w10");

  expect(!db.execute("INSERT INTO t(n) VALUES (NULL)"), "a NOT NULL violation to fail");
  expect(db.lastError().is(sb::ResultCode::Constraint), "the failure to be SQLITE_CONSTRAINT");

  if (failures != 0) return 1;
  std::cout << "cpp-subdirectory-consumer: all checks passed\n";
  return 0;
}
