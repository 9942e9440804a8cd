import Foundation
import SQLiteBridge
import Testing

/// Undo and redo (`UndoHistory`): a thousand random transactions undone back
/// to the start and redone to the end, a step whose rows changed since
/// refused with nothing applied (or forced by a handler), the depth, new
/// writes clearing the redo steps, pauses, the writers it takes, and a pool
/// with readers running meanwhile. (UndoHistoryTests.cpp checks the same in
/// C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct UndoHistoryTests {
  private func rows(_ queue: DatabaseQueue) throws -> [[Row]] {
    try queue.read { db in try keyedRows(db) }
  }

  private func write(_ queue: DatabaseQueue, _ sql: String) throws {
    try queue.write { db in try db.executeScript(sql) }
  }

  @Test func aThousandTransactionsUndoneToTheStartAndRedoneToTheEnd() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try write(queue, changesetSchema)
    let history = try UndoHistory(queue, depth: 1000)
    #expect(!history.canUndo)
    let start = try rows(queue)
    var random = SeededGenerator(seed: 1000)
    for _ in 0..<1000 {
      try queue.write { db in
        for _ in 0...(random.next() % 3) { try randomWrite(db, &random) }
      }
    }
    let end = try rows(queue)
    // A transaction that changed nothing (a replace by the same row) is no step.
    let steps = history.undoCount
    #expect(steps > 900 && steps <= 1000, "\(steps) steps")
    var undone = 0
    while try history.undo() { undone += 1 }
    #expect(undone == steps)
    #expect(try rows(queue) == start)
    #expect(!history.canUndo)
    #expect(history.redoCount == steps)
    var redone = 0
    while try history.redo() { redone += 1 }
    #expect(redone == steps)
    #expect(try rows(queue) == end)
    #expect(history.undoCount == steps)
  }

  @Test func aStepWhoseRowsChangedSinceIsRefusedWithNothingApplied() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try write(queue, changesetSchema)
    let history = try UndoHistory(queue, tables: ["items"], depth: 10)
    try write(queue, "INSERT INTO items(id, t) VALUES (1, 'a'), (2, 'b');")
    try write(queue, "UPDATE items SET t = 'a2' WHERE id = 1; UPDATE items SET t = 'b2' WHERE id = 2;")
    #expect(history.undoCount == 2)
    // Another change to row 2, not recorded.
    try history.paused { try write(queue, "UPDATE items SET t = 'theirs' WHERE id = 2;") }
    #expect(history.undoCount == 2)
    let before = try rows(queue)
    let error = databaseError { try history.undo() }
    #expect(error?.resultCode == .abort)
    #expect(error?.message.contains("undo refused") == true, "\(String(describing: error))")
    #expect(error?.message.contains("data conflict") == true, "\(String(describing: error))")
    #expect(try rows(queue) == before)
    #expect(history.undoCount == 2)
    #expect(history.redoCount == 0)
    // A handler may force it; it is told the conflict.
    var told: [ChangesetConflict] = []
    #expect(
      try history.undo { conflict in
        told.append(conflict)
        return .replace
      })
    #expect(told.map(\.kind) == [.data])
    #expect(told.first?.operation?.table == "items")
    #expect(told.first?.conflictingValues?[3] == .text("theirs"))
    #expect(try queue.read { db in try db.rows("SELECT t FROM items ORDER BY id").map(\.values) } == [["a"], ["b"]])
    #expect(history.canRedo)
  }

  @Test func newWritesClearRedoAndTheDepthBoundsTheSteps() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try write(queue, changesetSchema)
    let history = try UndoHistory(queue, depth: 3)
    for id in 1...5 { try write(queue, "INSERT INTO items(id) VALUES (\(id));") }
    #expect(history.undoCount == 3)
    while try history.undo() {}
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM items") } == 2)
    #expect(history.redoCount == 3)
    #expect(try history.redo())
    try write(queue, "INSERT INTO tags(name) VALUES ('new');")
    #expect(!history.canRedo)
    #expect(try history.redo() == false)
    // Writes to keyless tables and read-only transactions are no steps.
    let steps = history.undoCount
    try write(queue, "INSERT INTO plain VALUES (1, 2);")
    _ = try queue.read { db in try db.execute("SELECT * FROM items") }
    #expect(history.undoCount == steps)
  }

  @Test func pausedWritesAreNoStepsAndAPauseEndsWhenTheBodyThrows() throws {
    struct Stop: Error {}
    let queue = try DatabaseQueue(path: ":memory:")
    try write(queue, changesetSchema)
    let history = try UndoHistory(queue)
    #expect(
      try history.paused {
        try write(queue, "INSERT INTO items(id) VALUES (1);")
        return 7
      } == 7)
    #expect(history.undoCount == 0)
    #expect(throws: Stop.self) {
      try history.paused {
        try write(queue, "INSERT INTO items(id) VALUES (2);")
        throw Stop()
      }
    }
    #expect(history.undoCount == 0)
    // Resumed: the next write is a step again.
    try write(queue, "INSERT INTO items(id) VALUES (3);")
    #expect(history.undoCount == 1)
    #expect(try history.undo())
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM items") } == 2)
  }

  @Test func refusesADepthBelowOneAMissingTableAKeylessOneAndAnotherWriter() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try write(queue, changesetSchema)
    #expect(databaseError { _ = try UndoHistory(queue, depth: 0) }?.resultCode == .misuse)
    #expect(databaseError { _ = try UndoHistory(queue, depth: -1) }?.resultCode == .misuse)
    let missing = databaseError { _ = try UndoHistory(queue, tables: ["nowhere"]) }
    #expect(missing?.message.contains("no such table: nowhere") == true, "\(String(describing: missing))")
    let keyless = databaseError { _ = try UndoHistory(queue, tables: ["plain"]) }
    #expect(keyless?.message.contains("no PRIMARY KEY") == true, "\(String(describing: keyless))")
    let other = databaseError { _ = try UndoHistory(ForwardingWriter(queue)) }
    #expect(other?.resultCode == .misuse)
    #expect(other?.message.contains("ForwardingWriter") == true, "\(String(describing: other))")
  }

  @Test func insideOneOfTheWritersBlocksUndoIsAMisuse() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try write(queue, changesetSchema)
    let history = try UndoHistory(queue)
    try write(queue, "INSERT INTO items(id) VALUES (1);")
    let error = try queue.write { _ in databaseError { try history.undo() } }
    #expect(error?.resultCode == .misuse)
    #expect(history.undoCount == 1)
  }

  @Test func theHistoryKeepsItsQueueAlive() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/kept.db"
      try makeDatabaseFile(at: path, script: changesetSchema)
      var queue: DatabaseQueue? = try DatabaseQueue(path: path)
      let history = try UndoHistory(queue!)
      try write(queue!, "INSERT INTO items(id) VALUES (1);")
      queue = nil
      #expect(try history.undo())
      #expect(try integer(Database(path: path), "SELECT count(*) FROM items") == 0)
    }
  }

  @Test func aPoolUndoesWhileReadersRead() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/pool.db"
      try makeDatabaseFile(at: path, script: changesetSchema)
      let pool = try DatabasePool(path: path)
      let history = try UndoHistory(pool)
      for id: Int64 in 0..<20 {
        try pool.write { db in
          try db.execute("INSERT INTO items(id, i) VALUES (?, ?)", [.integer(id), .integer(id * 10)])
        }
      }
      let done = Locked(false)
      let torn = Locked(false)
      let readsDone = Locked(0)
      // The undos start once each reader has read, so that they run while
      // the readers read however the threads are scheduled.
      let reading = Latch(2)
      let readers = (0..<2).map { index in
        TestThread("reader \(index)") {
          var firstRead = true
          defer { if firstRead { reading.countDown() } }
          while !done.current {
            // Each step inserts one row with i = id * 10: a snapshot never
            // sees another row.
            do {
              let bad = try pool.read { db in try integer(db, "SELECT count(*) FROM items WHERE i IS NOT id * 10") }
              if bad != 0 { torn.withLock { $0 = true } }
              readsDone.withLock { $0 += 1 }
            } catch {
              torn.withLock { $0 = true }
            }
            if firstRead {
              firstRead = false
              reading.countDown()
            }
          }
        }
      }
      // However the undos and redos end, the readers stop and are joined
      // before anything is thrown.
      var failure: (any Error)?
      #expect(reading.wait(), "the readers did not read")
      do {
        for _ in 0..<20 { #expect(try history.undo()) }
        #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM items") } == 0)
        for _ in 0..<20 { #expect(try history.redo()) }
      } catch {
        failure = error
      }
      done.withLock { $0 = true }
      for reader in readers { reader.join() }
      if let failure { throw failure }
      #expect(!torn.current)
      #expect(readsDone.current >= 2)
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM items") } == 20)
    }
  }
}
