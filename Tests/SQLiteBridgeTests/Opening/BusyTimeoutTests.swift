import Foundation
import SQLiteBridge
import Testing

/// The busy timeout: every connection waits 5 s by default for another
/// connection's lock, from before its first read of the file, so an open
/// (by path or by name) while another connection writes waits instead of
/// failing with "database is locked"; a lock that outlives the timeout fails
/// the open with SQLITE_BUSY and says so; `setBusyTimeout(milliseconds: 0)`
/// fails at once. (The C++ suite's BusyTimeoutTests.cpp checks the same.)
@Suite("Busy timeout")
struct BusyTimeoutTests {
  static let lockedMessage = "another connection held the lock for longer than the busy timeout"

  /// A database `locked.db` in `documents` with table t holding one row, in
  /// `journalMode`, and a second connection holding an exclusive lock on it
  /// (an uncommitted INSERT after BEGIN EXCLUSIVE, which in WAL mode blocks
  /// readers only with locking_mode EXCLUSIVE) until `release()`.
  final class ExclusiveLock {
    let documents: String
    let journalMode: String
    let holder: Database
    var path: String { documents + "/locked.db" }
    var location: DatabaseLocation { DatabaseLocation(documentsDirectory: documents) }

    init(documents: String, journalMode: String) throws {
      self.documents = documents
      self.journalMode = journalMode
      let setup = try Database(
        name: "locked.db", createSQL: "CREATE TABLE t(x); INSERT INTO t VALUES (1);",
        location: DatabaseLocation(documentsDirectory: documents))
      #expect(try scalar(setup, "PRAGMA journal_mode = \(journalMode)") == .text(journalMode))
      setup.close()
      holder = try Database(path: documents + "/locked.db")
      if journalMode == "wal" { try holder.execute("PRAGMA locking_mode = EXCLUSIVE") }
      try holder.execute("BEGIN EXCLUSIVE")
      try holder.execute("INSERT INTO t VALUES (2)")
    }

    /// Commits the holder's row and lets the lock go.
    func release() throws {
      try holder.execute("COMMIT")
      guard journalMode == "wal" else { return }
      // In locking_mode EXCLUSIVE the lock stays until NORMAL is set and the
      // file is read once more.
      try holder.execute("PRAGMA locking_mode = NORMAL")
      _ = try holder.execute("SELECT count(*) FROM t")
    }

    /// Runs `open` on another thread while the lock is held, releases the
    /// lock once the open has had a moment to meet it, and returns the row
    /// count the opened database reads (or the error the open threw). The
    /// open cannot succeed while the lock is held, so one that returned
    /// before the release failed there: exactly the defect this guards.
    func countAfterOpeningWhileLocked(
      _ open: @escaping @Sendable () throws -> Database
    ) throws -> Result<DatabaseValue, DatabaseError> {
      let starting = Signal()
      let outcome = Locked<Result<DatabaseValue, DatabaseError>?>(nil)
      let opener = TestThread("the open") {
        starting.send()
        let result: Result<DatabaseValue, DatabaseError>
        do {
          result = .success(try scalar(try open(), "SELECT count(*) FROM t"))
        } catch let error as DatabaseError {
          result = .failure(error)
        } catch {
          result = .failure(DatabaseError(code: 1, message: "\(error)"))
        }
        outcome.withLock { $0 = result }
      }
      #expect(starting.wait(), "the opening thread did not start")
      // Only gives the open time to reach the lock; the result does not
      // depend on it (an open that starts after the release succeeds too).
      Thread.sleep(forTimeInterval: 0.2)
      #expect(outcome.current == nil, "the open returned while another connection held an exclusive lock")
      try release()
      #expect(opener.join())
      return try #require(outcome.current)
    }
  }

