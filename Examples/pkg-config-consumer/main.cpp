// Using SQLiteBridge from C++ through pkg-config, with no CMake at all:
//
//   c++ -std=c++17 main.cpp $(pkg-config --cflags --libs sqlitebridge)
//
// (build.sh does that). Opens a database file in a fresh temporary
// directory, writes rows three ways (execute with values, a prepared
// statement, a transaction), reads them back and checks every result.
// Prints each mismatch on stderr and exits with status 1 if there was any,
// so building and running it is a test of the installed library.
#include <sqlitebridge/sqlitebridge.hpp>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <stdlib.h>  // mkdtemp (POSIX)

namespace sb = sqlitebridge;

namespace {

int failures = 0;

void expect(bool condition, const char* what, int line) {
  if (!condition) {
    std::cerr << "pkg-config-consumer: line " << line << ": expected " << what << '\n';
    ++failures;
  }
}
#define EXPECT(condition) expect((condition), #condition, __LINE__)

}  // namespace

int main() {
  char pattern[] = "/tmp/sqlitebridge-pkg-config-XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    std::cerr << "pkg-config-consumer: cannot make a temporary directory\n";
    return 1;
  }
  const std::filesystem::path dir(pattern);
  const std::string path = (dir / "notes.db").string();
  {
    sb::Database db = sb::Database::open(path);
    EXPECT(db.isOpen());
    EXPECT(db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, stars REAL)"));

    // execute with C++ values (bound inline by the header code)...
    EXPECT(db.execute("INSERT INTO notes(title, stars) VALUES (?, ?)", std::string("first"), 4.5));
    EXPECT(db.lastInsertRowId() == 1);

    // ...a prepared statement, stepped by hand...
    sb::Statement insert = db.prepare("INSERT INTO notes(title, stars) VALUES (?1, NULL)");
    EXPECT(insert.isValid());
    EXPECT(insert.bindText(1, "second"));
    EXPECT(insert.step() == sb::StepResult::Done);

    // ...and a transaction that is rolled back, leaving nothing.
    {
      sb::Transaction transaction(db);
      EXPECT(db.execute("INSERT INTO notes(title) VALUES (?)", std::string("never")));
      EXPECT(transaction.rollback());
    }

    // A constraint failure is an error value, not an exception.
    EXPECT(!db.execute("INSERT INTO notes(title) VALUES (NULL)"));
    EXPECT(db.lastError().is(sb::ResultCode::Constraint));
    EXPECT(std::string(sb::describe(db.lastError().resultCode())) == "SQLITE_CONSTRAINT");
  }

  // Read back through a second connection: what was written is on disk.
  sb::Database db = sb::Database::open(path);
  std::vector<sb::Row> rows;
  EXPECT(db.execute("SELECT id, title, stars FROM notes ORDER BY id", &rows));
  EXPECT(rows.size() == 2);
  if (rows.size() == 2) {
    EXPECT(rows[0].value("title").asText() == "first");
    EXPECT(rows[0].value("stars") == sb::Value(4.5));
    EXPECT(rows[1].value(std::size_t{0}) == sb::Value(2));
    EXPECT(rows[1].value("title").asText() == "second");
    EXPECT(rows[1].value("stars").isNull());
  }
  std::int64_t count = -1;
  EXPECT(db.forEachRow("SELECT count(*) FROM notes WHERE title = ?", {sb::Value("never")},
                       [&](const sb::RowView& row) { return row.get(0, count); }));
  EXPECT(count == 0);

  db.close();
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  if (failures != 0) {
    std::cerr << "pkg-config-consumer: " << failures << " check(s) failed\n";
    return 1;
  }
  std::cout << "pkg-config-consumer: all checks passed (SQLite " << sqlite3_libversion() << ")\n";
  return 0;
}
