import Foundation
import SQLiteBridge
import Testing

/// `DatabasePool`: the switch to WAL, the refusals (in-memory, a read-only
/// file), a read-only pool, and checkpoints. (The concurrent behaviour is in
/// ConcurrentAccessTests.swift.)
@Suite("DatabasePool")
struct DatabasePoolTests {
  @Test func switchesTheFileToWAL() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/p.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
      #expect(try text(Database(path: path), "PRAGMA journal_mode") == "delete")

      let pool = try DatabasePool(path: path)
      #expect(try pool.read { db in try text(db, "PRAGMA journal_mode") } == "wal")
      try pool.write { db in try db.execute("INSERT INTO t VALUES (2)") }
      #expect(try pool.read { db in try integer(db, "SELECT sum(x) FROM t") } == 3)
      // It stays so for every connection.
      #expect(try text(Database(path: path), "PRAGMA journal_mode") == "wal")
    }
  }

  @Test(arguments: [":memory:", "", "file:shared?mode=memory&cache=shared"])
  func refusesAnInMemoryDatabaseAndSaysWhy(path: String) {
    let error = databaseError { _ = try DatabasePool(path: path) }
    #expect(error?.resultCode == .cantOpen)
    #expect(error?.message.contains("in-memory or temporary database") == true, "\(String(describing: error))")
    #expect(error?.message.contains("use a DatabaseQueue") == true, "\(String(describing: error))")
  }

  /// Root writes any file whatever its permissions, so the refusal cannot
  /// happen there.
  @Test(.enabled(if: getuid() != 0, "root writes a file without write permission"))
  func refusesAFileItCannotWrite() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/ro.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
      defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
      let error = databaseError { _ = try DatabasePool(path: path) }
      #expect(error?.resultCode == .readOnly)
      #expect(error?.message.contains("is read-only for this process") == true, "\(String(describing: error))")
      #expect(error?.message.contains(path) == true)
      // The file was not switched.
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
      #expect(try text(Database(path: path), "PRAGMA journal_mode") == "delete")
    }
  }

  /// The same refusal for a file opened read-only through a URI, which
  /// holds for root too.
  @Test func refusesAFileOpenedReadOnlyByURI() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/uri.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
      let error = databaseError { _ = try DatabasePool(path: "file:\(path)?mode=ro") }
      #expect(error?.resultCode == .readOnly, "\(String(describing: error))")
      #expect(error?.message.contains("Configuration::readOnly") == true, "\(String(describing: error))")
      #expect(try text(Database(path: path), "PRAGMA journal_mode") == "delete")
    }
  }

  @Test func aReadOnlyPoolReadsAndRefusesEveryWrite() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/r.db"
      try makeDatabaseFile(at: path, script: "CREATE TABLE t(x); INSERT INTO t VALUES (5);")
      var configuration = Configuration()
      configuration.readOnly = true
      let pool = try DatabasePool(path: path, configuration: configuration)
      #expect(try pool.read { db in try integer(db, "SELECT x FROM t") } == 5)
      // It never switches the mode.
      #expect(try pool.read { db in try text(db, "PRAGMA journal_mode") } == "delete")
      let write = databaseError { _ = try pool.write { db in try db.execute("DELETE FROM t") } }
      #expect(write?.resultCode == .readOnly)
      #expect(write?.message.contains("opened read-only") == true, "\(String(describing: write))")
      let unsafe = databaseError { _ = try pool.writeWithoutTransaction { db in try db.execute("DELETE FROM t") } }
      #expect(unsafe?.resultCode == .readOnly)
      let inRead = try pool.read { db in databaseError { try db.execute("DELETE FROM t") } }
      #expect(inRead?.resultCode == .readOnly)
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
    }
  }

  @Test func aTruncateCheckpointEmptiesTheLog() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/t.db"
      let pool = try DatabasePool(path: path)
      try pool.write { db in
        try db.execute("CREATE TABLE t(x)")
        for value in 0..<100 { try db.execute("INSERT INTO t VALUES (?)", [.integer(Int64(value))]) }
      }
      #expect(try walSize(path) > 0)
      try pool.checkpoint(.passive)
      try pool.checkpoint(.full)
      try pool.checkpoint(.restart)
      #expect(try walSize(path) > 0, "only truncate empties the file")
      try pool.checkpoint(.truncate)
      #expect(try walSize(path) == 0)
      // Everything is in the database file: a new connection reads it.
      #expect(try integer(Database(path: path), "SELECT count(*) FROM t") == 100)
      #expect(try pool.read { db in try integer(db, "SELECT sum(x) FROM t") } == 4950)
    }
  }

  /// A reader holding a snapshot older than the last commit keeps a full
  /// checkpoint from copying every frame: past the busy timeout it throws
  /// `.busy`; once the reader is gone it succeeds.
  @Test func aFullCheckpointIsBusyWhileAReaderHoldsAnOldSnapshot() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/f.db"
      var configuration = Configuration()
      configuration.busyTimeout = .milliseconds(50)
      let pool = try DatabasePool(path: path, configuration: configuration)
      try pool.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
      let inside = Signal()
      let release = Signal()
      let seen = Locked<Int64?>(nil)
      let reader = TestThread("the reader") {
        let count = try? pool.read { db -> Int64 in
          let count = try integer(db, "SELECT count(*) FROM t")
          inside.send()
          #expect(release.wait(), "the test did not release the reader")
          return count
        }
        seen.withLock { $0 = count }
      }
      #expect(inside.wait(), "the reader did not start")
      try pool.write { db in try db.execute("INSERT INTO t VALUES (2)") }
      let busy = databaseError { try pool.checkpoint(.full) }
      release.send()
      #expect(reader.join())
      #expect(busy?.resultCode == .busy, "\(String(describing: busy))")
      #expect(seen.current == 1)
      try pool.checkpoint(.truncate)
      #expect(try walSize(path) == 0)
      #expect(try integer(Database(path: path), "SELECT count(*) FROM t") == 2)
    }
  }

  @Test func aCheckpointInsideABlockThrowsMisuse() throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/m.db")
      try pool.write { db in try db.execute("CREATE TABLE t(x)") }
      let inRead = try pool.read { _ in databaseError { try pool.checkpoint(.passive) } }
      expectReentrantMisuse(inRead)
      let inWrite = try pool.write { db -> DatabaseError? in
        try db.execute("INSERT INTO t VALUES (1)")
        return databaseError { try pool.checkpoint(.truncate) }
      }
      expectReentrantMisuse(inWrite)
      // The write committed, and the pool still checkpoints.
      try pool.checkpoint(.truncate)
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
    }
  }

  /// Reentrancy is refused as on a queue, from sync and async blocks, and a
  /// `Database` that escaped its block is closed.
  @Test func reentrantAccessAndAnEscapedDatabaseThrowMisuse() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SQLiteBridgeTests-\(UUID().uuidString)", isDirectory: true).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let pool = try DatabasePool(path: directory + "/re.db")
    let escaped = Locked<[Database]>([])
    let errors = try syncReentrancy(pool, escaped)
    #expect(errors.count == 5)
    for error in errors { expectReentrantMisuse(error) }
    let fromAsync = try await pool.read { db -> DatabaseError? in
      escaped.withLock { $0.append(db) }
      return databaseError { try pool.read { _ in } }
    }
    expectReentrantMisuse(fromAsync)
    for database in escaped.current {
      #expect(databaseError { _ = try database.execute("SELECT 1") }?.resultCode == .misuse)
    }
    #expect(try await pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
  }

  /// The misuse errors of read in read, write in read, write in write, read
  /// in write and writeWithoutTransaction in write; the blocks' databases
  /// added to `escaped`.
  func syncReentrancy(_ pool: DatabasePool, _ escaped: Locked<[Database]>) throws -> [DatabaseError?] {
    var errors: [DatabaseError?] = []
    try pool.read { db in
      escaped.withLock { $0.append(db) }
      errors.append(databaseError { try pool.read { _ in } })
      errors.append(databaseError { try pool.write { _ in } })
    }
    try pool.write { db in
      escaped.withLock { $0.append(db) }
      try db.execute("CREATE TABLE t(x)")
      try db.execute("INSERT INTO t VALUES (1)")
      errors.append(databaseError { try pool.write { _ in } })
      errors.append(databaseError { try pool.read { _ in } })
      errors.append(databaseError { try pool.writeWithoutTransaction { _ in } })
    }
    return errors
  }

  /// The size in bytes of the `-wal` file next to `path`.
  func walSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path + "-wal")
    return (attributes[.size] as? NSNumber)?.intValue ?? -1
  }
}