  @Test func everyConnectionStartsWithFiveSecondsAndReadsBackAChange() throws {
    try withTemporaryDirectory { directory in
      #expect(Configuration().busyTimeout == .seconds(5))
      let byPath = try Database(path: directory + "/a.db")
      #expect(byPath.busyTimeout == .seconds(5))
      let location = DatabaseLocation(documentsDirectory: directory)
      let created = try Database(name: "b.db", createSQL: "CREATE TABLE t(x)", location: location)
      #expect(created.busyTimeout == .seconds(5))
      let reopened = try Database(name: "b.db", location: location)
      #expect(reopened.busyTimeout == .seconds(5))
      #expect(try memoryDatabase().busyTimeout == .seconds(5))

      var configuration = Configuration()
      configuration.busyTimeout = .milliseconds(250)
      #expect(try Database(path: directory + "/a.db", configuration: configuration).busyTimeout == .milliseconds(250))
      configuration.busyTimeout = .zero
      #expect(try Database(name: "b.db", location: location, configuration: configuration).busyTimeout == .zero)
      // Kept to whole milliseconds.
      configuration.busyTimeout = .microseconds(1500)
      #expect(try Database(path: directory + "/a.db", configuration: configuration).busyTimeout == .milliseconds(1))

      try byPath.setBusyTimeout(milliseconds: 1234)
      #expect(byPath.busyTimeout == .milliseconds(1234))
      try byPath.setBusyTimeout(milliseconds: -7)
      #expect(byPath.busyTimeout == .zero)
      byPath.close()
      #expect(byPath.busyTimeout == .zero)
      let error = try #require(throws: DatabaseError.self) { try byPath.setBusyTimeout(milliseconds: 10) }
      #expect(error.resultCode == .misuse)
    }
  }

  @Test(arguments: ["delete", "wal"])
  func openingByPathWaitsForALockReleasedWithinTheTimeout(journalMode: String) throws {
    try withTemporaryDirectory { directory in
      let lock = try ExclusiveLock(documents: directory, journalMode: journalMode)
      let path = lock.path
      let count = try lock.countAfterOpeningWhileLocked { try Database(path: path) }
      #expect(count == .success(.integer(2)), "the open failed, or does not see the holder's committed row")
    }
  }

  @Test(arguments: ["delete", "wal"])
  func openingByNameWaitsForALockReleasedWithinTheTimeout(journalMode: String) throws {
    try withTemporaryDirectory { directory in
      let lock = try ExclusiveLock(documents: directory, journalMode: journalMode)
      let location = lock.location
      let count = try lock.countAfterOpeningWhileLocked { try Database(name: "locked.db", location: location) }
      #expect(count == .success(.integer(2)))
    }
  }

