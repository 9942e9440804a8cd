/// An observer of one connection's transactions
/// (`Database.add(transactionObserver:extent:)`): told of the changes they
/// make, able to veto a commit, and told how each transaction ended. Who is
/// told what, and when (savepoints, rollbacks, vetoes, extents), is decided
/// by the core, as for a C++ `sqlitebridge::TransactionObserver`.
///
/// Every callback is made on the thread that runs the writing statement, on
/// that connection. `observes(eventsOfKind:)` and `databaseDidChange(with:)`
/// are called inside SQLite's callbacks (while a statement is prepared or
/// runs) and must not use the database; `databaseWillCommit()` is called as
/// the commit starts, also inside SQLite, and must not use it either.
/// `databaseDidCommit(_:)` and `databaseDidRollback(_:)` are called after
/// the transaction ended, outside SQLite's callbacks, with the connection:
/// they may read and write it (a write there starts a transaction of its
/// own). No callback can fail the statement that runs, except
/// `databaseWillCommit()`, whose error vetoes the commit.
///
/// Every member but `observes(eventsOfKind:)` has a default that does
/// nothing (and never vetoes).
public protocol TransactionObserver: AnyObject {
  /// Whether the observer wants to hear of changes of `kind` (an insert,
  /// delete or update of a table; an update names the columns it sets, none
  /// meaning any). Asked when a statement that may make such changes is
  /// prepared or runs, possibly more than once for the same kind; an
  /// observer that answers false for everything a transaction does is not
  /// told of it (no `databaseDidChange`, no end callbacks). A `DELETE FROM
  /// t` without WHERE deletes row by row (no truncation) while an observer
  /// wants deletions of `t`, so that each is reported. Called inside
  /// SQLite's callbacks: must not use the database.
  func observes(eventsOfKind kind: DatabaseEventKind) -> Bool

  /// One row changed in a rowid table the observer observes. Not called for
  /// WITHOUT ROWID tables, schema changes, rows a REPLACE conflict deletes,
  /// or changes announced by `Database.notifyChanges(in:)`: those only make
  /// the transaction count as changing what the observer observes. Changes
  /// made inside a savepoint are told when the savepoint is released (none
  /// when it is rolled back). Called inside SQLite's callbacks: must not use
  /// the database.
  func databaseDidChange(with event: DatabaseEvent)

  /// The transaction, which changed something the observer observes, is
  /// about to commit. Throwing rolls it back: the statement that commits
  /// (COMMIT, the write outside a transaction, the end of
  /// `inTransaction`) then throws a `DatabaseError` (a thrown
  /// `DatabaseError` keeps its code, extended code and message; any other
  /// error becomes `.constraint` with extended code
  /// `.constraintCommitHook` and `String(describing: error)` as the
  /// message), and the observers are told of the rollback. Called inside
  /// SQLite's commit hook: must not use the database. A transaction that
  /// wrote nothing itself (its changes only announced by `notifyChanges`)
  /// commits without SQLite's commit hook and is not asked.
  func databaseWillCommit() throws

  /// The transaction committed. Called after it ended, outside SQLite's
  /// callbacks, with `db` sharing the connection: it may read and write
  /// (a write starts a transaction of its own). `db` is closed once this
  /// returns: keeping it makes every later call throw `.misuse`.
  func databaseDidCommit(_ db: Database)

  /// The transaction rolled back (also after a veto). Called as
  /// `databaseDidCommit(_:)` is, with the same `db`.
  func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
  /// Does nothing.
  public func databaseDidChange(with event: DatabaseEvent) {}

  /// Never vetoes.
  public func databaseWillCommit() throws {}

  /// Does nothing.
  public func databaseDidCommit(_ db: Database) {}

  /// Does nothing.
  public func databaseDidRollback(_ db: Database) {}
}
