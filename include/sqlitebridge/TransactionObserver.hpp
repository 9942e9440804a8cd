// Transaction observers: told of the changes a connection's transactions
// make, able to veto a commit, and told how each transaction ended.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "Error.hpp"
#include "Tracing.hpp"

namespace sqlitebridge {

class Database;

/// How long `Database::add` keeps an observer.
enum class ObserverExtent {
  /// While the observer lives: the database holds it weakly (a
  /// `std::weak_ptr`; Swift: a weak reference) and forgets it once it is
  /// gone.
  ObserverLifetime,
  /// Until the next transaction ends (commits or rolls back), held strongly
  /// meanwhile.
  NextTransaction,
  /// While the connection is open, held strongly.
  DatabaseLifetime,
};

/// One changed row, as `TransactionObserver::databaseDidChange` is told.
struct DatabaseEvent {
  /// What happened to the row.
  ChangeKind kind = ChangeKind::Insert;
  /// The table, as SQLite names it in its schema.
  std::string table;
  /// The row's rowid (after the change, for an update that moves it).
  std::int64_t rowID = 0;
};

/// An observer of one connection's transactions (`Database::add`).
///
/// Every callback is made on the thread that runs the writing statement, on
/// that connection. `observes` and `databaseDidChange` are called inside
/// SQLite's callbacks (while a statement is prepared or runs) and must not
/// use the database; `databaseWillCommit` is called as the commit starts,
/// also inside SQLite, and must not use it either. `databaseDidCommit` and
/// `databaseDidRollback` are called after the transaction ended, outside
/// SQLite's callbacks, with the connection: they may read and write it (a
/// write there starts a transaction of its own). A C++ exception thrown by a
/// callback is caught and dropped, except from `databaseWillCommit`, where
/// it vetoes the commit.
class TransactionObserver {
 public:
  virtual ~TransactionObserver() = default;
  /// Whether the observer wants to hear of changes of `kind` to `table`
  /// (`updatedColumns`: the columns an UPDATE sets; empty for inserts and
  /// deletes). Asked when a statement that may make such changes is prepared
  /// or runs; an observer that answers false for everything a transaction
  /// does is not told of it (no `databaseDidChange`, no end callbacks).
  /// A `DELETE FROM t` without WHERE deletes row by row (no truncation) while
  /// an observer wants deletions of `t`, so that each is reported.
  virtual bool observes(ChangeKind kind, const std::string& table, const std::vector<std::string>& updatedColumns) = 0;
  /// One row changed in a rowid table the observer observes. Not called for
  /// WITHOUT ROWID tables, schema changes, rows a REPLACE conflict deletes,
  /// or changes announced by `Database::notifyChanges`: those only make the
  /// transaction count as changing what the observer observes. Changes made
  /// inside a savepoint are told when the savepoint is released (none when
  /// it is rolled back).
  virtual void databaseDidChange(const DatabaseEvent& /*event*/) {}
  /// The transaction, which changed something the observer observes, is
  /// about to commit. Return false, with `*error` set, to roll it back: the
  /// statement that commits then fails with that error (an error code of 0
  /// becomes SQLITE_CONSTRAINT_COMMITHOOK), and the observers are told of
  /// the rollback.
  virtual bool databaseWillCommit(Error* /*error*/) { return true; }
  /// The transaction committed.
  virtual void databaseDidCommit(Database& /*db*/) {}
  /// The transaction rolled back (also after a veto).
  virtual void databaseDidRollback(Database& /*db*/) {}
};

}  // namespace sqlitebridge
