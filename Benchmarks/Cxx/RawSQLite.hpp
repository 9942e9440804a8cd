// The baseline: the sqlite3 C API called directly from C++, opened with the
// same flags as SQLiteBridge's connections (READWRITE | CREATE | NOMUTEX).
#pragma once

// <sqlite3.h> as the core sees it (declared nothrow, which SQLite is), so
// both sides call the very same declarations.
#include "sqlitebridge/SQLite.hpp"

#include <string>

#include "Harness.hpp"

namespace bench {

/// A raw connection; throws BenchmarkFailure on any failure (a benchmark
/// with a broken setup must not report numbers).
class RawConnection {
 public:
  explicit RawConnection(const std::string& path) {
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw BenchmarkFailure("cannot open " + path + ": " + message);
    }
  }
  ~RawConnection() { sqlite3_close(db_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  sqlite3* handle() const noexcept { return db_; }

  /// A prepared statement; the caller finalizes it.
  sqlite3_stmt* prepare(const std::string& sql) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK || statement == nullptr) {
      throw BenchmarkFailure("cannot prepare " + sql + ": " + sqlite3_errmsg(db_));
    }
    return statement;
  }

  void exec(const std::string& sql) const {
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
      throw BenchmarkFailure("cannot run " + sql + ": " + sqlite3_errmsg(db_));
    }
  }

 private:
  sqlite3* db_ = nullptr;
};

/// Finalizes a statement when it goes out of scope.
struct Finalizer {
  sqlite3_stmt* statement;
  ~Finalizer() { sqlite3_finalize(statement); }
};

}  // namespace bench
