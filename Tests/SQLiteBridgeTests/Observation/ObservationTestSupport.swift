import Foundation
import SQLiteBridge
import Testing

/// Which kind of store an observation test runs on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case queue, pool
  var testDescription: String { rawValue }
}

/// A `DatabaseQueue` or a `DatabasePool` on one file, behind one interface,
/// so that each observation test runs on both.
final class ObservedStore: Sendable {
  private let queue: DatabaseQueue?
  private let pool: DatabasePool?

  init(_ kind: StoreKind, path: String, configuration: Configuration = .init()) throws {
    switch kind {
    case .queue:
      queue = try DatabaseQueue(path: path, configuration: configuration)
      pool = nil
    case .pool:
      queue = nil
      pool = try DatabasePool(path: path, configuration: configuration)
    }
  }

  func write(_ sql: String) throws {
    if let queue { try queue.write { try $0.execute(sql) } } else { try pool!.write { try $0.execute(sql) } }
  }

  func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    if let queue { return try queue.writeWithoutTransaction(body) }
    return try pool!.writeWithoutTransaction(body)
  }

  func start<Value>(
    _ observation: ValueObservation<Value>, onError: @escaping @Sendable (any Error) -> Void = { _ in },
    onChange: @escaping @Sendable (Value) -> Void
  ) -> DatabaseCancellable {
    if let queue { return observation.start(in: queue, onError: onError, onChange: onChange) }
    return observation.start(in: pool!, onError: onError, onChange: onChange)
  }

  func start(
    _ observation: DatabaseRegionObservation, onError: @escaping @Sendable (any Error) -> Void = { _ in },
    onChange: @escaping @Sendable (Database) -> Void
  ) throws -> DatabaseCancellable {
    if let queue { return try observation.start(in: queue, onError: onError, onChange: onChange) }
    return try observation.start(in: pool!, onError: onError, onChange: onChange)
  }

  func values<Value>(_ observation: ValueObservation<Value>) -> AsyncValueObservation<Value> {
    if let queue { return observation.values(in: queue) }
    return observation.values(in: pool!)
  }
}

/// The values and errors an observation delivered, waited for with a bound.
final class DeliveredValues<Value: Equatable & Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var values: [Value] = []
  private var failures: [any Error] = []

  func add(_ value: Value) {
    condition.lock()
    values.append(value)
    condition.broadcast()
    condition.unlock()
  }

  func fail(_ error: any Error) {
    condition.lock()
    failures.append(error)
    condition.broadcast()
    condition.unlock()
  }

  /// The two callbacks for `start`.
  var onChange: @Sendable (Value) -> Void { { self.add($0) } }
  var onError: @Sendable (any Error) -> Void { { self.fail($0) } }

  /// Waits until the last value is `value`; false when the limit ran out.
  func waitForLast(_ value: Value, within limit: Duration = threadWaitLimit) -> Bool {
    wait(within: limit) { $0.values.last == value }
  }

  /// Waits until at least `count` values came; false when the limit ran out.
  func waitForCount(_ count: Int, within limit: Duration = threadWaitLimit) -> Bool {
    wait(within: limit) { $0.values.count >= count }
  }

  func waitForError(within limit: Duration = threadWaitLimit) -> Bool {
    wait(within: limit) { !$0.failures.isEmpty }
  }

  var all: [Value] {
    condition.lock()
    defer { condition.unlock() }
    return values
  }

  var errors: [any Error] {
    condition.lock()
    defer { condition.unlock() }
    return failures
  }

  private func wait(within limit: Duration, until done: (DeliveredValues) -> Bool) -> Bool {
    let end = Date(
      timeIntervalSinceNow: Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
    condition.lock()
    defer { condition.unlock() }
    while !done(self) {
      if !condition.wait(until: end) { return done(self) }
    }
    return true
  }
}

/// A count of calls, from any thread.
final class CallCount: Sendable {
  private let count = Locked(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.current }
}

/// The schema every observation test starts with.
let observedSchema = """
  CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);
  CREATE TABLE other(x);
  CREATE TABLE keyed(k TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE flags(on_ INTEGER);
  CREATE VIEW item_names AS SELECT name FROM items;
  """

/// Runs `body` with a store of `kind` on a fresh file holding
/// `observedSchema` (and the file's path).
func withObservedStore(
  _ kind: StoreKind, configuration: Configuration = .init(), _ body: (ObservedStore, String) throws -> Void
) throws {
  try withTemporaryDirectory { directory in
    let path = directory + "/observed.db"
    try makeDatabaseFile(at: path, script: observedSchema)
    try body(try ObservedStore(kind, path: path, configuration: configuration), path)
  }
}

/// An observation of `sql`'s single integer, counting its fetches.
func countObservation(_ sql: String, fetches: CallCount? = nil) -> ValueObservation<Int64> {
  ValueObservation.tracking { db in
    fetches?.increment()
    return try integer(db, sql)
  }
}

/// Commits one row into `items` from another process (Python's sqlite3
/// module, a SQLite of its own), killed by `timeout` after 120 s; fails the
/// test when it did not commit. (`system` rather than Foundation's
/// `Process`, which LeakSanitizer finds leaking on Linux.)
func commitFromAnotherProcess(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
  let script =
    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=5); "
    + "c.execute('INSERT INTO items(name) VALUES (1)'); c.commit()"
  let quoted = "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  let status = system("timeout 120 python3 -c \"\(script)\" \(quoted)")
  #expect(status == 0, "python3 failed (status \(status))", sourceLocation: sourceLocation)
}
