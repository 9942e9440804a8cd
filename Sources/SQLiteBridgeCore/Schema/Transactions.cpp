// Transactions and savepoints: Database's begin/commit/rollback and savepoint
// calls, the two steps every scoped transaction takes (beginScope,
// finishScope: the one owner of their sequencing, for C++'s inTransaction
// and inSavepoint and for the Swift facade), user_version, and the RAII
// Transaction and Savepoint.
#include <atomic>
#include <cstdint>

#include "Connection.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

const char* beginSQL(TransactionKind kind) noexcept {
  switch (kind) {
    case TransactionKind::Immediate:
      return "BEGIN IMMEDIATE";
    case TransactionKind::Exclusive:
      return "BEGIN EXCLUSIVE";
    case TransactionKind::Deferred:
      break;
  }
  return "BEGIN DEFERRED";
}

}  // namespace

bool Database::runControl(const std::string& sql) noexcept { return execute(sql); }

bool Database::begin(TransactionKind kind) noexcept { return runControl(beginSQL(kind)); }

bool Database::commit() noexcept { return beginCall() && prepareToCommit(*this, *connection_) && runControl("COMMIT"); }

bool Database::rollback() noexcept { return runControl("ROLLBACK"); }

namespace {

// "<verb> <quoted name>", or false with SQLITE_MISUSE for a name holding NUL
// (SQLite's text would end there).
bool savepointSQL(Connection& connection, const char* verb, const std::string& name, std::string& sql) noexcept {
  try {
    if (name.find('\0') != std::string::npos) {
      return connection.fail(SQLITE_MISUSE, "the savepoint name holds a NUL byte", std::string());
    }
    sql = std::string(verb) + " " + quoteIdentifier(name);
    return true;
  } catch (...) {
    return connection.fail(SQLITE_NOMEM, "out of memory", std::string());
  }
}

}  // namespace

bool Database::savepoint(const std::string& name) noexcept {
  std::string sql;
  return beginCall() && savepointSQL(*connection_, "SAVEPOINT", name, sql) && runControl(sql);
}

bool Database::releaseSavepoint(const std::string& name) noexcept {
  std::string sql;
  return beginCall() && savepointSQL(*connection_, "RELEASE SAVEPOINT", name, sql) && runControl(sql);
}

bool Database::rollbackToSavepoint(const std::string& name) noexcept {
  std::string sql;
  return beginCall() && savepointSQL(*connection_, "ROLLBACK TO SAVEPOINT", name, sql) && runControl(sql);
}

std::string Database::uniqueSavepointName() noexcept {
  static std::atomic<std::uint64_t> counter{0};
  try {
    return "sqlitebridge_savepoint_" + std::to_string(++counter);
  } catch (...) {
    return std::string();
  }
}

bool Database::beginScope(TransactionKind kind, bool asSavepoint, std::string& savepointName) noexcept {
  savepointName.clear();
  if (!beginCall()) return false;
  if (!asSavepoint && !isInTransaction()) return begin(kind);
  savepointName = uniqueSavepointName();
  if (savepointName.empty()) return connection_->fail(SQLITE_NOMEM, "out of memory", std::string());
  return savepoint(savepointName);
}

bool Database::finishScope(bool commit, const std::string& savepointName) noexcept {
  if (!beginCall()) return false;
  if (savepointName.empty()) {
    if (commit) {
      if (this->commit()) return true;
      // A failed COMMIT leaves the transaction open: roll back, keeping why.
      const Error failure = connection_->error;
      rollback();
      connection_->error = failure;
      return false;
    }
    // Rolled back as asked: not a failure, so the error is clear after.
    return !isInTransaction() || rollback();
  }
  if (commit) {
    if (releaseSavepoint(savepointName)) return true;
    const Error failure = connection_->error;
    rollbackToSavepoint(savepointName);
    releaseSavepoint(savepointName);
    connection_->error = failure;
    return false;
  }
  return rollbackToSavepoint(savepointName) && releaseSavepoint(savepointName);
}

bool Database::userVersion(std::int64_t& version) noexcept {
  Row row;
  if (!execute("PRAGMA user_version", row)) return false;
  version = row.value(0).asInteger();
  return true;
}

bool Database::setUserVersion(std::int64_t version) noexcept {
  if (!beginCall()) return false;
  if (version < INT32_MIN || version > INT32_MAX) {
    return connection_->fail(SQLITE_RANGE,
                             "user_version holds a 32-bit signed integer; " + std::to_string(version) + " does not fit",
                             std::string());
  }
  return runControl("PRAGMA user_version = " + std::to_string(version));
}

// MARK: Transaction

Transaction::Transaction(Database& db, TransactionKind kind) noexcept : db_(db), active_(db.begin(kind)) {}

Transaction::~Transaction() {
  if (!active_ || !db_.isOpen() || !db_.isInTransaction()) return;
  const Error kept = db_.connection_->error;
  db_.rollback();
  db_.connection_->error = kept;
}

bool Transaction::isActive() const noexcept { return active_; }

bool Transaction::commit() noexcept {
  if (!active_) return db_.connection_ && db_.connection_->fail(SQLITE_MISUSE, "the transaction is not active", "");
  if (db_.commit()) {
    active_ = false;
    return true;
  }
  active_ = db_.isInTransaction();  // a failed COMMIT leaves it open
  return false;
}

bool Transaction::rollback() noexcept {
  if (!active_) return db_.connection_ && db_.connection_->fail(SQLITE_MISUSE, "the transaction is not active", "");
  const bool ok = db_.rollback();
  active_ = db_.isInTransaction();
  return ok;
}

// MARK: Savepoint

Savepoint::Savepoint(Database& db, const std::string& name) noexcept : db_(db) {
  try {
    name_ = name.empty() ? db.uniqueSavepointName() : name;
  } catch (...) {
    name_.clear();
  }
  active_ = !name_.empty() && db.savepoint(name_);
}

Savepoint::~Savepoint() {
  if (!active_ || !db_.isOpen()) return;
  const Error kept = db_.connection_->error;
  db_.rollbackToSavepoint(name_);
  db_.releaseSavepoint(name_);
  db_.connection_->error = kept;
}

bool Savepoint::isActive() const noexcept { return active_; }

bool Savepoint::release() noexcept {
  if (!active_) return db_.connection_ && db_.connection_->fail(SQLITE_MISUSE, "the savepoint is not active", "");
  if (!db_.releaseSavepoint(name_)) return false;
  active_ = false;
  return true;
}

bool Savepoint::rollback() noexcept {
  if (!active_) return db_.connection_ && db_.connection_->fail(SQLITE_MISUSE, "the savepoint is not active", "");
  if (!db_.rollbackToSavepoint(name_) || !db_.releaseSavepoint(name_)) return false;
  active_ = false;
  return true;
}

}  // namespace sqlitebridge
