import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A database that reads and writes: a `DatabaseQueue` or a
/// `DatabasePool`, taken without choosing one. Observations start on it too
/// (`ValueObservation.start(in:onError:onChange:)`,
/// `ValueObservation.values(in:)`,
/// `DatabaseRegionObservation.start(in:onError:onChange:)`).
///
/// ```swift
/// func addNote(_ title: String, to writer: some DatabaseWriter) throws {
///   try writer.write { db in try db.execute("INSERT INTO notes(title) VALUES (?)", [title]) }
/// }
/// ```
///
/// Every requirement is the conforming type's own method, with its
/// behaviour. Observations need the core's queue or pool: started on a
/// writer of another type they fail with `.misuse`.
public protocol DatabaseWriter: DatabaseReader {
  /// Runs `body` in an IMMEDIATE transaction, blocking this thread until it
  /// can: commits when `body` returns, rolls back when it throws (see
  /// `DatabaseQueue.write(_:)` and `DatabasePool.write(_:)`).
  ///
  /// - Throws: what `body` throws (after the rollback); `DatabaseError`
  ///   when the transaction cannot begin or commit; `.misuse` when called
  ///   from inside one of the same database's blocks.
  @discardableResult
  func write<T>(_ body: (Database) throws -> T) throws -> T

  /// `write(_:)` without blocking a thread: the calling task waits.
  /// Cancelling the task rolls the transaction back.
  ///
  /// - Throws: as `write(_:)`, and `CancellationError` when the task is
  ///   cancelled.
  @discardableResult
  func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T

  /// Runs `body` on the writer without a transaction; a transaction `body`
  /// leaves open is rolled back.
  ///
  /// - Throws: what `body` throws; `.misuse` when called from inside one of
  ///   the same database's blocks.
  @discardableResult
  func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T
}

extension DatabaseQueue: DatabaseWriter {}

extension DatabasePool: DatabaseWriter {}

/// The core's queue or pool behind a `DatabaseWriter`, for the entry points
/// (observations) whose rules the core owns: each one calls the queue's or
/// the pool's own method, nothing else.
enum CoreWriter {
  case queue(DatabaseQueue)
  case pool(DatabasePool)

  /// The queue or pool `writer` is; nil for a writer of another type.
  @inline(__always)
  init?(_ writer: some DatabaseWriter) {
    if let queue = writer as? DatabaseQueue {
      self = .queue(queue)
    } else if let pool = writer as? DatabasePool {
      self = .pool(pool)
    } else {
      return nil
    }
  }

  /// What `what` (an observation, an undo history) made on a writer of
  /// another type fails with.
  static func unsupported(_ writer: some DatabaseWriter, for what: String = "observations") -> DatabaseError {
    DatabaseError(
      code: ResultCode.misuse.rawValue,
      message: "\(what) need a DatabaseQueue or a DatabasePool, not \(type(of: writer as any DatabaseWriter))")
  }
}

extension DatabaseCancellable {
  /// A cancellable of no observation: inactive, and cancelling it does
  /// nothing.
  static func inactive() -> DatabaseCancellable { DatabaseCancellable(sqlitebridge.interop.ObservationToken()) }
}
