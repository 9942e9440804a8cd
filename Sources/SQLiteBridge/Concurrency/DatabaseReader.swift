/// A database that reads: a `DatabaseQueue` or a `DatabasePool`, taken
/// without choosing one (`some DatabaseReader`, `any DatabaseReader`), so
/// that app code can be handed "a database" and tests can give it an
/// in-memory queue where production gives a pool.
///
/// Every requirement is the conforming type's own method, with its
/// behaviour: the protocol adds no work and no rule of its own. See
/// `DatabaseWriter` for the writes.
public protocol DatabaseReader: AnyObject, Sendable {
  /// Runs `body` with the connection in a read transaction, blocking this
  /// thread until it can, and returns what it returns (see
  /// `DatabaseQueue.read(_:)` and `DatabasePool.read(_:)`).
  ///
  /// - Throws: what `body` throws; `DatabaseError` when the read
  ///   transaction cannot begin, and `.misuse` when called from inside one
  ///   of the same database's blocks.
  func read<T>(_ body: (Database) throws -> T) throws -> T

  /// `read(_:)` without blocking a thread: the calling task waits.
  /// Cancelling the task interrupts the block's statements.
  ///
  /// - Throws: as `read(_:)`, and `CancellationError` when the task is
  ///   cancelled.
  func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T

  /// From any thread: the statement running now throws `.interrupt`. Does
  /// nothing when no statement runs.
  func interrupt()
}
