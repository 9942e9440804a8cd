import Dispatch
import Foundation
import SQLiteBridge
import Testing

/// A query that never ends by itself (it counts rows of an endless recursive
/// CTE that none of them matches): only an interrupt stops it.
let endlessQuery = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c WHERE x < 0"

/// A test's own error, to check that a block's error comes back unchanged.
struct BlockError: Error, Equatable {
  let id: Int
}

/// The single integer `sql` returns; fails the test (throws) when it is not
/// one.
func integer(_ database: Database, _ sql: String, _ arguments: [DatabaseValue] = []) throws -> Int64 {
  let value = try scalar(database, sql, arguments)
  guard case .integer(let integer) = value else {
    throw DatabaseError(code: 1, message: "\(sql) returned \(value), not an integer")
  }
  return integer
}

/// The single text `sql` returns, or nil when it is not text.
func text(_ database: Database, _ sql: String) throws -> String? {
  guard case .text(let text) = try scalar(database, sql) else { return nil }
  return text
}

/// Records an issue unless `error` is SQLITE_MISUSE for reentrant access.
func expectReentrantMisuse(_ error: DatabaseError?, sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(error?.resultCode == .misuse, "\(String(describing: error))", sourceLocation: sourceLocation)
  #expect(
    error?.message.contains("reentrant access") == true, "\(String(describing: error))",
    sourceLocation: sourceLocation)
}

/// A latch `count` threads count down; `wait` returns once all of them have
/// (or false when `limit` ran out first).
final class Latch: @unchecked Sendable {
  private let condition = NSCondition()
  private var remaining: Int

  init(_ count: Int) { remaining = count }

  func countDown() {
    condition.lock()
    remaining -= 1
    condition.broadcast()
    condition.unlock()
  }

  func wait(within limit: Duration = threadWaitLimit) -> Bool {
    let end = Date(
      timeIntervalSinceNow: Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    while remaining > 0 {
      if !condition.wait(until: end) { return remaining <= 0 }
    }
    return true
  }

  /// Counts down, then waits for the others.
  func arriveAndWait(within limit: Duration = threadWaitLimit) -> Bool {
    countDown()
    return wait(within: limit)
  }
}

extension Signal {
  /// `wait(within:)` from a task, on a Dispatch thread: no thread of the
  /// cooperative pool blocks.
  func waitFromTask(within limit: Duration = threadWaitLimit) async -> Bool {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: self.wait(within: limit)) }
    }
  }
}

extension Latch {
  /// `wait(within:)` from a task, on a Dispatch thread.
  func waitFromTask(within limit: Duration = threadWaitLimit) async -> Bool {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: self.wait(within: limit)) }
    }
  }
}

/// Runs `block` (which signals `started` right before its long statement) on
/// a thread and calls `interrupt` until it returns: an interrupt that lands
/// before the statement starts is forgotten by SQLite, so one call is not
/// enough. Returns the error `block` threw (nil, with an issue, when it threw
/// none or did not return within `threadWaitLimit`).
func interruptUntilReturns(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ interrupt: @escaping @Sendable () -> Void,
  _ block: @escaping @Sendable (_ started: Signal) throws -> Void
) -> (any Error)? {
  let started = Signal()
  let returned = Signal()
  let outcome = Locked<(any Error)?>(nil)
  _ = TestThread("the interrupted block") {
    defer { returned.send() }
    do {
      try block(started)
      Issue.record("the block was not interrupted", sourceLocation: sourceLocation)
    } catch {
      outcome.withLock { $0 = error }
    }
  }
  guard started.wait() else {
    Issue.record("the block did not start", sourceLocation: sourceLocation)
    return nil
  }
  let end = ContinuousClock.now + threadWaitLimit
  while !returned.wait(within: .milliseconds(5)) {
    guard ContinuousClock.now < end else {
      Issue.record("the block did not return after interrupts", sourceLocation: sourceLocation)
      return nil
    }
    interrupt()
  }
  return outcome.current
}

/// Which kind of shared database a test that runs against both uses.
enum SharedKind: String, CaseIterable, Sendable {
  case pool, queue
}

/// A `DatabasePool` or a `DatabaseQueue` behind the same blocking calls.
struct SharedAccess: Sendable {
  let write: @Sendable (_ body: (Database) throws -> Void) throws -> Void
  let writeWithoutTransaction: @Sendable (_ body: (Database) throws -> Void) throws -> Void
  let read: @Sendable (_ body: (Database) throws -> Int64) throws -> Int64
  let interrupt: @Sendable () -> Void

  /// Opens a pool or a queue of `kind` on the file at `path`.
  static func open(_ kind: SharedKind, path: String) throws -> SharedAccess {
    switch kind {
    case .pool:
      let pool = try DatabasePool(path: path)
      return SharedAccess(
        write: { try pool.write($0) }, writeWithoutTransaction: { try pool.writeWithoutTransaction($0) },
        read: { try pool.read($0) }, interrupt: { pool.interrupt() })
    case .queue:
      let queue = try DatabaseQueue(path: path)
      return SharedAccess(
        write: { try queue.write($0) }, writeWithoutTransaction: { try queue.writeWithoutTransaction($0) },
        read: { try queue.read($0) }, interrupt: { queue.interrupt() })
    }
  }
}
