import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Testing
import Testing

@testable import SQLiteBridge

/// `ValueObservation` on a `DatabasePool` reads, after a commit, the state
/// that commit left: through a snapshot taken on the writer right after it
/// where the engine has the snapshot API (`DatabaseSnapshot.isAvailable`),
/// with a fresh read when a checkpoint went past that snapshot, and with
/// today's fresh read on an engine without the API. The fetch never waits
/// for the writer. (ValueObservationTests.cpp checks the same in C++.)
@Suite("ValueObservation on a pool, commit snapshots")
struct PoolObservationSnapshotTests {
  typealias Access = sqlitebridge.interop.ConcurrencyTesting

  /// The thread wait limit, in the milliseconds the core's hooks take.
  static let waitMilliseconds = threadWaitLimit.components.seconds * 1000

  /// A pool with one reader, so that a held reader holds every fetch back.
  static func oneReader() -> Configuration {
    var configuration = Configuration()
    configuration.maximumReaderCount = 1
    return configuration
  }

  /// Holds the pool's reader on a thread of its own, without a read
  /// transaction (it pins nothing, so checkpoints pass it), until released.
  final class HeldReader: Sendable {
    private let held = Signal()
    private let releasing = Signal()
    private let failed = Locked<String?>(nil)
    private let thread: TestThread

    init(_ pool: DatabasePool) {
      let held = held
      let releasing = releasing
      let failed = failed
      thread = TestThread("held reader") {
        do {
          try pool.read { db in
            try db.execute("COMMIT")
            held.send()
            if !releasing.wait() { failed.withLock { $0 = "the reader was never released" } }
          }
        } catch {
          failed.withLock { $0 = "the held read failed: \(error)" }
        }
      }
    }

    func waitUntilHeld() -> Bool { held.wait() }

    /// Releases the reader and waits for its thread; the failure, if any.
    func release() -> String? {
      releasing.send()
      thread.join()
      return failed.current
    }
  }

  static func insertItem(_ pool: DatabasePool) throws {
    try pool.write { try $0.execute("INSERT INTO items DEFAULT VALUES") }
  }

  static func withPool(_ configuration: Configuration = .init(), _ body: (DatabasePool) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/snapshots.db", configuration: configuration)
      try pool.write { try $0.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY); CREATE TABLE other(x)") }
      try body(pool)
    }
  }

  @Test func theFetchAfterACommitDeliversItWhileTheWriterIsHeld() throws {
    try Self.withPool { pool in
      let values = DeliveredValues<Int64>()
      let cancellable = countObservation("SELECT count(*) FROM items").start(
        in: pool, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(0))
      try Self.insertItem(pool)
      // Right after the commit, the writer is taken again and held (with a
      // change of its own not committed yet) until the commit's value came.
      let deliveredWhileHeld = try pool.write { db -> Bool in
        try db.execute("INSERT INTO items DEFAULT VALUES")
        return values.waitForLast(1)
      }
      #expect(deliveredWhileHeld, "the fetch after the first commit waited for the writer")
      #expect(values.waitForLast(2))
      #expect(values.all == [0, 1, 2])
      #expect(values.errors.isEmpty)
      cancellable.cancel()
    }
  }

  @Test func aFetchDelayedPastALaterCommitReadsTheCommitItFollows() throws {
    try Self.withPool(Self.oneReader()) { pool in
      let values = DeliveredValues<Int64>()
      let cancellable = countObservation("SELECT count(*) FROM items").start(
        in: pool, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(0))
      // The first value is delivered before its fetch is done: a commit
      // before that would be folded into it rather than start a fetch of its
      // own.
      let idle = Access.waitUntilObservationsIdle(pool.core, Self.waitMilliseconds)
      #expect(idle, "the first fetch did not end")
      let opened = Access.observationSnapshotFetchCount(pool.core)
      let reader = HeldReader(pool)
      #expect(reader.waitUntilHeld())
      // The fetch the first commit schedules waits for the reader until the
      // second commit is in.
      try Self.insertItem(pool)
      try Self.insertItem(pool)
      #expect(reader.release() == nil)
      #expect(values.waitForCount(3))
      #expect(values.errors.isEmpty)
      if DatabaseSnapshot.isAvailable {
        // Each fetch read the state its commit left: 1, then 2.
        #expect(values.all == [0, 1, 2])
        #expect(Access.observationSnapshotFetchCount(pool.core) - opened == 2)
        #expect(Access.observationSnapshotFallbackCount(pool.core) == 0)
      } else {
        // Without the snapshot API the delayed fetch reads the database as
        // it is then (2), and the second commit's fetch reads 2 again.
        #expect(values.all == [0, 2, 2])
        #expect(Access.observationSnapshotFetchCount(pool.core) == 0)
      }
      cancellable.cancel()
    }
  }

  @Test func aCheckpointPastTheCommitsSnapshotFallsBackToAFreshReadOfTheRightValue() throws {
    try Self.withPool(Self.oneReader()) { pool in
      let values = DeliveredValues<Int64>()
      let cancellable = countObservation("SELECT count(*) FROM items").start(
        in: pool, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(0))
      // The first value is delivered before its fetch is done: a commit
      // before that would be folded into it rather than start a fetch of its
      // own.
      let idle = Access.waitUntilObservationsIdle(pool.core, Self.waitMilliseconds)
      #expect(idle, "the first fetch did not end")
      let reader = HeldReader(pool)
      #expect(reader.waitUntilHeld())
      try Self.insertItem(pool)
      // Between the commit and its fetch: every frame of the log copied into
      // the database, then a write elsewhere, which starts the log over: the
      // commit's snapshot cannot be opened any more.
      let checkpoint = try pool.writeWithoutTransaction { db in
        try db.execute("PRAGMA wal_checkpoint(PASSIVE)").first
      }
      #expect(checkpoint?["busy"] == .integer(0), "the checkpoint was not blocked")
      #expect(checkpoint?["log"] == checkpoint?["checkpointed"], "every frame was copied")
      try pool.write { try $0.execute("INSERT INTO other VALUES (1)") }
      #expect(reader.release() == nil)
      #expect(values.waitForCount(2))
      // A later commit still reads its own snapshot.
      try Self.insertItem(pool)
      #expect(values.waitForLast(2))
      #expect(values.all == [0, 1, 2])
      #expect(values.errors.isEmpty)
      let fallbacks = Access.observationSnapshotFallbackCount(pool.core)
      let opened = Access.observationSnapshotFetchCount(pool.core)
      if DatabaseSnapshot.isAvailable {
        #expect(fallbacks == 1)
        #expect(opened >= 1)
      } else {
        #expect(fallbacks == 0)
        #expect(opened == 0)
      }
      cancellable.cancel()
    }
  }
}
