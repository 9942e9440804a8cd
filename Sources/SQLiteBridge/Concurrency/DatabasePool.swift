import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A database file in WAL mode shared by any number of threads and tasks:
/// one writer connection (writes run one at a time) and up to
/// `Configuration.maximumReaderCount` reader connections, so reads run at the
/// same time as each other and as the write (the C++
/// `sqlitebridge::DatabasePool`). Each read sees one snapshot of the
/// database from start to end, however many writes commit meanwhile.
///
/// Blocks follow `DatabaseQueue`'s rules: the `Database` a block gets is for
/// the block only, and calling `read` or `write` of the same pool from inside
/// one of its blocks throws `.misuse` ("reentrant access").
///
/// `@unchecked Sendable`: its one stored value is the core's pool, whose
/// every entry point is safe from any thread.
public final class DatabasePool: @unchecked Sendable {
  let core: sqlitebridge.DatabasePool

  /// Opens (or creates) the file at `path` and switches it to WAL mode (it
  /// stays so).
  ///
  /// - Throws: `DatabaseError` with `.cantOpen` for an in-memory or
  ///   temporary database (":memory:", "", a `mode=memory` URI: its data is
  ///   private to one connection, so readers could not see it; use a
  ///   `DatabaseQueue`); `.readOnly` for a file this process cannot write
  ///   (unless `configuration.readOnly`: the pool then only reads, never
  ///   switches the mode, and every write throws `.readOnly`); `.misuse`
  ///   for a `journalMode` other than nil or `.wal`, or a `sharedCacheName`
  ///   (its readers would meet the writer's table locks, not read a
  ///   snapshot; use a `DatabaseQueue`); as `Database(path:configuration:)`
  ///   otherwise. Every connection gets `synchronous`, `noFollowSymlinks`
  ///   and `uriFilenames`.
  public init(path: String, configuration: Configuration = .init()) throws {
    core = sqlitebridge.DatabasePool(std.string(path), configuration.cxx)
    guard core.isOpen() else { throw DatabaseError(core.openError()) }
  }

  /// Runs `body` on a reader connection inside a read transaction, blocking
  /// this thread until a reader is free, and returns what it returns. Reader
  /// connections are read-only: a write throws `.readOnly`.
  ///
  /// - Throws: what `body` throws; `.misuse` when called from inside one of
  ///   this pool's blocks.
  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ ConnectionLeasing.Access.acquirePool(core, .Read, &$0) }, body)
  }

  /// Runs `body` on the writer connection in an IMMEDIATE transaction, as
  /// `DatabaseQueue.write` does.
  @discardableResult
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ ConnectionLeasing.Access.acquirePool(core, .Write, &$0) }, body)
  }

  /// Runs `body` on the writer connection without a transaction, as
  /// `DatabaseQueue.writeWithoutTransaction` does.
  @discardableResult
  public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try ConnectionLeasing.run({ ConnectionLeasing.Access.acquirePool(core, .WriteWithoutTransaction, &$0) }, body)
  }

  /// `read` on one of the pool's own threads (one per reader): the calling
  /// task waits without blocking a thread. Cancelling the task interrupts
  /// the block's statements and throws `CancellationError`; a task cancelled
  /// before the block starts (also while it waits for a reader: the wait
  /// ends at once) never touches the database.
  public func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await ConnectionLeasing.runAsync(.Read, { ConnectionLeasing.Access.submitToPool(core, $0) }, body)
  }

  /// `write` on the pool's writer thread; cancelling the task rolls the
  /// transaction back and throws `CancellationError`.
  @discardableResult
  public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
    try await ConnectionLeasing.runAsync(.Write, { ConnectionLeasing.Access.submitToPool(core, $0) }, body)
  }

  /// Copies the write-ahead log into the database file, on the writer
  /// connection (waiting for the running write).
  ///
  /// - Throws: `DatabaseError` with `.busy` when `mode` needed readers or
  ///   writers to finish and they did not within the busy timeout; `.misuse`
  ///   when called from inside one of this pool's blocks.
  public func checkpoint(_ mode: CheckpointMode = .passive) throws {
    var error = sqlitebridge.Error()
    guard ConnectionLeasing.Access.checkpoint(core, mode.cxx, &error) else { throw DatabaseError(error) }
  }

  /// From any thread: the statements running now on every connection of the
  /// pool throw `.interrupt`.
  public func interrupt() {
    ConnectionLeasing.Access.interruptPool(core)
  }
}
