import Foundation
import SQLiteBridge
import Testing

/// The first open by name that creates the database (issue 36): whatever the
/// configured journal mode and whatever the creation script does, a database
/// is published under its name only once everything the script wrote is in
/// its main file; a failure anywhere publishes nothing, and the next open
/// creates it. Shown with the fault VFS failing each lock call in turn:
/// before the fix, a WAL-mode creation whose checkpoint at close could not
/// take its lock published a database without tables. The C++ suite holds
/// the same cases (Tests/CxxTests/Opening/CreateByNameFaultTests.cpp).
///
/// Part of `StorageFailureTests`, whose tests run one at a time: the fault
/// VFS's fault is the process's.
extension StorageFailureTests {
  private struct Creation: CustomStringConvertible {
    var description: String
    var script: String
    var journalMode: JournalMode?
    var synchronous: Synchronous?
  }

  private static let createNotes = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
    CREATE INDEX notes_body ON notes(body);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
      INSERT INTO notes(body) SELECT 'note ' || i FROM n;
    """

  /// Commits, switches to WAL and writes more (SQLite ignores journal_mode
  /// inside a transaction).
  private static let createSwitchingToWal = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
    CREATE INDEX notes_body ON notes(body);
    COMMIT;
    PRAGMA journal_mode = WAL;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
      INSERT INTO notes(body) SELECT 'note ' || i FROM n;
    """

  private static let creations = [
    Creation(description: "configured WAL", script: createNotes, journalMode: .wal),
    Creation(description: "configured WAL, synchronous off", script: createNotes, journalMode: .wal, synchronous: .off),
    Creation(description: "a script that switches to WAL", script: createSwitchingToWal),
    Creation(description: "the default journal", script: createNotes),
  ]

  private func configuration(_ creation: Creation, throughFaults: Bool) throws -> Configuration {
    var configuration = throughFaults ? try FaultVfs.configuration() : Configuration()
    configuration.journalMode = creation.journalMode
    configuration.synchronous = creation.synchronous
    return configuration
  }

  /// The table, its index and its 50 rows, intact.
  private func expectComplete(_ db: Database, _ context: String) throws {
    let objects = try db.execute(
      "SELECT count(*) AS n FROM sqlite_master WHERE name IN ('notes', 'notes_body')")
    #expect(objects == [["n": .integer(2)]], "\(context)")
    #expect(try db.execute("SELECT count(*) AS n FROM notes") == [["n": .integer(50)]], "\(context)")
    #expect(try db.execute("PRAGMA integrity_check") == [["integrity_check": .text("ok")]], "\(context)")
  }

  /// Each lock call of the creation fails in turn (once, then from that
  /// call on): whether the open throws or not, a file under the name holds
  /// everything the script wrote, and the next open, with the fault gone,
  /// finds or makes the complete database.
  @Test func aLockThatFailsAnywhereNeverPublishesAnIncompleteDatabaseByName() throws {
    for creation in Self.creations {
      for persistent in [false, true] {
        var faultsHit = 0
        for at in 1..<200 {
          let context = "\(creation), \(persistent ? "every lock from call" : "lock call") \(at)"
          let done = try withTemporaryDirectory { documents -> Bool in
            let location = DatabaseLocation(documentsDirectory: documents)
            try FaultVfs.fail("lock", at: at, persistent: persistent)
            var opened = false
            do {
              _ = try Database(
                name: "notes.db", createSQL: creation.script, location: location,
                configuration: configuration(creation, throughFaults: true))
              opened = true
            } catch let error as DatabaseError {
              #expect(!error.message.isEmpty, "\(context)")
            }
            let faults = try FaultVfs.faults()
            try FaultVfs.disarm()
            if faults == 0 { return true }  // past the creation's last lock call
            faultsHit += 1
            let published = FileManager.default.fileExists(atPath: documents + "/notes.db")
            #expect(!opened || published, "\(context)")
            if published {
              try expectComplete(Database(path: documents + "/notes.db"), "\(context), the published file")
            }
            let next = try Database(
              name: "notes.db", createSQL: creation.script, location: location,
              configuration: configuration(creation, throughFaults: false))
            try expectComplete(next, "\(context), the next open")
            return false
          }
          if done { break }
        }
        #expect(faultsHit > 3, "\(creation): the fault never reached the creation")
      }
    }
  }

  /// The journal mode a creation ends in is the one asked for: the
  /// configured one, or WAL when the script switched to it.
  @Test func theDatabaseCreatedByNameKeepsTheJournalModeAskedFor() throws {
    try withTemporaryDirectory { documents in
      let location = DatabaseLocation(documentsDirectory: documents)
      let configured = try Database(
        name: "configured.db", createSQL: Self.createNotes, location: location,
        configuration: configuration(Self.creations[0], throughFaults: false))
      try expectComplete(configured, "configured WAL")
      #expect(try configured.execute("PRAGMA journal_mode") == [["journal_mode": .text("wal")]])
      let switched = try Database(name: "switched.db", createSQL: Self.createSwitchingToWal, location: location)
      try expectComplete(switched, "a script that switches to WAL")
      #expect(try switched.execute("PRAGMA journal_mode") == [["journal_mode": .text("wal")]])
      let plain = try Database(name: "plain.db", createSQL: Self.createNotes, location: location)
      #expect(try plain.execute("PRAGMA journal_mode") == [["journal_mode": .text("delete")]])
    }
  }
}
