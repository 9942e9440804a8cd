import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One state of a `DatabasePool`'s database, kept for as long as this object
/// lives: every `read` sees the database exactly as it was when
/// `DatabasePool.makeSnapshot()` made it, whatever the pool's writer
/// committed or checkpointed since (the C++ `sqlitebridge::DatabaseSnapshot`).
///
/// The snapshot keeps a read transaction of its own open on that state, so
/// that no checkpoint can copy later pages over it: `.passive` checkpoints
/// (and the writer's automatic ones) copy only what it does not need;
/// `.full`, `.restart` and `.truncate` cannot finish while it lives (they
/// wait for the busy timeout, then throw `.busy`), and the write-ahead log
/// grows until the snapshot is released. Keep snapshots short-lived.
///
/// Reads run on the pool's reader connections, so several run at once,
/// beside the pool's own reads and writes, within
/// `Configuration.maximumReaderCount`. They need an SQLite built with
/// `SQLITE_ENABLE_SNAPSHOT` (`DatabaseSnapshot.isAvailable`): the trait
/// CurrentSQLite's engine and Apple's system SQLite have it, Debian's does
/// not.
///
/// `@unchecked Sendable`: its one stored value is the core's shared handle,
/// whose every entry point is safe from any thread.
public final class DatabaseSnapshot: @unchecked Sendable {
  typealias Access = sqlitebridge.interop.SnapshotAccess
  let handle: sqlitebridge.interop.SnapshotHandle

  init(_ handle: sqlitebridge.interop.SnapshotHandle) { self.handle = handle }

  /// Whether the linked SQLite has the snapshot API; without it
  /// `DatabasePool.makeSnapshot()` throws saying so.
  public static var isAvailable: Bool { Access.available() }

  /// Runs `body` on a reader connection in a read transaction on the
  /// snapshot's state, blocking this thread until a reader is free, and
  /// returns what it returns. Reader connections are read-only: a write
  /// throws `.readOnly`.
  ///
  /// - Throws: what `body` throws; `.misuse` when the pool was closed
  ///   (deinitialized) or when called from inside one of the pool's blocks
  ///   or snapshot reads (reentrant access); SQLite's error (such as
  ///   `SQLITE_ERROR_SNAPSHOT`) when the reader cannot open the snapshot.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ Access.acquire(handle, &$0) }, body)
  }

  /// `read` on one of the pool's own reader threads: the calling task waits
  /// without blocking a thread. Cancelling the task interrupts the block's
  /// statements and throws `CancellationError`; a task cancelled before the
  /// block starts never touches the database.
  ///
  /// - Throws: as `read`; `DatabaseError` when the pool was closed before
  ///   the block could be queued.
  public func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await ConnectionLeasing.runAsync(.Read, { Access.submit(handle, $0) }, body)
  }
}

extension DatabasePool {
  /// A snapshot of the database as it is now (see `DatabaseSnapshot`),
  /// waiting for the running write. When the write-ahead log is empty (just
  /// after opening, or after a `.truncate` or `.restart` checkpoint), SQLite
  /// cannot record a snapshot of it, so this first commits a write that
  /// changes nothing (`PRAGMA user_version` set to its own value); commit
  /// hooks and transaction observers see that empty commit.
  ///
  /// - Throws: `DatabaseError` with `.error` naming `SQLITE_ENABLE_SNAPSHOT`
  ///   and the SQLite version when the linked SQLite has no snapshot API
  ///   (`DatabaseSnapshot.isAvailable`); `.misuse` when called from inside
  ///   one of this pool's blocks; `.error` for a read-only pool whose
  ///   write-ahead log is empty; SQLite's error when the snapshot's
  ///   connection cannot open or read.
  public func makeSnapshot() throws -> DatabaseSnapshot {
    var handle = sqlitebridge.interop.SnapshotHandle()
    var error = sqlitebridge.Error()
    guard DatabaseSnapshot.Access.makeSnapshot(core, &handle, &error) else { throw DatabaseError(error) }
    return DatabaseSnapshot(handle)
  }
}
