import Foundation
import SQLiteBridge
import Testing

/// `DatabasePool.makeSnapshot()` and `DatabaseSnapshot` (issue 39): reads that
/// see the database as it was when the snapshot was made, across commits and
/// PASSIVE checkpoints; an empty write-ahead log (a fresh pool, after a
/// TRUNCATE checkpoint); two reads of one snapshot at once (forced with a
/// latch); writes refused; a snapshot outliving its pool. Without the
/// snapshot API (the system SQLite here), each test checks the clear error
/// instead. Every wait is bounded.
@Suite("DatabaseSnapshot")
struct DatabaseSnapshotTests {
  /// A pool on `<directory>/pool.db` holding table t(x).
  func makePool(_ directory: String, configuration: Configuration = .init()) throws -> DatabasePool {
    let pool = try DatabasePool(path: directory + "/pool.db", configuration: configuration)
    try pool.write { db in try db.execute("CREATE TABLE IF NOT EXISTS t(x INTEGER)") }
    return pool
  }

  func insert(_ pool: DatabasePool, _ x: Int) throws {
    try pool.write { db in try db.execute("INSERT INTO t VALUES (?)", [.integer(Int64(x))]) }
  }

  func count(_ pool: DatabasePool) throws -> Int64 { try pool.read { db in try integer(db, "SELECT count(*) FROM t") } }

  func count(_ snapshot: DatabaseSnapshot) throws -> Int64 {
    try snapshot.read { db in try integer(db, "SELECT count(*) FROM t") }
  }

