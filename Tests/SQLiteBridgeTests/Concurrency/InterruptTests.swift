import Foundation
import SQLiteBridge
import Testing

/// `interrupt()` from another thread, on a `Database`, a `DatabaseQueue` and
/// a `DatabasePool`: the running statement throws `.interrupt`, a write is
/// rolled back, and the connection is usable afterwards.
@Suite("Interrupt")
struct InterruptTests {
  @Test func interruptsAPlainDatabaseFromAnotherThread() throws {
    let database = try memoryDatabase()
    // Database is not Sendable; interrupt() is its one method safe from
    // another thread.
    let shared = Locked(database)
    let interrupt: @Sendable () -> Void = { shared.current.interrupt() }
    let error = interruptUntilReturns(interrupt) { started in
      let database = shared.current
      started.send()
      try database.execute(endlessQuery)
    }
    #expect((error as? DatabaseError)?.resultCode == .interrupt, "\(String(describing: error))")
    #expect(try integer(database, "SELECT 1 + 1") == 2)
  }

  @Test func interruptsAQueueRead() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    let interrupt: @Sendable () -> Void = { queue.interrupt() }
    let error = interruptUntilReturns(interrupt) { started in
      try queue.read { db in
        started.send()
        try db.execute(endlessQuery)
      }
    }
    #expect((error as? DatabaseError)?.resultCode == .interrupt, "\(String(describing: error))")
    #expect(try queue.read { db in try integer(db, "SELECT 1 + 1") } == 2)
  }

  @Test func interruptsAPoolRead() throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/i.db")
      try pool.write { db in try db.execute("CREATE TABLE t(x)") }
      let interrupt: @Sendable () -> Void = { pool.interrupt() }
      let error = interruptUntilReturns(interrupt) { started in
        try pool.read { db in
          started.send()
          try db.execute(endlessQuery)
        }
      }
      #expect((error as? DatabaseError)?.resultCode == .interrupt, "\(String(describing: error))")
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 0)
    }
  }

  /// An interrupted write throws `.interrupt` and rolls back what it did
  /// before; the next write commits.
  @Test(arguments: SharedKind.allCases)
  func anInterruptedWriteIsRolledBack(_ kind: SharedKind) throws {
    try withTemporaryDirectory { directory in
      let shared = try SharedAccess.open(kind, path: directory + "/w.db")
      let (write, read, interrupt) = (shared.write, shared.read, shared.interrupt)
      try write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
      let error = interruptUntilReturns(interrupt) { started in
        try write { db in
          try db.execute("INSERT INTO t VALUES (2)")
          started.send()
          try db.execute(endlessQuery)
        }
      }
      #expect((error as? DatabaseError)?.resultCode == .interrupt, "\(String(describing: error))")
      #expect(try read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
      try write { db in try db.execute("INSERT INTO t VALUES (3)") }
      #expect(try read { db in try integer(db, "SELECT sum(x) FROM t") } == 4)
    }
  }

  /// `interrupt()` when nothing runs does nothing: the next statement runs.
  @Test func anInterruptWithNothingRunningIsForgotten() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    queue.interrupt()
    #expect(try queue.read { db in try integer(db, "SELECT 3") } == 3)
    let database = try memoryDatabase()
    database.interrupt()
    #expect(try integer(database, "SELECT 4") == 4)
  }
}
