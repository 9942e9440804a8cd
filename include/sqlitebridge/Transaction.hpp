#pragma once

#include <string>

#include "Export.hpp"

namespace sqlitebridge {

class Database;

/// How a transaction takes its locks (SQLite's BEGIN DEFERRED, IMMEDIATE,
/// EXCLUSIVE): DEFERRED waits for the first read or write, IMMEDIATE takes
/// the write lock at once (other writers wait, up to the busy timeout),
/// EXCLUSIVE also keeps readers out (rollback-journal mode).
enum class TransactionKind { Deferred, Immediate, Exclusive };

/// A transaction for the lifetime of this object: rolls back in its
/// destructor unless committed or rolled back first. Must not outlive its
/// `Database`. Move-less and copy-less: it belongs to one scope.
class SQLITEBRIDGE_API Transaction {
 public:
  /// Begins a transaction of `kind`; when that fails (one is already open,
  /// the database is busy past its timeout, or closed), `isActive()` is
  /// false and `db.lastError()` says why.
  explicit Transaction(Database& db, TransactionKind kind = TransactionKind::Deferred) noexcept;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  /// Rolls back when still active, keeping the database's last error as it
  /// was (the failure that made the caller leave is not overwritten).
  ~Transaction();

  /// True between a successful begin and commit or rollback.
  bool isActive() const noexcept;
  /// Commits. False with `db.lastError()` set when it fails; a failed COMMIT
  /// (SQLITE_BUSY past the timeout, say) leaves the transaction open and the
  /// connection usable: commit again or roll back. SQLITE_MISUSE when not
  /// active.
  bool commit() noexcept;
  /// Rolls back. SQLITE_MISUSE when not active.
  bool rollback() noexcept;

 private:
  Database& db_;
  bool active_ = false;
};

/// A savepoint for the lifetime of this object: rolls back to and releases
/// itself in its destructor unless released or rolled back first. Outside a
/// transaction, a savepoint is one (released = committed). Must not outlive
/// its `Database`.
class SQLITEBRIDGE_API Savepoint {
 public:
  /// Opens a savepoint called `name` (quoted: any name is just a name; ""
  /// picks a unique one). A name holding NUL fails with SQLITE_MISUSE.
  explicit Savepoint(Database& db, const std::string& name = "") noexcept;
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  /// Rolls back to and releases the savepoint when still active, keeping
  /// the database's last error as it was.
  ~Savepoint();

  /// True between a successful open and release or rollback.
  bool isActive() const noexcept;
  /// Releases the savepoint, keeping its changes (committing them when it
  /// was the outermost). SQLITE_MISUSE when not active.
  bool release() noexcept;
  /// Rolls back to the savepoint and releases it. SQLITE_MISUSE when not
  /// active.
  bool rollback() noexcept;

 private:
  Database& db_;
  std::string name_;
  bool active_ = false;
};

}  // namespace sqlitebridge
