import Foundation
import SQLiteBridgeCore.Testing
import Testing

@testable import SQLiteBridge

/// The async `read` and `write` of `DatabaseQueue` and `DatabasePool`: their
/// values, 100 concurrent tasks, cancellation before the block starts and
/// during a long statement, and no thread of the cooperative pool blocked.
@Suite("Async access")
struct AsyncConcurrencyTests {
  /// A queue or a pool, through the async calls.
  struct Shared: Sendable, CustomTestStringConvertible {
    let name: String
    let read: @Sendable (_ body: @escaping @Sendable (Database) throws -> Int64) async throws -> Int64
    let write: @Sendable (_ body: @escaping @Sendable (Database) throws -> Int64) async throws -> Int64
    let syncWrite: @Sendable (_ body: (Database) throws -> Void) throws -> Void
    let syncRead: @Sendable (_ body: (Database) throws -> Int64) throws -> Int64
    /// How many blocks wait for a connection now.
    let waiting: @Sendable () -> Int
    var testDescription: String { name }

    static func open(_ kind: String, in directory: String) throws -> Shared {
      let path = directory + "/async.db"
      if kind == "pool" {
        let pool = try DatabasePool(path: path)
        try pool.writeWithoutTransaction { db in try db.execute("PRAGMA synchronous = OFF") }
        return Shared(
          name: kind, read: { body in try await pool.read(body) }, write: { body in try await pool.write(body) },
          syncWrite: { body in try pool.write(body) }, syncRead: { body in try pool.read(body) },
          waiting: { Int(sqlitebridge.interop.ConcurrencyTesting.waitingCount(pool.core)) })
      }
      let queue = try DatabaseQueue(path: path)
      try queue.writeWithoutTransaction { db in try db.execute("PRAGMA synchronous = OFF") }
      return Shared(
        name: kind, read: { body in try await queue.read(body) }, write: { body in try await queue.write(body) },
        syncWrite: { body in try queue.write(body) }, syncRead: { body in try queue.read(body) },
        waiting: { Int(sqlitebridge.interop.ConcurrencyTesting.waitingCount(queue.core)) })
    }
  }

