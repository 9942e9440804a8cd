#include <cctype>
#include <climits>
#include <new>
#include <string>

#include "ChangesetAccess.hpp"
#include "Connection.hpp"
#include "SQLiteValue.hpp"

namespace sqlitebridge {

int ChangesetIterator::start(const void* bytes, std::size_t size) noexcept {
  finish();
  if (size > static_cast<std::size_t>(INT_MAX)) return SQLITE_TOOBIG;
  return sqlite3changeset_start(&iterator_, static_cast<int>(size), const_cast<void*>(bytes));
}

int ChangesetIterator::finish() noexcept {
  if (iterator_ == nullptr) return SQLITE_OK;
  const int rc = sqlite3changeset_finalize(iterator_);
  iterator_ = nullptr;
  return rc;
}

namespace {

// The values `read` (sqlite3changeset_old or _new) gives for `count`
// columns: a column without one (SQLite's null pointer) is nullopt.
int readValues(sqlite3_changeset_iter* iterator, int count, int (*read)(sqlite3_changeset_iter*, int, sqlite3_value**),
               std::vector<std::optional<Value>>& out) {
  out.clear();
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    sqlite3_value* value = nullptr;
    const int rc = read(iterator, i, &value);
    if (rc != SQLITE_OK) return rc;
    if (value == nullptr) {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(valueOf(value));
    }
  }
  return SQLITE_OK;
}

}  // namespace

bool readOperation(sqlite3_changeset_iter* iterator, ChangesetOperation& out, Error* error) noexcept {
  const char* table = nullptr;
  int columns = 0;
  int op = 0;
  int indirect = 0;
  int rc = sqlite3changeset_op(iterator, &table, &columns, &op, &indirect);
  if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "reading a change");
  unsigned char* primaryKey = nullptr;
  int primaryKeyColumns = 0;
  rc = sqlite3changeset_pk(iterator, &primaryKey, &primaryKeyColumns);
  if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "reading a change's primary key");
  try {
    out.table = table != nullptr ? table : "";
    out.kind = op == SQLITE_INSERT ? ChangeKind::Insert : op == SQLITE_UPDATE ? ChangeKind::Update : ChangeKind::Delete;
    out.isIndirect = indirect != 0;
    out.primaryKey.assign(static_cast<std::size_t>(primaryKeyColumns), false);
    for (int i = 0; i < primaryKeyColumns; ++i) out.primaryKey[static_cast<std::size_t>(i)] = primaryKey[i] != 0;
    out.oldValues.clear();
    out.newValues.clear();
    if (op != SQLITE_INSERT) rc = readValues(iterator, columns, sqlite3changeset_old, out.oldValues);
    if (rc == SQLITE_OK && op != SQLITE_DELETE) rc = readValues(iterator, columns, sqlite3changeset_new, out.newValues);
  } catch (const std::bad_alloc&) {
    rc = SQLITE_NOMEM;
  }
  return rc == SQLITE_OK || changesetCallFailure(error, rc, "reading a change's values");
}

bool takeSQLiteBuffer(void* buffer, int size, std::string& out, Error* error) noexcept {
  bool taken = true;
  try {
    out.assign(static_cast<const char*>(buffer), buffer != nullptr && size > 0 ? static_cast<std::size_t>(size) : 0);
  } catch (const std::bad_alloc&) {
    taken = changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  sqlite3_free(buffer);
  return taken;
}

void ChangesetAccess::restoreError(Database& db, const Error& error) noexcept {
  if (!db.connection_) return;
  try {
    db.connection_->error = error;
  } catch (const std::bad_alloc&) {
    db.connection_->error.code = db.connection_->error.extendedCode = SQLITE_NOMEM;
  }
}

bool sameTableName(const std::string& a, const char* b) noexcept {
  std::size_t i = 0;
  for (; i < a.size() && b[i] != '\0'; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return i == a.size() && b[i] == '\0';
}

bool isLibraryTable(const char* table) noexcept {
  static const char kPrefix[] = "sqlitebridge_";
  for (std::size_t i = 0; kPrefix[i] != '\0'; ++i) {
    if (table == nullptr || std::tolower(static_cast<unsigned char>(table[i])) != kPrefix[i]) return false;
  }
  return true;
}

bool fitsSQLiteSize(std::size_t size, Error* error) noexcept {
  return size <= static_cast<std::size_t>(INT_MAX) ||
         changesetFailure(error, SQLITE_TOOBIG, "the changeset is larger than SQLite's 2 GiB limit");
}

bool changesetCallFailure(Error* error, int code, const char* what) noexcept {
  if (error == nullptr) return false;
  try {
    std::string message = std::string(what) + ": " + sqlite3_errstr(code);
    if ((code & 0xff) == SQLITE_CORRUPT) message += " (the bytes are not a valid changeset)";
    return changesetFailure(error, code, message);
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
