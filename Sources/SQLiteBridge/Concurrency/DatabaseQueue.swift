import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One connection shared by any number of threads and tasks: every block
/// runs alone on it, one after the other (the C++ `sqlitebridge::DatabaseQueue`).
///
/// Pick it over a `DatabasePool` when reads need not run in parallel, or for
/// an in-memory database. The `Database` a block gets is for the block only:
/// it is closed when the block returns, so one that escapes throws `.misuse`
/// ("the database is not open"); statements and cursors made in the block
/// must not escape it either. Calling `read` or `write` of the same queue
/// from inside one of its blocks throws `.misuse` ("reentrant access")
/// instead of waiting for itself.
///
/// `@unchecked Sendable`: its one stored value is the core's queue, whose
/// every entry point is safe from any thread (the core serialises them).
public final class DatabaseQueue: @unchecked Sendable {
  let core: sqlitebridge.DatabaseQueue

  /// Opens (or creates) the file at `path` (":memory:" for an in-memory
  /// database), set up by `configuration`.
  ///
  /// - Throws: `DatabaseError`, as `Database(path:configuration:)`.
  public init(path: String, configuration: Configuration = .init()) throws {
    core = sqlitebridge.DatabaseQueue(std.string(path), configuration.cxx)
    guard core.isOpen() else { throw DatabaseError(core.openError()) }
  }

  /// Opens the database called `name`, as `Database(name:createSQL:location:configuration:)`
  /// does (copying the bundled seed, `location.seedName` or else `name`, or
  /// running `createSQL` on first use).
  ///
  /// - Throws: `DatabaseError`, as that initializer.
  public init(
    name: String, createSQL: String? = nil, location: DatabaseLocation = .default,
    configuration: Configuration = .init()
  ) throws {
    core = sqlitebridge.DatabaseQueue(std.string(name), std.string(createSQL ?? ""), location.cxx, configuration.cxx)
    guard core.isOpen() else { throw DatabaseError(core.openError()) }
  }

  /// Runs `body` alone on the connection, blocking this thread until it
  /// can, and returns what it returns. `body` reads one snapshot: it runs in
  /// a read transaction (begun with a first read before it), so a commit of
  /// another connection or process never lands between two of its
  /// statements (in WAL it commits beside the block; with a rollback journal
  /// it waits for the block's read lock). The connection is read-only
  /// meanwhile (`PRAGMA query_only`): a write throws `.readOnly`, a BEGIN
  /// `.error`; a COMMIT or ROLLBACK in `body` ends the snapshot. The
  /// transaction ends when `body` returns or throws.
  ///
  /// - Throws: what `body` throws; `DatabaseError` when the read transaction
  ///   cannot begin (`.busy` past the busy timeout); `.misuse` when called
  ///   from inside one of this queue's blocks.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ ConnectionLeasing.Access.acquireQueue(core, .Read, &$0) }, body)
  }

  /// Runs `body` in an IMMEDIATE transaction, blocking this thread until it
  /// can: commits when `body` returns, rolls back when it throws.
  /// `BEGIN IMMEDIATE` takes SQLite's write lock up front, so a writer of
  /// another connection or process is waited for (up to the busy timeout)
  /// before `body` runs, never in the middle of it.
  ///
  /// - Throws: what `body` throws (after the rollback); `DatabaseError`
  ///   when the transaction cannot begin (`.busy` past the busy timeout) or
  ///   commit; `.misuse` when called from inside one of this queue's blocks.
  @discardableResult
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ ConnectionLeasing.Access.acquireQueue(core, .Write, &$0) }, body)
  }

  /// Runs `body` alone on the connection without a transaction (for VACUUM,
  /// a PRAGMA that cannot run in one, or transactions of its own). A
  /// transaction `body` leaves open is rolled back.
  ///
  /// - Throws: what `body` throws; `.misuse` when called from inside one of
  ///   this queue's blocks.
  @discardableResult
  public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ ConnectionLeasing.Access.acquireQueue(core, .WriteWithoutTransaction, &$0) }, body)
  }

  /// `read` on one of the queue's own threads: the calling task waits
  /// without blocking a thread. Cancelling the task interrupts the block's
  /// statements and throws `CancellationError`; a task cancelled before the
  /// block starts (also while it waits for a connection: the wait ends at
  /// once) never touches the database.
  public func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await ConnectionLeasing.runAsync(.Read, { ConnectionLeasing.Access.submitToQueue(core, $0) }, body)
  }

  /// `write` on one of the queue's own threads; cancelling the task rolls
  /// the transaction back and throws `CancellationError`.
  @discardableResult
  public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await ConnectionLeasing.runAsync(.Write, { ConnectionLeasing.Access.submitToQueue(core, $0) }, body)
  }

  /// From any thread: the statement running now throws `.interrupt` (a
  /// write's transaction then rolls back). Does nothing when no statement
  /// runs.
  public func interrupt() {
    ConnectionLeasing.Access.interruptQueue(core)
  }
}