  @Test(arguments: ["delete", "wal"])
  func openingFailsWithBusyWhenTheLockOutlivesTheTimeout(journalMode: String) throws {
    try withTemporaryDirectory { directory in
      let lock = try ExclusiveLock(documents: directory, journalMode: journalMode)
      var configuration = Configuration()
      configuration.busyTimeout = .milliseconds(100)
      let started = ContinuousClock.now
      let byPath = try #require(throws: DatabaseError.self) {
        try Database(path: lock.path, configuration: configuration)
      }
      #expect(ContinuousClock.now - started >= .milliseconds(90), "the open did not wait for the timeout")
      #expect(byPath.resultCode == .busy)
      #expect(byPath.message.contains(Self.lockedMessage), "\(byPath.message)")
      #expect(byPath.message.contains("(100 ms)"), "\(byPath.message)")
      #expect(byPath.message.contains(lock.path), "\(byPath.message)")

      let byName = try #require(throws: DatabaseError.self) {
        try Database(name: "locked.db", location: lock.location, configuration: configuration)
      }
      #expect(byName.resultCode == .busy)
      #expect(byName.message.contains(Self.lockedMessage), "\(byName.message)")
      #expect(byName.message.contains("locked.db"), "\(byName.message)")
      // The failed opens made no file of their own, and lost nothing.
      for name in try directoryContents(directory) { #expect(name.hasPrefix("locked.db"), "\(name)") }
      try lock.release()
      let later = try Database(name: "locked.db", location: lock.location)
      #expect(try scalar(later, "SELECT count(*) FROM t") == .integer(2))
    }
  }

  @Test func aZeroTimeoutFailsAtOnceAndSaysSo() throws {
    try withTemporaryDirectory { directory in
      let lock = try ExclusiveLock(documents: directory, journalMode: "delete")
      var configuration = Configuration()
      configuration.busyTimeout = .zero
      let error = try #require(throws: DatabaseError.self) {
        try Database(path: lock.path, configuration: configuration)
      }
      #expect(error.resultCode == .busy)
      #expect(error.message.contains("the busy timeout is 0"), "\(error.message)")
      try lock.release()
    }
  }

  /// `setBusyTimeout(milliseconds: 0)` takes the default wait away: a
  /// statement meeting the lock fails at once rather than after 5 s.
  @Test func setBusyTimeoutZeroRestoresFailingAtOnce() throws {
    try withTemporaryDirectory { directory in
      let lock = try ExclusiveLock(documents: directory, journalMode: "delete")
      try lock.release()
      let reader = try Database(path: lock.path)
      try reader.setBusyTimeout(milliseconds: 0)
      try lock.holder.execute("BEGIN EXCLUSIVE")
      try lock.holder.execute("INSERT INTO t VALUES (3)")
      let started = ContinuousClock.now
      let error = try #require(throws: DatabaseError.self) { try reader.execute("SELECT count(*) FROM t") }
      // Far below the 5 s the default would have waited.
      #expect(ContinuousClock.now - started < .milliseconds(2500))
      #expect(error.resultCode == .busy)
      try lock.holder.execute("COMMIT")
      #expect(try scalar(reader, "SELECT count(*) FROM t") == .integer(3))
    }
  }

  /// In WAL mode readers do not wait for writers, but an open can still meet
  /// the lock of a checkpoint: the last connection to close checkpoints and
  /// deletes the WAL under an exclusive lock. With the default busy timeout,
  /// opening again and again while connections write, checkpoint (TRUNCATE)
  /// and close never fails. The checkpointer waits only briefly for readers,
  /// so that the writer, which waits for it, is never starved.
  @Test func openingWhileOtherConnectionsWriteCheckpointAndCloseSucceeds() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/wal.db"
      let setup = try Database(path: path)
      #expect(try scalar(setup, "PRAGMA journal_mode = WAL") == .text("wal"))
      try setup.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, payload BLOB)")
      setup.close()

      let failures = Locked<[String]>([])
      let openerDone = Locked(false)
      let writerCommitted = Signal()
      let checkpointerStarted = Signal()
      let writer = TestThread("writer") {
        // Each round is a connection of its own: when it is the last one on
        // the file, its close checkpoints and deletes the WAL. The opens
        // start after the first row is in, so that they see rows however
        // the threads are scheduled (a loaded machine once ran all 300
        // before the writer's first insert).
        var committed = false
        while !openerDone.current {
          do {
            try Database(path: path).execute("INSERT INTO t(payload) VALUES (randomblob(2000))")
          } catch {
            failures.withLock { $0.append("writer: \(error)") }
            return
          }
          if !committed {
            committed = true
            writerCommitted.send()
          }
        }
      }
      let checkpointer = TestThread("checkpointer") {
        checkpointerStarted.send()
        var configuration = Configuration()
        configuration.busyTimeout = .milliseconds(20)
        while !openerDone.current {
          do {
            _ = try Database(path: path, configuration: configuration).execute("PRAGMA wal_checkpoint(TRUNCATE)")
          } catch let error as DatabaseError where error.resultCode == .busy {
            // Its own 20 ms timeout ran out (a closing writer's checkpoint
            // can hold the lock longer on a loaded machine): only the opens
            // with the default timeout are held to "never fails", as in C++.
            continue
          } catch {
            failures.withLock { $0.append("checkpointer: \(error)") }
            return
          }
        }
      }
      #expect(
        writerCommitted.wait() && checkpointerStarted.wait(),
        "the writer did not commit a row or the checkpointer did not start")
      var lastCount: Int64 = 0
      for attempt in 0..<300 {
        do {
          let database = try Database(path: path)
          guard case .integer(let count) = try scalar(database, "SELECT count(*) FROM t") else {
            failures.withLock { $0.append("open \(attempt): count is not an integer") }
            continue
          }
          if count < lastCount { failures.withLock { $0.append("open \(attempt) saw fewer rows than before") } }
          lastCount = count
        } catch {
          failures.withLock { $0.append("open \(attempt): \(error)") }
        }
      }
      openerDone.withLock { $0 = true }
      #expect(writer.join() && checkpointer.join())
      #expect(failures.current == [])
      #expect(lastCount > 0)
    }
  }
}
