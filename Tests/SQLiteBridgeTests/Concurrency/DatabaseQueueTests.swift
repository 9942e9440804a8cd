import Foundation
import SQLiteBridge
import Testing

/// `DatabaseQueue`: opening, read (read-only), write (commit, rollback, the
/// block's error unchanged), writeWithoutTransaction, reentrancy refused, a
/// `Database` that escaped its block, and the configuration.
@Suite("DatabaseQueue")
struct DatabaseQueueTests {
  @Test func opensByPathAndByName() throws {
    try withTemporaryDirectory { directory in
      let byPath = try DatabaseQueue(path: directory + "/path.db")
      try byPath.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
      #expect(try byPath.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
      #expect(fileExists(directory + "/path.db"))

      let location = DatabaseLocation(documentsDirectory: directory)
      let byName = try DatabaseQueue(
        name: "named.db", createSQL: "CREATE TABLE n(y); INSERT INTO n VALUES (7)", location: location)
      #expect(try byName.read { db in try integer(db, "SELECT y FROM n") } == 7)
      #expect(fileExists(directory + "/named.db"))
      // Opened again by name: the file is kept, not made anew.
      let again = try DatabaseQueue(name: "named.db", createSQL: "CREATE TABLE other(z)", location: location)
      #expect(try again.read { db in try tableNames(db) } == ["n"])
    }
  }

  @Test func anOpenFailureThrowsTheCode() throws {
    try withTemporaryDirectory { directory in
      let byPath = databaseError { _ = try DatabaseQueue(path: directory + "/missing/dir/q.db") }
      #expect(byPath?.resultCode == .cantOpen)
      #expect(byPath?.code == 14)

      var configuration = Configuration()
      configuration.readOnly = true
      let byName = databaseError {
        _ = try DatabaseQueue(
          name: "absent.db", location: DatabaseLocation(documentsDirectory: directory), configuration: configuration)
      }
      #expect(byName?.resultCode == .cantOpen)
      let contents = try directoryContents(directory)
      #expect(contents == [])
    }
  }

  @Test func readReturnsTheValueAndIsReadOnly() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try queue.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (41)") }
    #expect(try queue.read { db in try integer(db, "SELECT x + 1 FROM t") } == 42)

