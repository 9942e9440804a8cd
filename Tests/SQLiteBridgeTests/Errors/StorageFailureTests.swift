import Foundation
import SQLiteBridge
import Testing

/// I/O errors and full disks (issue 28), through the power-loss harness's
/// fault VFS loaded as an extension: the call that meets one throws
/// `.ioError` or `.full` with a message that says what failed, nothing
/// acknowledged is lost, and the connection works again (or says it must be
/// reopened). The C++ suite holds the same cases
/// (Tests/CxxTests/Errors/StorageFailureTests.cpp); scripts/power-loss fails
/// every call of whole scenarios in turn. Serialized: the VFS's fault is the
/// process's.
@Suite(
  "I/O errors and full disks", .serialized, .enabled(if: (try? FaultVfs.build.get()) != nil, FaultVfs.unavailableReason)
)
struct StorageFailureTests {
  private func notes(in directory: String, configuration: Configuration = Configuration()) throws -> Database {
    let setup = try Database(path: directory + "/notes.db", configuration: configuration)
    try setup.executeScript(
      "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('kept');")
    return setup
  }

  @Test func aFailedWriteSaysSoAndTheNextWriteWorks() throws {
    try withTemporaryDirectory { directory in
      _ = try notes(in: directory)
      let db = try Database(path: directory + "/notes.db", configuration: FaultVfs.configuration())
      #expect(try db.execute("SELECT count(*) AS n FROM notes") == [["n": .integer(1)]])
      try FaultVfs.fail("write", at: 1)
      defer { try? FaultVfs.disarm() }
      let error = try #require(throws: DatabaseError.self) { try db.execute("INSERT INTO notes(body) VALUES ('lost')") }
      #expect(error.resultCode == .ioError)
      #expect(error.extendedResultCode == ResultCode(rawValue: 778))  // SQLITE_IOERR_WRITE
      #expect(error.message == "disk I/O error (writing to a file failed; SQLITE_IOERR_WRITE)")
      try db.execute("INSERT INTO notes(body) VALUES ('second')")
      #expect(
        try db.execute("SELECT body FROM notes ORDER BY id") == [["body": .text("kept")], ["body": .text("second")]])
    }
  }

  @Test func aFullDiskDuringAWriteSaysSo() throws {
    try withTemporaryDirectory { directory in
      _ = try notes(in: directory)
      let db = try Database(path: directory + "/notes.db", configuration: FaultVfs.configuration())
      try FaultVfs.fail("write", at: 1, full: true)
      defer { try? FaultVfs.disarm() }
      let error = try #require(throws: DatabaseError.self) { try db.execute("INSERT INTO notes(body) VALUES ('lost')") }
      #expect(error.resultCode == .full)
      #expect(error.message == "database or disk is full (SQLITE_FULL)")
    }
  }

  /// A DELETE-mode commit whose journal cannot be removed (the fault VFS
  /// fails deletes, file sizes, opens, accesses, unlocks and shared memory
  /// too): the commit says SQLITE_IOERR_DELETE, and the connection works
  /// again.
  @Test func aJournalThatCannotBeDeletedAtCommitSaysSo() throws {
    try withTemporaryDirectory { directory in
      _ = try notes(in: directory)
      let db = try Database(path: directory + "/notes.db", configuration: FaultVfs.configuration())
      #expect(try db.execute("SELECT count(*) AS n FROM notes") == [["n": .integer(1)]])
      try FaultVfs.fail("delete", at: 1)
      defer { try? FaultVfs.disarm() }
      let error = try #require(throws: DatabaseError.self) {
        try db.execute("INSERT INTO notes(body) VALUES ('in doubt')")
      }
      #expect(error.resultCode == .ioError)
      #expect(error.extendedResultCode == ResultCode(rawValue: 2570))  // SQLITE_IOERR_DELETE
      #expect(error.message.contains("SQLITE_IOERR_DELETE"), "\(error)")
      try db.execute("INSERT INTO notes(body) VALUES ('second')")
      #expect(
        try db.execute("SELECT body FROM notes WHERE body <> 'in doubt' ORDER BY id") == [
          ["body": .text("kept")], ["body": .text("second")],
        ])
    }
  }

  /// Found by scripts/power-loss: updateTable took a failed schema read for
  /// "no such table".
  @Test func updateTableReportsAFailedSchemaReadAsItselfAndChangesNothing() throws {
    try withTemporaryDirectory { directory in
      _ = try notes(in: directory)
      let db = try Database(path: directory + "/notes.db", configuration: FaultVfs.configuration())
      #expect(try db.execute("SELECT count(*) AS n FROM notes") == [["n": .integer(1)]])
      try FaultVfs.fail("read", at: 1, persistent: true)
      let error = try #require(throws: DatabaseError.self) {
        try db.updateTable(create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT, extra TEXT)", name: "notes")
      }
      try FaultVfs.disarm()
      #expect(error.extendedResultCode == ResultCode(rawValue: 266), "\(error)")  // SQLITE_IOERR_READ
      #expect(!error.message.contains("no such table"), "\(error)")
      #expect(try db.tableColumns("notes") == ["id", "body"])
    }
  }

  /// Found by scripts/power-loss on the SQLCipher build: SQLCipher 3 reports
  /// a rekey it rolled back as a success.
  @Test(.enabled(if: Database.isEncryptionAvailable, "needs the SQLCipher build"))
  func aChangeKeySQLCipherRolledBackFailsAndClosesTheConnection() throws {
    try withTemporaryDirectory { directory in
      var keyed = Configuration()
      keyed.key = "old"
      _ = try notes(in: directory, configuration: keyed)
      var faulty = try FaultVfs.configuration()
      faulty.key = "old"
      let db = try Database(path: directory + "/notes.db", configuration: faulty)
      #expect(try db.execute("SELECT count(*) AS n FROM notes") == [["n": .integer(1)]])
      try FaultVfs.fail("write", at: 1)
      let error = try #require(throws: DatabaseError.self) { try db.changeKey("new") }
      try FaultVfs.disarm()
      #expect(error.resultCode == .ioError, "\(error)")
      #expect(error.message.contains("changeKey did not take effect"), "\(error)")
      #expect(throws: DatabaseError.self) { try db.execute("SELECT 1") }
      let reopened = try Database(path: directory + "/notes.db", configuration: keyed)
      #expect(try reopened.execute("SELECT body FROM notes") == [["body": .text("kept")]])
    }
  }
}
