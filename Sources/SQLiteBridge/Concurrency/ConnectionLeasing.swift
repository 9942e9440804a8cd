import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// What `DatabaseQueue` and `DatabasePool` share: running a block on a
/// connection the core lends (`interop::ConcurrencyAccess`). Which
/// connection, the locks, the transaction and its retries, and reentrancy
/// are the core's; this adds Swift's errors, and async blocks on the core's
/// own threads with Task cancellation.
enum ConnectionLeasing {
  typealias Access = sqlitebridge.interop.ConcurrencyAccess

  /// Runs `body` on a connection `acquire` leases, blocking this thread
  /// while it waits.
  static func run<T>(
    _ acquire: (inout sqlitebridge.ConnectionLease) -> Bool, _ body: (Database) throws -> T
  ) throws -> T {
    var lease = sqlitebridge.ConnectionLease()
    guard acquire(&lease) else { throw DatabaseError(lease.error) }
    defer { Access.release(&lease) }
    return try runBlock(&lease, body)
  }

  /// Runs `body` on the lease's connection and ends the lease's
  /// transaction: commits when `body` returns, rolls back when it throws.
  /// The `Database` it gets is closed afterwards, so a reference that
  /// escaped the block throws `.misuse` ("the database is not open").
  static func runBlock<T>(
    _ lease: inout sqlitebridge.ConnectionLease, _ body: (Database) throws -> T,
    cancelled: () -> Bool = { false }
  ) throws -> T {
    let database = Database(lent: Access.share(lease))
    defer { database.close() }
    let value: T
    do {
      value = try body(database)
    } catch {
      _ = Access.finish(&lease, false)
      if cancelled() { throw CancellationError() }
      throw error
    }
    if cancelled() {
      _ = Access.finish(&lease, false)
      throw CancellationError()
    }
    guard Access.finish(&lease, true) else { throw DatabaseError(lease.error) }
    return value
  }

  /// Runs `body` on one of the queue's (pool's) own threads, which `submit`
  /// hands the job to, and resumes the caller with its result: no thread of
  /// Swift's cooperative pool waits for a connection or for SQLite.
  /// Cancelling the task interrupts the running statement (and every later
  /// one of the block), rolls a write back and throws `CancellationError`;
  /// a task cancelled before the block starts never touches the database
  /// (one that waits for a connection stops waiting at once).
  static func runAsync<T: Sendable>(
    _ kind: sqlitebridge.LeaseKind, _ submit: (sqlitebridge.interop.AsyncJobHandle) -> Bool,
    _ body: @Sendable (Database) throws -> T
  ) async throws -> T {
    try Task.checkCancellation()
    // The block lives until this function returns, which is after the job's
    // last use of it (its completion resumes this function).
    return try await withoutActuallyEscaping(body) { body in
      let block = AsyncBlock(body)
      let context = Unmanaged.passRetained(block as AsyncBlockBase)
      defer { context.release() }
      block.job = Access.makeJob(kind, runAsyncBlock, completeAsyncBlock, context.toOpaque())
      guard Access.isValid(block.job) else { throw DatabaseError(code: 7, message: "out of memory") }
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          block.continuation = continuation
          if !submit(block.job) {
            block.continuation = nil
            continuation.resume(
              throwing: DatabaseError(code: 7, message: "out of memory, or the queue is closing: the block did not run")
            )
          }
        }
      } onCancel: {
        block.cancel()
      }
    }
  }
}

/// The core calls this on its own thread, once per job, with the lease.
private func runAsyncBlock(
  _ context: UnsafeMutableRawPointer?, _ lease: UnsafeMutablePointer<sqlitebridge.ConnectionLease>?
) {
  guard let context else { return }
  Unmanaged<AsyncBlockBase>.fromOpaque(context).takeUnretainedValue().run(lease)
}

/// The core calls this once per job, after `runAsyncBlock` and after the
/// lease went back: its last use of the block.
private func completeAsyncBlock(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<AsyncBlockBase>.fromOpaque(context).takeUnretainedValue().complete()
}

/// An async block's state, shared by the caller and the core's thread
/// (which the job queue's lock orders: everything set before `submit` is
/// seen by `run`).
class AsyncBlockBase: @unchecked Sendable {
  var job = sqlitebridge.interop.AsyncJobHandle()

  func run(_ lease: UnsafeMutablePointer<sqlitebridge.ConnectionLease>?) {}
  func complete() {}

  func cancel() { ConnectionLeasing.Access.cancel(job) }
}

final class AsyncBlock<T: Sendable>: AsyncBlockBase, @unchecked Sendable {
  /// Dropped before the caller resumes: the caller's `body` must not outlive
  /// its call (the core's thread may still hold this block for a moment).
  var body: (@Sendable (Database) throws -> T)?
  var continuation: CheckedContinuation<T, any Error>?
  var result: Result<T, any Error> = .failure(CancellationError())

  init(_ body: @escaping @Sendable (Database) throws -> T) { self.body = body }

  override func run(_ lease: UnsafeMutablePointer<sqlitebridge.ConnectionLease>?) {
    // No lease: cancelled before it started.
    guard let lease, let body else { return }
    guard ConnectionLeasing.Access.holdsConnection(lease.pointee) else {
      result = .failure(DatabaseError(lease.pointee.error))
      return
    }
    let job = self.job
    result = Result {
      try ConnectionLeasing.runBlock(&lease.pointee, body, cancelled: { ConnectionLeasing.Access.isCancelled(job) })
    }
  }

  override func complete() {
    // Resuming is the last thing: the caller frees the block once resumed.
    body = nil
    let continuation = self.continuation
    self.continuation = nil
    let result = self.result
    continuation?.resume(with: result)
  }
}
