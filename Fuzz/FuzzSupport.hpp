// Helpers shared by the libFuzzer targets in this directory (built by
// scripts/fuzz, not by CMake): invariant checks that abort with a message
// (so libFuzzer saves a reproducer), a reader that splits the input into
// fields, and the hardening that keeps hostile SQL from running long,
// growing huge or touching files outside the database.
#pragma once

#include <sqlitebridge/sqlitebridge.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace fuzz {

// MARK: Invariants

/// Reports a broken invariant and aborts: libFuzzer treats the abort as a
/// crash and writes the input as a reproducer.
[[noreturn]] inline void fail(const char* file, int line, const char* condition, const char* format, ...) {
  std::fprintf(stderr, "\n==== FUZZ INVARIANT BROKEN at %s:%d: %s\n", file, line, condition);
  std::va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}

#define FUZZ_CHECK(condition, ...) ((condition) ? (void)0 : ::fuzz::fail(__FILE__, __LINE__, #condition, __VA_ARGS__))

/// `text` with control and non-ASCII bytes escaped, cut to `limit` bytes, for
/// messages.
inline std::string printable(const std::string& text, std::size_t limit = 200) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

/// The error contract every call shares: a failing call leaves a non-zero
/// code (its primary code in the low byte of the extended one) and a
/// message; a successful one leaves code 0 and no message.
inline void checkErrorContract(const sqlitebridge::Database& db, bool ok, const char* call, const std::string& sql) {
  const sqlitebridge::Error error = db.lastError();
  if (ok) {
    FUZZ_CHECK(error.code == 0 && error.extendedCode == 0 && error.message.empty(),
               "%s succeeded but lastError() is code %d/%d \"%s\" (sql \"%s\")", call, error.code, error.extendedCode,
               printable(error.message).c_str(), printable(sql).c_str());
  } else {
    FUZZ_CHECK(error.code != 0, "%s failed with lastError() code 0 (sql \"%s\")", call, printable(sql).c_str());
    FUZZ_CHECK((error.extendedCode & 0xff) == error.code, "%s failed with code %d but extended code %d", call,
               error.code, error.extendedCode);
    FUZZ_CHECK(!error.message.empty(), "%s failed with code %d and no message (sql \"%s\")", call, error.code,
               printable(sql).c_str());
  }
}

// MARK: Reading the input

/// Consumes the fuzzer's bytes front to back; past the end everything reads
/// as zero / empty, so any input is a valid one.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return offset_ >= size_; }
  std::size_t remaining() const { return empty() ? 0 : size_ - offset_; }

  std::uint8_t byte() { return empty() ? 0 : data_[offset_++]; }
  /// Up to `count` bytes, little-endian, into an unsigned 64-bit integer.
  std::uint64_t bits(std::size_t count) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < count && i < 8; ++i) value |= static_cast<std::uint64_t>(byte()) << (8 * i);
    return value;
  }
  /// Exactly `count` bytes (fewer at the end).
  std::string bytes(std::size_t count) {
    const std::size_t n = count < remaining() ? count : remaining();
    std::string out(reinterpret_cast<const char*>(data_ + offset_), n);
    offset_ += n;
    return out;
  }
  /// Everything up to (not including) the next `separator` byte, which is
  /// consumed; the rest of the input when there is none.
  std::string until(std::uint8_t separator) {
    std::string out;
    while (!empty()) {
      const std::uint8_t c = data_[offset_++];
      if (c == separator) break;
      out += static_cast<char>(c);
    }
    return out;
  }
  std::string rest() { return bytes(remaining()); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t offset_ = 0;
};

// MARK: Hardening against hostile SQL

/// Progress-handler budget shared by every hardened connection: each call
/// the harness makes starts with `resetBudget()`, and a statement that runs
/// past the budget is interrupted (SQLITE_INTERRUPT), so no input can loop.
inline long& budgetUsed() {
  static long used = 0;
  return used;
}
constexpr int kProgressOps = 100;        // VM instructions per progress callback
constexpr long kBudgetCallbacks = 2000;  // so about 200,000 instructions per call
inline void resetBudget() { budgetUsed() = 0; }
inline int progress(void*) { return ++budgetUsed() > kBudgetCallbacks ? 1 : 0; }

inline bool equalsIgnoringCase(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return false;
  for (; *a != '\0' && *b != '\0'; ++a, ++b) {
    char x = *a, y = *b;
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return *a == *b;
}

/// Denies what would let SQL escape the database: attaching files (which
/// also stops VACUUM INTO), changing global or resource settings, and the
/// functions that load code or take raw pointers.
inline int authorize(void*, int action, const char* first, const char* second, const char*, const char*) {
  switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      return SQLITE_DENY;
    case SQLITE_PRAGMA: {
      static const char* const kDenied[] = {
          "temp_store",      "temp_store_directory", "data_store_directory", "max_page_count",  "page_size",
          "mmap_size",       "cache_size",           "soft_heap_limit",      "hard_heap_limit", "threads",
          "writable_schema", "schema_version",       "analysis_limit"};
      if (second == nullptr) return SQLITE_OK;  // reading a setting is harmless
      for (const char* denied : kDenied) {
        if (equalsIgnoringCase(first, denied)) return SQLITE_DENY;
      }
      return SQLITE_OK;
    }
    case SQLITE_FUNCTION:
      if (equalsIgnoringCase(second, "load_extension") || equalsIgnoringCase(second, "fts3_tokenizer")) {
        return SQLITE_DENY;
      }
      return SQLITE_OK;
    default:
      return SQLITE_OK;
  }
}

