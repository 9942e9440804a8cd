// Helpers shared by the GoogleTest suite: fresh temporary directories, file
// bytes, raw sqlite3 access for comparing against SQLite itself, and
// snapshots of a database's schema and rows.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlitebridge/sqlitebridge.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace sqlitebridge_test {

namespace fs = std::filesystem;

/// A new, empty directory under the system temporary directory, removed
/// (with everything in it) when the object goes away.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/sqlitebridge-test-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp failed for " << pattern;
      return;
    }
    path_ = buffer.data();
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    // A test may have made a directory unwritable; removal needs it writable.
    for (auto it = fs::recursive_directory_iterator(path_, ignored); it != fs::recursive_directory_iterator();
         it.increment(ignored)) {
      if (it->is_directory(ignored)) fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ignored);
    }
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  /// `<dir>/<name>`.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  /// Makes and returns the subdirectory `<dir>/<name>`.
  std::string makeSubdirectory(const std::string& name) const {
    const std::string sub = *this / name;
    fs::create_directory(sub);
    return sub;
  }

 private:
  std::string path_;
};

/// Sets the working directory for the life of the object.
class WorkingDirectory {
 public:
  explicit WorkingDirectory(const std::string& path) : previous_(fs::current_path()) { fs::current_path(path); }
  ~WorkingDirectory() {
    std::error_code ignored;
    fs::current_path(previous_, ignored);
  }
  WorkingDirectory(const WorkingDirectory&) = delete;
  WorkingDirectory& operator=(const WorkingDirectory&) = delete;

 private:
  fs::path previous_;
};

/// A fixture with a temporary root holding `docs/` (the documents
/// directory) and `bundle/`, for tests that open databases by name.
class DocumentsAndBundle : public ::testing::Test {
 protected:
  void SetUp() override {
    docs_ = root_.makeSubdirectory("docs");
    bundle_ = root_.makeSubdirectory("bundle");
  }
  sqlitebridge::Location location() const { return sqlitebridge::Location{docs_, bundle_}; }
  /// `docs/<name>` and `bundle/<name>`.
  std::string docs(const std::string& name) const { return docs_ + "/" + name; }
  std::string bundle(const std::string& name) const { return bundle_ + "/" + name; }

  TempDir root_;
  std::string docs_;
  std::string bundle_;
};

/// The whole content of a file ("" when it cannot be read).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Replaces the content of a file.
inline void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline bool fileExists(const std::string& path) {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0;
}

/// Names of every entry in `directory` (hidden ones included), sorted.
inline std::vector<std::string> listDirectory(const std::string& directory) {
  std::vector<std::string> names;
  std::error_code ignored;
  for (auto it = fs::directory_iterator(directory, ignored); it != fs::directory_iterator(); it.increment(ignored)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// Creates (or opens) the database file at `path` with the raw C API and
/// runs `script` in it. Returns false (with a test failure) on any error.
inline bool makeDatabaseFile(const std::string& path, const std::string& script) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "cannot create " << path << ": " << sqlite3_errmsg(db);
    sqlite3_close(db);
    return false;
  }
  char* message = nullptr;
  const bool ok = sqlite3_exec(db, script.c_str(), nullptr, nullptr, &message) == SQLITE_OK;
  if (!ok) ADD_FAILURE() << "script failed in " << path << ": " << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
  return ok;
}

/// Text rendering of a value that keeps its storage class, for comparing
/// whole tables in one assertion.
inline std::string describe(const sqlitebridge::Value& value) {
  using sqlitebridge::ValueType;
  std::ostringstream out;
  switch (value.type()) {
    case ValueType::Null:
      return "NULL";
    case ValueType::Integer:
      out << "int:" << value.asInteger();
      return out.str();
    case ValueType::Real:
      out.precision(17);
      out << "real:" << value.asReal();
      return out.str();
    case ValueType::Text:
      return "text:" + value.asText();
    case ValueType::Blob: {
      out << "blob:";
      for (std::uint8_t byte : value.asBlob()) out << std::hex << static_cast<int>(byte) << ' ';
      return out.str();
    }
  }
  return "?";
}

