import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Testing
import Testing

@testable import SQLiteBridge

/// The check for other connections' commits
/// (`Configuration.externalChangeCheckInterval`) of a `DatabasePool` reads
/// `PRAGMA data_version`, which counts per connection, on one connection of
/// the pool's own (in the core): a read-only pool is told of each commit of
/// another connection once and of nothing else, and a read-write pool's
/// checks never wait for its writer.
@Suite("External changes")
struct ExternalChangeTests {
  typealias Access = sqlitebridge.interop.ConcurrencyTesting

  /// Waits until the pool's observations finished `count` more checks than
  /// `after`; false when the limit ran out.
  static func waitForChecks(_ pool: DatabasePool, after: UInt64, count: UInt64) -> Bool {
    let end = ContinuousClock.now + threadWaitLimit
    while Access.externalCheckCount(pool.core) < after + count {
      if ContinuousClock.now >= end { return false }
      sched_yield()
    }
    return true
  }

  /// Waits until `value` is at least `least`; false when the limit ran out.
  static func waitForAtLeast(_ value: Locked<Int>, _ least: Int) -> Bool {
    let end = ContinuousClock.now + threadWaitLimit
    while value.current < least {
      if ContinuousClock.now >= end { return false }
      sched_yield()
    }
    return true
  }

  /// A WAL database with one table, made by the connection returned (as
  /// another process would hold).
  static func makeDatabase(_ path: String) throws -> Database {
    var configuration = Configuration()
    configuration.journalMode = .wal
    let writer = try Database(path: path, configuration: configuration)
    try writer.execute("CREATE TABLE items(id INTEGER PRIMARY KEY)")
    return writer
  }

  @Test func aReadOnlyPoolIsToldOfEachCommitOfAnotherConnectionOnceAndOfNothingElse() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/read-only.db"
      let writer = try Self.makeDatabase(path)
      var configuration = Configuration()
      configuration.readOnly = true
      configuration.maximumReaderCount = 2
      configuration.externalChangeCheckInterval = .milliseconds(1)
      let pool = try DatabasePool(path: path, configuration: configuration)

      // Two readers that have counted different numbers of changes: the
      // first read before the other connection's commit, the second opened
      // after it.
      let holding = Signal()
      let releaseFirst = Signal()
      let first = TestThread("the first reader's block") {
        do {
          try pool.read { db in
            let count = try integer(db, "SELECT count(*) FROM items")
            #expect(count == 0)
            holding.send()
            #expect(releaseFirst.wait())
          }
        } catch {
          Issue.record("\(error)")
        }
      }
      #expect(holding.wait())
      try writer.execute("INSERT INTO items DEFAULT VALUES")
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM items") } == 1)

      // Observed while the first reader is lent, then with both free.
      let told = Locked(0)
      let failures = Locked(0)
      let cancellable = try DatabaseRegionObservation(tracking: .fullDatabase).start(
        in: pool, onError: { _ in failures.withLock { $0 += 1 } }
      ) { _ in told.withLock { $0 += 1 } }
      releaseFirst.send()
      first.join()

      // No commit: checks tell nothing.
      #expect(Self.waitForChecks(pool, after: Access.externalCheckCount(pool.core), count: 3))
      #expect(told.current == 0, "told of a commit that never happened")

      // One commit each time: told once each time, never missed.
      for commit in 1...3 {
        try writer.execute("INSERT INTO items DEFAULT VALUES")
        #expect(Self.waitForAtLeast(told, commit), "commit \(commit) was missed")
        #expect(Self.waitForChecks(pool, after: Access.externalCheckCount(pool.core), count: 2))
        #expect(told.current == commit, "after commit \(commit)")
      }
      #expect(failures.current == 0)
      cancellable.cancel()
    }
  }

  @Test func aReadWritePoolChecksWithoutTheWriter() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/read-write.db"
      let writer = try Self.makeDatabase(path)
      var configuration = Configuration()
      configuration.externalChangeCheckInterval = .milliseconds(1)
      let pool = try DatabasePool(path: path, configuration: configuration)

      let initial = Signal()
      let changed = Signal()
      let last = Locked<Int64>(-1)
      let cancellable = ValueObservation.tracking { db in try integer(db, "SELECT count(*) FROM items") }
        .start(in: pool, onError: { Issue.record("\($0)") }) { value in
          last.withLock { $0 = value }
          if value == 0 { initial.send() }
          if value == 1 { changed.send() }
        }
      #expect(initial.wait())

      // A long write block holds the pool's writer: checks go on meanwhile,
      // and another connection's commit is told and fetched before it ends.
      let holding = Signal()
      let releaseWriter = Signal()
      let block = TestThread("the long write block") {
        do {
          try pool.writeWithoutTransaction { _ in
            holding.send()
            #expect(releaseWriter.wait())
          }
        } catch {
          Issue.record("\(error)")
        }
      }
      #expect(holding.wait())
      let checked = Self.waitForChecks(pool, after: Access.externalCheckCount(pool.core), count: 2)
      try writer.execute("INSERT INTO items DEFAULT VALUES")
      let told = checked && changed.wait()
      releaseWriter.send()
      block.join()
      #expect(checked, "the checks waited for the writer")
      #expect(told, "the commit was told only after the write block")
      #expect(last.current == 1)
      cancellable.cancel()
    }
  }
}