/// Puts limits on a connection the fuzzer drives with hostile SQL. `maxLength`
/// bounds every string, blob and row (so a result of many rows stays small).
inline void harden(sqlite3* db, int maxLength = 5000, bool limitPages = true) {
  if (db == nullptr) return;
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, maxLength);
  sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 20000);
  sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 100);
  sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, 20000);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 200);
  sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 20);
  sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 10);
  sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, 16);
  sqlite3_limit(db, SQLITE_LIMIT_COLUMN, 200);
  sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, 1000);
  sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_progress_handler(db, kProgressOps, progress, nullptr);
  // Before the authorizer, which forbids changing these afterwards. Temporary
  // tables and indexes stay in memory, never in a temporary file; a database
  // cannot grow past 2000 pages (8 MB). (Setting the page limit reads the
  // file, which a connection being opened may not want yet.)
  sqlite3_exec(db, "PRAGMA temp_store = MEMORY", nullptr, nullptr, nullptr);
  if (limitPages) sqlite3_exec(db, "PRAGMA max_page_count = 2000", nullptr, nullptr, nullptr);
  sqlite3_set_authorizer(db, authorize, nullptr);
}

/// A new in-memory database, hardened, with `schema` run on it and the
/// progress budget reset: where every input of a target starts.
inline sqlitebridge::Database openFuzzDatabase(const char* schema) {
  sqlitebridge::Database db = sqlitebridge::Database::open(":memory:");
  FUZZ_CHECK(db.isOpen(), "cannot open an in-memory database: %s", db.error().c_str());
  harden(db.handle());
  resetBudget();
  FUZZ_CHECK(sqlite3_exec(db.handle(), schema, nullptr, nullptr, nullptr) == SQLITE_OK, "schema: %s",
             sqlite3_errmsg(db.handle()));
  return db;
}

/// Process-wide limits, for LLVMFuzzerInitialize: SQLite's own heap stays
/// below 256 MB (allocations past it fail with SQLITE_NOMEM).
inline void hardenProcess() { sqlite3_hard_heap_limit64(256LL * 1024 * 1024); }

// MARK: Looking at a database from the outside

/// Runs `sql` on the raw handle and returns every row, each rendered as
/// "type:value|type:value" with exact bytes (hex for blobs, %a for reals),
/// or "ERROR <code> <message>" when it fails. The budget is reset first.
inline std::vector<std::string> rawRows(sqlite3* db, const std::string& sql) {
  resetBudget();
  std::vector<std::string> lines;
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::string line;
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        if (i > 0) line += "|";
        char buffer[64];
        switch (sqlite3_column_type(stmt, i)) {
          case SQLITE_NULL:
            line += "NULL";
            break;
          case SQLITE_INTEGER:
            std::snprintf(buffer, sizeof buffer, "int:%lld", static_cast<long long>(sqlite3_column_int64(stmt, i)));
            line += buffer;
            break;
          case SQLITE_FLOAT:
            std::snprintf(buffer, sizeof buffer, "real:%a", sqlite3_column_double(stmt, i));
            line += buffer;
            break;
          case SQLITE_TEXT: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
            line += "text:" + std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, i)));
            break;
          }
          default: {
            const auto* blob = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, i));
            const int n = sqlite3_column_bytes(stmt, i);
            line += "blob:";
            for (int j = 0; j < n; ++j) {
              std::snprintf(buffer, sizeof buffer, "%02x", blob[j]);
              line += buffer;
            }
          }
        }
      }
      lines.push_back(line);
    }
  }
  if (rc != SQLITE_DONE) lines.push_back("ERROR " + std::to_string(rc) + " " + sqlite3_errmsg(db) + " in " + sql);
  sqlite3_finalize(stmt);
  return lines;
}

/// The whole database: every schema row, then every row of every table
/// (with its rowid when it has one, sorted), for checking
/// that a failed call changed nothing.
inline std::vector<std::string> snapshot(sqlite3* db) {
  std::vector<std::string> lines = rawRows(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name");
  for (const std::string& table : rawRows(
           db,
           "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")) {
    const std::string name = table.substr(5);  // "text:"
    std::string quoted = "\"";
    for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    quoted += "\"";
    lines.push_back("-- " + name);
    // With the rowid when the table has one; sorted, so order never matters.
    std::vector<std::string> rows = rawRows(db, "SELECT rowid, * FROM " + quoted);
    if (!rows.empty() && rows.back().compare(0, 6, "ERROR ") == 0) rows = rawRows(db, "SELECT * FROM " + quoted);
    std::sort(rows.begin(), rows.end());
    for (std::string& row : rows) lines.push_back(std::move(row));
  }
  return lines;
}

/// The first line where `a` and `b` differ, for messages.
inline std::string firstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (std::size_t i = 0; i < a.size() || i < b.size(); ++i) {
    const std::string x = i < a.size() ? a[i] : "<none>";
    const std::string y = i < b.size() ? b[i] : "<none>";
    if (x != y)
      return "line " + std::to_string(i) + ": before \"" + printable(x) + "\", after \"" + printable(y) + "\"";
  }
  return "none";
}

}  // namespace fuzz