/// Whether `text` holds `part` (for error messages).
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Each row rendered as "col=value|col=value".
inline std::vector<std::string> rowLines(const std::vector<sqlitebridge::Row>& rows) {
  std::vector<std::string> lines;
  for (const sqlitebridge::Row& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += "|";
      line += row.columnName(i) + "=" + describe(row.value(i));
    }
    lines.push_back(line);
  }
  return lines;
}

/// Every row `sql` returns, each rendered as `rowLines` renders it.
inline std::vector<std::string> dump(sqlitebridge::Database& db, const std::string& sql) {
  std::vector<sqlitebridge::Row> rows;
  EXPECT_TRUE(db.execute(sql, &rows)) << db.error() << " in " << sql;
  return rowLines(rows);
}

/// The schema (every sqlite_schema row) in a stable order.
inline std::vector<std::string> schemaOf(sqlitebridge::Database& db) {
  return dump(db, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name");
}

/// The schema plus every row of the listed tables (ordered by rowid), for
/// checking that a failed operation left the database exactly as it was.
inline std::vector<std::string> snapshot(sqlitebridge::Database& db, const std::vector<std::string>& tables) {
  std::vector<std::string> lines = schemaOf(db);
  for (const std::string& table : tables) {
    lines.push_back("-- table " + table);
    for (std::string& line : dump(db, "SELECT rowid AS _rowid_, * FROM \"" + table + "\" ORDER BY rowid")) {
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

/// Switches `db` to WAL mode; a fatal test failure when SQLite refuses (call
/// it inside ASSERT_NO_FATAL_FAILURE).
inline void switchToWal(sqlitebridge::Database& db) {
  sqlitebridge::Row mode;
  ASSERT_TRUE(db.execute("PRAGMA journal_mode = WAL", mode)) << db.error();
  ASSERT_EQ(mode.value(0).asText(), "wal");
}

/// Creates the database at `path` in WAL mode and runs `createSQL` on it,
/// then closes it; a fatal test failure when any step fails.
inline void makeWalDatabase(const std::string& path, const std::string& createSQL) {
  sqlitebridge::Database setup = sqlitebridge::Database::open(path);
  ASSERT_TRUE(setup.isOpen()) << setup.error();
  ASSERT_NO_FATAL_FAILURE(switchToWal(setup));
  ASSERT_TRUE(setup.executeScript(createSQL)) << setup.error();
}

/// An observation's fetch of the single integer `sql` returns: false with
/// the statement's error in `*error` when it fails ("no row" when it
/// returns none), for the observation to judge (it drops a fetch that its
/// cancel interrupted and reports any other failure), where `scalarInteger`
/// would fail the test.
inline bool fetchInteger(sqlitebridge::Database& db, const std::string& sql, std::int64_t& value,
                         sqlitebridge::Error* error) {
  sqlitebridge::Row row;
  if (!db.execute(sql, row)) {
    if (error != nullptr) *error = db.lastError();
    return false;
  }
  if (row.empty()) {  // the statement returned no row: the test is wrong
    if (error != nullptr) *error = sqlitebridge::Error{SQLITE_ERROR, SQLITE_ERROR, "no row", sql};
    return false;
  }
  value = row.value(0).asInteger();
  return true;
}

/// The single integer `sql` returns (a test failure and -1 otherwise).
inline std::int64_t scalarInteger(sqlitebridge::Database& db, const std::string& sql) {
  sqlitebridge::Row row;
  if (!db.execute(sql, row)) {
    ADD_FAILURE() << db.error() << " in " << sql;
    return -1;
  }
  if (row.size() != 1) {
    ADD_FAILURE() << sql << " returned " << row.size() << " columns";
    return -1;
  }
  return row.value(0).asInteger();
}

/// The single text `sql` returns.
inline std::string scalarText(sqlitebridge::Database& db, const std::string& sql) {
  sqlitebridge::Row row;
  if (!db.execute(sql, row)) {
    ADD_FAILURE() << db.error() << " in " << sql;
    return std::string();
  }
  return row.value(0).asText();
}

/// True when the tests run as root, for whom file permissions do not stop
/// writes.
inline bool runningAsRoot() { return ::geteuid() == 0; }

}  // namespace sqlitebridge_test
