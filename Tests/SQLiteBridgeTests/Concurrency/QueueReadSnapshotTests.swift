import Foundation
import SQLiteBridge
import Testing

/// `DatabaseQueue.read` reads one snapshot (the core's queue runs the block
/// in a read transaction, as a pool's reader): a commit of another
/// connection or process never lands between two of its statements, in the
/// blocking and the async read and in an observation's fetch; the
/// transaction ends with the block however it ends, and the block still
/// cannot write.
@Suite("Queue read snapshot")
struct QueueReadSnapshotTests {
  /// A queue on a file in `journalMode` holding one row, in `directory`,
  /// and another connection to the file (as another process would hold)
  /// that never waits for a lock.
  static func makeQueue(_ journalMode: JournalMode, in directory: String) throws -> (
    DatabaseQueue, Locked<Database>
  ) {
    let path = directory + "/snapshot.db"
    var configuration = Configuration()
    configuration.journalMode = journalMode
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in
      try db.executeScript("CREATE TABLE items(id INTEGER PRIMARY KEY); INSERT INTO items DEFAULT VALUES;")
    }
    var otherConfiguration = Configuration()
    otherConfiguration.busyTimeout = .zero
    return (queue, Locked(try Database(path: path, configuration: otherConfiguration)))
  }

  func withQueue(_ journalMode: JournalMode, _ body: (DatabaseQueue, Locked<Database>) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let (queue, other) = try Self.makeQueue(journalMode, in: directory)
      try body(queue, other)
    }
  }

  /// Another connection's insert: true when it committed; false when it met
  /// the block's read lock (SQLITE_BUSY at once).
  static func insert(_ other: Locked<Database>) -> Bool {
    other.withLock { db in
      do {
        try db.execute("INSERT INTO items DEFAULT VALUES")
        return true
      } catch let error as DatabaseError {
        #expect(error.resultCode == .busy)
        return false
      } catch {
        Issue.record("unexpected \(error)")
        return false
      }
    }
  }

  @Test(arguments: [JournalMode.wal, .delete])
  func aCommitOfAnotherConnectionNeverLandsBetweenTwoStatementsOfARead(journalMode: JournalMode) throws {
    try withQueue(journalMode) { queue, other in
      let (first, committed, second) = try queue.read { db in
        let first = try integer(db, "SELECT count(*) FROM items")
        // In WAL the other connection commits beside the block, which keeps
        // its snapshot; with a rollback journal the block's lock keeps it out.
        let committed = Self.insert(other)
        return (first, committed, try integer(db, "SELECT count(*) FROM items"))
      }
      #expect(first == 1)
      #expect(second == 1, "the block's second statement saw another snapshot")
      #expect(committed == (journalMode == .wal))
      #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM items") } == (committed ? 2 : 1))
    }
  }

  @Test(arguments: [JournalMode.wal, .delete])
  func anAsyncReadReadsOneSnapshotToo(journalMode: JournalMode) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SQLiteBridgeTests-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (queue, other) = try Self.makeQueue(journalMode, in: directory)
    // On the queue's own thread, in the same kind of transaction.
    let counts = try await queue.read { db in
      let first = try integer(db, "SELECT count(*) FROM items")
      _ = Self.insert(other)
      return [first, try integer(db, "SELECT count(*) FROM items")]
    }
    #expect(counts == [1, 1], "the async block's second statement saw another snapshot")
  }

  @Test(arguments: [JournalMode.wal, .delete])
  func anObservationFetchOnAQueueReadsOneSnapshot(journalMode: JournalMode) throws {
    try withQueue(journalMode) { queue, other in
      let fetched = Locked<[[Int64]]>([])
      let otherCommitted = Locked<Bool?>(nil)
      let delivered = Locked<[Int64]>([])
      let last = Locked<Int64?>(nil)
      let done = Signal()
      let firstFetched = Signal()
      let cancellable = ValueObservation.tracking { db -> Int64 in
        let first = try integer(db, "SELECT count(*) FROM items")
        // The first fetch is cut in two by another connection's commit.
        let isFirst = otherCommitted.current == nil
        if isFirst { otherCommitted.withLock { $0 = Self.insert(other) } }
        let second = try integer(db, "SELECT count(*) FROM items")
        fetched.withLock { $0.append([first, second]) }
        if isFirst { firstFetched.send() }
        return second
      }.start(in: queue, onError: { Issue.record("\($0)") }) { value in
        delivered.withLock { $0.append(value) }
        if let expected = last.current, value == expected { done.send() }
      }
      // A commit of the queue itself makes another fetch.
      try queue.write { db in try db.execute("INSERT INTO items DEFAULT VALUES") }
      // Once the first fetch ran, the last count is known.
      #expect(firstFetched.wait(), "the first fetch never ran")
      let expected: Int64 = otherCommitted.current == true ? 3 : 2
      last.withLock { $0 = expected }
      if delivered.current.last != expected { #expect(done.wait(), "the last count was never delivered") }
      cancellable.cancel()
      #expect(otherCommitted.current == (journalMode == .wal))
      // The first fetch is the one the commit cut in two; later ones may
      // still run.
      #expect(!fetched.current.isEmpty)
      for pair in fetched.current { #expect(pair[0] == pair[1], "a fetch read two snapshots: \(pair)") }
    }
  }

  @Test(arguments: [JournalMode.wal, .delete])
  func theReadTransactionEndsWithTheBlockHoweverItEnds(journalMode: JournalMode) throws {
    try withQueue(journalMode) { queue, other in
      try queue.read { db in
        #expect(db.isInTransaction, "the read runs in a transaction")
        #expect(throws: DatabaseError.self) { try db.execute("SELECT nothing FROM nowhere") }
        #expect(db.isInTransaction, "a failed statement does not end it")
      }
      #expect(try !queue.writeWithoutTransaction { db in db.isInTransaction })
      #expect(throws: BlockError.self) {
        try queue.read { db in
          #expect(try integer(db, "SELECT count(*) FROM items") == 1)
          throw BlockError(id: 1)
        }
      }
      #expect(try !queue.writeWithoutTransaction { db in db.isInTransaction })
      // A block that writes or begins a transaction of its own is refused.
      let refused = try queue.read { db in
        [
          databaseError { try db.execute("INSERT INTO items DEFAULT VALUES") }?.resultCode,
          databaseError { try db.execute("BEGIN") }?.resultCode,
        ]
      }
      #expect(refused == [.readOnly, .error])
      try queue.write { db in try db.execute("INSERT INTO items DEFAULT VALUES") }
      // No lock outlived the blocks.
      #expect(Self.insert(other))
      #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM items") } == 3)
    }
  }
}