  /// The pool's snapshot; nil (after checking the error says why) when the
  /// linked SQLite has no snapshot API.
  func snapshot(of pool: DatabasePool, sourceLocation: SourceLocation = #_sourceLocation) throws -> DatabaseSnapshot? {
    if DatabaseSnapshot.isAvailable { return try pool.makeSnapshot() }
    let error = databaseError { _ = try pool.makeSnapshot() }
    #expect(error?.resultCode == .error, sourceLocation: sourceLocation)
    #expect(error?.message.contains("SQLITE_ENABLE_SNAPSHOT") == true, sourceLocation: sourceLocation)
    #expect(
      error?.message.contains(Database.sqliteVersion) == true, "\(String(describing: error))",
      sourceLocation: sourceLocation)
    return nil
  }

  func walIsEmpty(_ directory: String) -> Bool {
    let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/pool.db-wal")[.size] as? Int) ?? 0
    return size == 0
  }

  @Test func readsSeeTheStateOfMakeSnapshotAcrossCommitsAndPassiveCheckpoints() throws {
    try withTemporaryDirectory { directory in
      let pool = try makePool(directory)
      try insert(pool, 0)
      guard let snapshot = try snapshot(of: pool) else { return }
      for x in 1...50 { try insert(pool, x) }
      try pool.checkpoint(.passive)
      // Commits after the checkpoint, where the writer would restart the log.
      for x in 1...50 { try insert(pool, -x) }
      try pool.checkpoint(.passive)
      try insert(pool, 1000)
      #expect(try count(snapshot) == 1)
      #expect(try count(pool) == 102)
    }
  }

  @Test func aSnapshotOfAFreshPoolWhoseLogIsEmpty() throws {
    try withTemporaryDirectory { directory in
      do {
        let pool = try makePool(directory)
        try insert(pool, 1)
        try pool.checkpoint(.truncate)
      }
      let pool = try DatabasePool(path: directory + "/pool.db")
      #expect(walIsEmpty(directory))
      guard let snapshot = try snapshot(of: pool) else { return }
      try insert(pool, 2)
      try pool.checkpoint(.passive)
      try insert(pool, 3)
      #expect(try count(snapshot) == 1)
      #expect(try count(pool) == 3)
    }
  }

  @Test func aSnapshotRightAfterATruncateCheckpoint() throws {
    try withTemporaryDirectory { directory in
      let pool = try makePool(directory)
      try insert(pool, 1)
      try insert(pool, 2)
      try pool.checkpoint(.truncate)
      #expect(walIsEmpty(directory))
      guard let snapshot = try snapshot(of: pool) else { return }
      for x in 3...10 { try insert(pool, x) }
      try pool.checkpoint(.passive)
      #expect(try count(snapshot) == 2)
      #expect(try count(pool) == 10)
    }
  }

  /// Each read waits inside its block until both are inside: it can only end
  /// if the snapshot lets them run at once.
  @Test func twoReadsOfOneSnapshotRunAtOnce() throws {
    try withTemporaryDirectory { directory in
      var configuration = Configuration()
      configuration.maximumReaderCount = 2
      let pool = try makePool(directory, configuration: configuration)
      try insert(pool, 1)
      guard let snapshot = try snapshot(of: pool) else { return }
      try insert(pool, 2)
      let bothInside = Latch(2)
      let seen = Locked<[Int64]>([])
      let failures = Locked<[String]>([])
      let threads = (0..<2).map { index in
        TestThread("read \(index)") {
          do {
            let value = try snapshot.read { db in
              if !bothInside.arriveAndWait() { failures.withLock { $0.append("read \(index): alone") } }
              return try integer(db, "SELECT count(*) FROM t")
            }
            seen.withLock { $0.append(value) }
          } catch {
            failures.withLock { $0.append("read \(index): \(error)") }
          }
        }
      }
      for thread in threads { thread.join() }
      #expect(failures.withLock { $0 } == [])
      #expect(seen.withLock { $0 } == [1, 1])
    }
  }

  /// The async read, twice at once on one snapshot.
  @Test func asyncReadsOfASnapshotRunAtOnceAndSeeItsState() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = Configuration()
    configuration.maximumReaderCount = 2
    let pool = try makePool(directory, configuration: configuration)
    try insert(pool, 1)
    guard let snapshot = try snapshot(of: pool) else { return }
    try insert(pool, 2)
    let bothInside = Latch(2)
    async let first = snapshot.read { db in
      (bothInside.arriveAndWait(), try integer(db, "SELECT count(*) FROM t"))
    }
    async let second = snapshot.read { db in
      (bothInside.arriveAndWait(), try integer(db, "SELECT count(*) FROM t"))
    }
    let (a, b) = try await (first, second)
    #expect(a.0 && b.0, "the two reads did not overlap")
    #expect(a.1 == 1 && b.1 == 1)
  }

  @Test func aWriteInsideASnapshotReadThrowsReadOnly() throws {
    try withTemporaryDirectory { directory in
      let pool = try makePool(directory)
      try insert(pool, 1)
      guard let snapshot = try snapshot(of: pool) else { return }
      let error = databaseError { try snapshot.read { db in _ = try db.execute("INSERT INTO t VALUES (2)") } }
      #expect(error?.resultCode == .readOnly, "\(String(describing: error))")
      #expect(try count(snapshot) == 1)
      #expect(try count(pool) == 1)
    }
  }

  @Test func readsOfASnapshotWhosePoolIsGoneThrowMisuse() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var pool: DatabasePool? = try makePool(directory)
    try insert(pool!, 1)
    guard let snapshot = try snapshot(of: pool!) else { return }
    pool = nil
    let error = databaseError { _ = try snapshot.read { _ in 1 } }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(error?.message.contains("closed") == true, "\(String(describing: error))")
    do {
      _ = try await snapshot.read { _ in 1 }
      Issue.record("an async read of a snapshot whose pool is gone ran")
    } catch let error as DatabaseError {
      #expect(error.resultCode != .ok)
    }
  }

  @Test func makeSnapshotInsideABlockOfThePoolIsReentrantMisuse() throws {
    try withTemporaryDirectory { directory in
      let pool = try makePool(directory)
      guard DatabaseSnapshot.isAvailable else { return }
      let error = databaseError { try pool.read { _ in _ = try pool.makeSnapshot() } }
      expectReentrantMisuse(error)
    }
  }
}