  /// Runs `body` with a queue or pool (by `kind`) on a fresh file holding
  /// table t(x) with the row 1.
  func withShared(_ kind: String, _ body: (Shared) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SQLiteBridgeTests-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shared = try Shared.open(kind, in: directory)
    try shared.syncWrite { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
    try await body(shared)
  }

  static let kinds = ["pool", "queue"]

  /// Holds the writer of `shared` on a plain thread, in a sync write that
  /// first runs `first` and then waits for `release`; returns once it holds.
  func holdWriter(
    of shared: Shared, first: @escaping @Sendable (Database) throws -> Void = { _ in }
  ) async -> (holder: TestThread, release: Signal) {
    let holding = Signal()
    let release = Signal()
    let holder = TestThread("the holder") {
      do {
        try shared.syncWrite { db in
          try first(db)
          holding.send()
          #expect(release.wait(), "the test did not release the writer")
        }
      } catch {
        Issue.record("the holder's write failed: \(error)")
      }
    }
    #expect(await holding.waitFromTask(), "the holder did not start")
    return (holder, release)
  }

  @Test(arguments: kinds)
  func asyncReadAndWriteReturnTheBlocksValues(_ kind: String) async throws {
    try await withShared(kind) { (shared: Shared) async throws in
      let written = try await shared.write { db in
        try db.execute("INSERT INTO t VALUES (41)")
        return db.lastInsertRowID
      }
      #expect(written == 2)
      #expect(try await shared.read { db in try integer(db, "SELECT sum(x) FROM t") } == 42)
      // A write that throws rolls back and rethrows the block's error.
      do {
        _ = try await shared.write { db -> Int64 in
          try db.execute("INSERT INTO t VALUES (100)")
          throw BlockError(id: 5)
        }
        Issue.record("the block's error was not rethrown")
      } catch let error as BlockError {
        #expect(error == BlockError(id: 5))
      }
      // An async read is read-only too.
      let readOnly = try await shared.read { db -> Int64 in
        Int64(databaseError { try db.execute("DELETE FROM t") }?.code ?? 0)
      }
      #expect(readOnly == 8)
      #expect(try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } == 2)
    }
  }

  @Test(arguments: kinds)
  func hundredConcurrentTasksAllSucceed(_ kind: String) async throws {
    try await withShared(kind) { (shared: Shared) async throws in
      let taskCount = 100
      let seen = try await withThrowingTaskGroup(of: Int64.self) { group in
        for index in 0..<taskCount {
          group.addTask {
            let value = Int64(1000 + index)
            _ = try await shared.write { db in
              try db.execute("INSERT INTO t VALUES (?)", [.integer(value)])
              return 0
            }
            return try await shared.read { db in
              try integer(db, "SELECT count(*) FROM t WHERE x = ?", [.integer(value)])
            }
          }
        }
        var seen: [Int64] = []
        for try await count in group { seen.append(count) }
        return seen
      }
      #expect(seen == Array(repeating: 1, count: taskCount), "a task did not read its own committed row")
      #expect(try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } == Int64(taskCount + 1))
      let sum = (0..<taskCount).reduce(1) { $0 + 1000 + $1 }
      #expect(try await shared.read { db in try integer(db, "SELECT sum(x) FROM t") } == Int64(sum))
    }
  }

  /// A task cancelled before it calls `read` or `write` throws
  /// `CancellationError`, and its block never runs.
  @Test(arguments: kinds)
  func aTaskCancelledBeforeStartNeverRunsItsBlock(_ kind: String) async throws {
    try await withShared(kind) { (shared: Shared) async throws in
      let ran = Locked(false)
      let read = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await shared.read { _ in
          ran.withLock { $0 = true }
          return 1
        }
      }
      let write = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await shared.write { db in
          ran.withLock { $0 = true }
          try db.execute("INSERT INTO t VALUES (2)")
          return 1
        }
      }
      for result in [await read.result, await write.result] {
        #expect(throws: CancellationError.self) { try result.get() }
      }
      #expect(ran.current == false)
      #expect(try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
    }
  }

  /// A task cancelled while its block waits for the connection (a sync
  /// write holds it) throws `CancellationError` at once, without waiting for
  /// the connection, and its block never runs.
  @Test(arguments: kinds)
  func aTaskCancelledWhileWaitingNeverRunsItsBlock(_ kind: String) async throws {
    try await withShared(kind) { (shared: Shared) async throws in
      let (holder, release) = await holdWriter(of: shared)
      let ran = Locked(false)
      let calling = Signal()
      let task = Task {
        calling.send()
        return try await shared.write { db in
          ran.withLock { $0 = true }
          try db.execute("INSERT INTO t VALUES (2)")
          return 1
        }
      }
      #expect(await calling.waitFromTask())
      // Cancel only once the block waits for the connection (a cancel before
      // it starts is another test's).
      let deadline = ContinuousClock.now + threadWaitLimit
      while shared.waiting() == 0 && ContinuousClock.now < deadline { await Task.yield() }
      #expect(shared.waiting() == 1, "the block never waited for the connection")
      task.cancel()
      // The cancel ends the job's wait for the connection: the task finishes
      // while the holder still holds it (were it to wait, the holder's own
      // bounded wait would fail the test).
      let result = await task.result
      release.send()
      #expect(holder.join())
      #expect(throws: CancellationError.self) { try result.get() }
      #expect(ran.current == false)
      #expect(try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
    }
  }

  /// Cancelling the task while its block runs an endless statement
  /// interrupts it: `CancellationError`, the write rolled back, the
  /// connection usable afterwards.
  @Test(arguments: kinds)
  func cancellingDuringALongStatementInterruptsAndRollsBack(_ kind: String) async throws {
    try await withShared(kind) { (shared: Shared) async throws in
      let started = Signal()
      let write = Task {
        try await shared.write { db in
          try db.execute("INSERT INTO t VALUES (2)")
          started.send()
          return try integer(db, endlessQuery)
        }
      }
      #expect(await started.waitFromTask(), "the write did not start")
      write.cancel()
      let written = await write.result
      #expect(throws: CancellationError.self) { try written.get() }
      #expect(try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)

      let readStarted = Signal()
      let read = Task {
        try await shared.read { db in
          readStarted.send()
          return try integer(db, endlessQuery)
        }
      }
      #expect(await readStarted.waitFromTask(), "the read did not start")
      read.cancel()
      let readResult = await read.result
      #expect(throws: CancellationError.self) { try readResult.get() }

      // Usable afterwards, async and sync.
      #expect(try await shared.write { db in try integer(db, "SELECT count(*) FROM t") } == 1)
      try shared.syncWrite { db in try db.execute("INSERT INTO t VALUES (3)") }
      #expect(try await shared.read { db in try integer(db, "SELECT sum(x) FROM t") } == 4)
    }
  }

  /// While a plain thread holds the writer (a sync write kept open by a
  /// signal), more async writes than there are cores wait for it, and still
  /// async reads (on a pool) complete and an unrelated task runs: the
  /// waiting writes hold no thread of the cooperative pool.
  @Test(arguments: kinds)
  func waitingAsyncCallsDoNotBlockTheCooperativePool(_ kind: String) async throws {
    try await withShared(kind) { (shared: Shared) async throws in
      let (holder, release) = await holdWriter(of: shared) { db in try db.execute("INSERT INTO t VALUES (2)") }
      let waiting = 4 * max(ProcessInfo.processInfo.activeProcessorCount, 2)
      let calling = Latch(waiting)
      let writes = Task {
        try await withThrowingTaskGroup(of: Int64.self) { group in
          for index in 0..<waiting {
            group.addTask {
              calling.countDown()
              return try await shared.write { db in
                try db.execute("INSERT INTO t VALUES (?)", [.integer(Int64(10 + index))])
                return 1
              }
            }
          }
          return try await group.reduce(0, +)
        }
      }
      // Every write task got to its call, so none blocks a thread while it waits.
      #expect(await calling.waitFromTask(), "the write tasks did not all start")
      #expect(await Task { 42 }.value == 42)
      if kind == "pool" {
        let reads = try await withThrowingTaskGroup(of: Int64.self) { group in
          for _ in 0..<waiting {
            group.addTask { try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } }
          }
          return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        // The readers see the last commit, not the held write.
        #expect(reads == Array(repeating: 1, count: waiting))
      }
      release.send()
      #expect(holder.join())
      #expect(try await writes.value == Int64(waiting))
      #expect(try await shared.read { db in try integer(db, "SELECT count(*) FROM t") } == Int64(waiting + 2))
    }
  }
}