    let error = try queue.read { db in databaseError { try db.execute("INSERT INTO t VALUES (2)") } }
    #expect(error?.resultCode == .readOnly, "\(String(describing: error))")
    // Thrown out of the block, too.
    let thrown = databaseError { _ = try queue.read { db in try db.execute("DELETE FROM t") } }
    #expect(thrown?.resultCode == .readOnly)
    // The queue writes afterwards.
    try queue.write { db in try db.execute("INSERT INTO t VALUES (3)") }
    #expect(try queue.read { db in try integer(db, "SELECT sum(x) FROM t") } == 44)
  }

  @Test func writeCommitsWhenTheBlockReturnsAndRollsBackWhenItThrows() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    let value = try queue.write { db -> String in
      try db.execute("CREATE TABLE t(x UNIQUE)")
      try db.execute("INSERT INTO t VALUES (1)")
      #expect(db.isInTransaction)
      return "done"
    }
    #expect(value == "done")
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)

    do {
      try queue.write { db in
        try db.execute("INSERT INTO t VALUES (2)")
        throw BlockError(id: 12)
      }
      Issue.record("the block's error was not rethrown")
    } catch let error as BlockError {
      #expect(error == BlockError(id: 12))
    }
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)

    // A failed statement thrown out of the block rolls back the rest too.
    let error = databaseError {
      try queue.write { db in
        try db.execute("INSERT INTO t VALUES (3)")
        try db.execute("INSERT INTO t VALUES (1)")
      }
    }
    #expect(error?.resultCode == .constraint)
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t WHERE x = 1") } == 1)
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
  }

  /// Swift reports a failed statement by throwing: a block that caught the
  /// error meant to go on, so the transaction commits (ConnectionLeasing,
  /// `ConcurrencyAccess::finish`).
  @Test func aDatabaseErrorCaughtInsideTheBlockDoesNotPreventTheCommit() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try queue.write { db in try db.executeScript("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1)") }
    let caught = try queue.write { db -> DatabaseError? in
      try db.execute("INSERT INTO t VALUES (2)")
      let error = databaseError { try db.execute("INSERT INTO t VALUES (1)") }
      try db.execute("INSERT INTO t VALUES (3)")
      return error
    }
    #expect(caught?.resultCode == .constraint)
    #expect(try queue.read { db in try integer(db, "SELECT sum(x) FROM t") } == 6)
  }

  /// A statement on which SQLite rolls the whole transaction back itself
  /// (RAISE(ROLLBACK) here; SQLITE_FULL or an I/O error may too): thrown out
  /// of the block, the write throws it; caught inside, the write cannot
  /// commit and throws it all the same. The C++ twin is
  /// `QueueTest.WriteReportsTheFailedStatementWhenSQLiteRolledTheTransactionBack`.
  @Test func aStatementSQLiteRolledBackForIsTheWritesError() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try queue.write { db in
      try db.executeScript(
        "CREATE TABLE t(x); CREATE TRIGGER refuse BEFORE INSERT ON t WHEN NEW.x < 0 "
          + "BEGIN SELECT RAISE(ROLLBACK, 'refused'); END")
    }
    let thrown = databaseError {
      try queue.write { db in
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("INSERT INTO t VALUES (-1)")
      }
    }
    #expect(thrown?.extendedCode == 1811)  // SQLITE_CONSTRAINT_TRIGGER
    #expect(thrown?.message == "refused")
    let caught = databaseError {
      try queue.write { db in
        try db.execute("INSERT INTO t VALUES (2)")
        _ = databaseError { try db.execute("INSERT INTO t VALUES (-2)") }
      }
    }
    #expect(caught?.extendedCode == 1811)
    #expect(caught?.message == "refused")
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 0)
  }

  @Test func writeWithoutTransactionRunsOutsideATransaction() throws {
    try withTemporaryDirectory { directory in
      let queue = try DatabaseQueue(path: directory + "/w.db")
      try queue.writeWithoutTransaction { db in
        #expect(!db.isInTransaction)
        try db.execute("CREATE TABLE t(x)")
        // What cannot run in a transaction.
        try db.execute("VACUUM")
        try db.execute("BEGIN")
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("COMMIT")
      }
      // A transaction the block leaves open is rolled back.
      let left = try queue.writeWithoutTransaction { db -> Int in
        try db.execute("BEGIN")
        try db.execute("INSERT INTO t VALUES (2)")
        return 5
      }
      #expect(left == 5)
      #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t WHERE x = 1") } == 1)
      #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
      try queue.write { db in #expect(db.isInTransaction) }
    }
  }

  @Test func reentrantAccessThrowsMisuseInsteadOfDeadlocking() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try queue.write { db in try db.execute("CREATE TABLE t(x)") }
    try queue.read { _ in
      expectReentrantMisuse(databaseError { try queue.read { _ in } })
      expectReentrantMisuse(databaseError { try queue.write { _ in } })
      expectReentrantMisuse(databaseError { try queue.writeWithoutTransaction { _ in } })
    }
    try queue.write { db in
      try db.execute("INSERT INTO t VALUES (1)")
      expectReentrantMisuse(databaseError { try queue.write { _ in } })
      expectReentrantMisuse(databaseError { try queue.read { _ in } })
    }
    // The queue works afterwards, and the write above committed.
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
  }

  /// An async block runs on the queue's own thread: a sync read there is
  /// reentrant too.
  @Test func aSyncCallInsideAnAsyncBlockThrowsMisuse() async throws {
    let queue = try DatabaseQueue(path: ":memory:")
    let inRead = try await queue.read { _ in databaseError { try queue.read { _ in } } }
    expectReentrantMisuse(inRead)
    let inWrite = try await queue.write { db -> DatabaseError? in
      try db.execute("CREATE TABLE t(x)")
      return databaseError { try queue.write { _ in } }
    }
    expectReentrantMisuse(inWrite)
    #expect(try await queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 0)
  }

  @Test func aDatabaseThatEscapedItsBlockThrowsMisuse() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    var escaped: Database?
    try queue.write { db in
      try db.execute("CREATE TABLE t(x)")
      escaped = db
    }
    let database = try #require(escaped)
    let error = databaseError { try database.execute("INSERT INTO t VALUES (1)") }
    #expect(error?.resultCode == .misuse)
    #expect(!database.isOpen)
    let read = try queue.read { db in
      escaped = db
      return try integer(db, "SELECT count(*) FROM t")
    }
    #expect(read == 0)
    #expect(databaseError { _ = try escaped?.execute("SELECT 1") }?.resultCode == .misuse)
    // The queue's connection is not the one closed.
    #expect(try queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 0)
  }

  @Test func honoursTheConfiguration() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/c.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(p REFERENCES p)")

      let defaults = try DatabaseQueue(path: path)
      #expect(try defaults.read { db in db.busyTimeout } == .seconds(5))
      #expect(try defaults.read { db in try integer(db, "PRAGMA foreign_keys") } == 1)
      let refused = databaseError { _ = try defaults.write { db in try db.execute("INSERT INTO c VALUES (9)") } }
      #expect(refused?.extendedResultCode == .constraintForeignKey)

      var configuration = Configuration()
      configuration.busyTimeout = .milliseconds(250)
      configuration.foreignKeysEnabled = false
      let configured = try DatabaseQueue(path: path, configuration: configuration)
      #expect(try configured.read { db in db.busyTimeout } == .milliseconds(250))
      #expect(try configured.read { db in try integer(db, "PRAGMA foreign_keys") } == 0)
      try configured.write { db in try db.execute("INSERT INTO c VALUES (9)") }

      configuration.readOnly = true
      let readOnly = try DatabaseQueue(path: path, configuration: configuration)
      #expect(try readOnly.read { db in try integer(db, "SELECT count(*) FROM c") } == 1)
      let error = databaseError { _ = try readOnly.write { db in try db.execute("DELETE FROM c") } }
      #expect(error?.resultCode == .readOnly)
      #expect(try readOnly.read { db in try integer(db, "SELECT count(*) FROM c") } == 1)
    }
  }
}
