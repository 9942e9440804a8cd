import Dispatch
import Foundation
import Testing

/// How long a test waits for another thread before it fails: far beyond what
/// any test needs on a loaded machine, so a failing thread fails its test
/// with a message instead of hanging the run.
let threadWaitLimit: Duration = .seconds(120)

/// `DispatchTime` `limit` from now.
func deadline(after limit: Duration) -> DispatchTime {
  .now()
    + .milliseconds(Int(limit.components.seconds) * 1000 + Int(limit.components.attoseconds / 1_000_000_000_000_000))
}

/// A value threads share, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  var current: Value { withLock { $0 } }
}

/// A one-shot signal that threads wait for with a limit.
final class Signal: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  func send() { semaphore.signal() }

  /// Waits for `send()`; false when `limit` ran out first.
  func wait(within limit: Duration = threadWaitLimit) -> Bool {
    semaphore.wait(timeout: deadline(after: limit)) == .success
  }
}

/// A thread that signals its end however its body returns; `join` waits for
/// it with a limit and records an issue when it runs out.
final class TestThread: Sendable {
  private let name: String
  private let finished = Signal()

  /// Starts `body` on a new thread, called `name` in failure messages.
  init(_ name: String, _ body: @escaping @Sendable () -> Void) {
    self.name = name
    let finished = finished
    let thread = Thread {
      defer { finished.send() }
      body()
    }
    thread.start()
  }

  /// Waits for the body to return; false, with an issue recorded, when it
  /// has not within `limit`.
  @discardableResult
  func join(within limit: Duration = threadWaitLimit, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    guard finished.wait(within: limit) else {
      Issue.record("\(name) did not finish within \(limit)", sourceLocation: sourceLocation)
      return false
    }
    return true
  }
}
