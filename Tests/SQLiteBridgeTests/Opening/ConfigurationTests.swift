import Foundation
import SQLiteBridge
import Testing

/// Configuration at open from Swift: foreign keys enforced by default (off
/// when asked), read-only opens, the defaults taken from the core.
/// (ConfigurationTests.cpp checks the same in C++.)
@Suite("Configuration")
struct ConfigurationTests {
  private let parentChild = """
    CREATE TABLE parent(id INTEGER PRIMARY KEY);
    CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));
    """

  @Test func theDefaultsAreTheCores() {
    let defaults = Configuration()
    #expect(defaults.busyTimeout == .seconds(5))
    #expect(defaults.foreignKeysEnabled)
    #expect(!defaults.readOnly)
    #expect(defaults.maximumReaderCount == 5)
  }

  /// `fullFsync` (issue 36): the core's default, on on Apple platforms only;
  /// when on, every connection has `PRAGMA fullfsync` and
  /// `checkpoint_fullfsync` set at open.
  @Test func fullFsyncIsOnByDefaultOnApplePlatformsOnlyAndSetsBothPragmas() throws {
    #if canImport(Darwin)
      #expect(Configuration().fullFsync)
    #else
      #expect(!Configuration().fullFsync)
    #endif
    let both: (Database) throws -> [DatabaseValue] = { db in
      try db.execute("PRAGMA fullfsync").map { $0["fullfsync"] ?? .null }
        + db.execute("PRAGMA checkpoint_fullfsync").map { $0["checkpoint_fullfsync"] ?? .null }
    }
    try withLocationDirectories { _, documents, _ in
      for on in [true, false] {
        var configuration = Configuration()
        configuration.fullFsync = on
        let expected: [DatabaseValue] = [.integer(on ? 1 : 0), .integer(on ? 1 : 0)]
        let byPath = try Database(path: documents + "/\(on).db", configuration: configuration)
        #expect(try both(byPath) == expected)
        let byName = try Database(
          name: "name-\(on).db", createSQL: "CREATE TABLE t(x)",
          location: DatabaseLocation(documentsDirectory: documents), configuration: configuration)
        #expect(try both(byName) == expected)
        let queue = try DatabaseQueue(path: documents + "/queue.db", configuration: configuration)
        #expect(try queue.read { try both($0) } == expected)
        let pool = try DatabasePool(path: documents + "/pool.db", configuration: configuration)
        #expect(try pool.read { try both($0) } == expected)
        #expect(try pool.writeWithoutTransaction { try both($0) } == expected)
      }
    }
  }

  @Test func foreignKeysAreEnforcedByDefaultAndOffWhenAsked() throws {
    try withLocationDirectories { _, documents, _ in
      let location = DatabaseLocation(documentsDirectory: documents)
      let byPath = try Database(path: documents + "/a.db")
      try byPath.executeScript(parentChild)
      let configured = try Database(path: documents + "/b.db", configuration: Configuration())
      try configured.executeScript(parentChild)
      let byName = try Database(name: "c.db", createSQL: parentChild, location: location)
      for database in [byPath, configured, byName] {
        #expect(try scalar(database, "PRAGMA foreign_keys") == .integer(1))
        let error = try #require(throws: DatabaseError.self) {
          try database.execute("INSERT INTO child VALUES (1, 42)")
        }
        #expect(error.extendedResultCode == .constraintForeignKey)
      }
      var off = Configuration()
      off.foreignKeysEnabled = false
      let unchecked = try Database(path: documents + "/off.db", configuration: off)
      try unchecked.executeScript(parentChild)
      try unchecked.execute("INSERT INTO child VALUES (1, 42)")
      #expect(try scalar(unchecked, "PRAGMA foreign_keys") == .integer(0))
    }
  }

  @Test func readOnlyReadsRefusesWritesAndNeverCreates() throws {
    try withLocationDirectories { _, documents, bundle in
      try makeDatabaseFile(at: documents + "/ro.db", script: "CREATE TABLE t(x); INSERT INTO t VALUES (7);")
      var readOnly = Configuration()
      readOnly.readOnly = true
      let database = try Database(path: documents + "/ro.db", configuration: readOnly)
      #expect(try scalar(database, "SELECT x FROM t") == .integer(7))
      let write = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO t VALUES (8)") }
      #expect(write.resultCode == .readOnly)
      let missing = try #require(throws: DatabaseError.self) {
        try Database(path: documents + "/missing.db", configuration: readOnly)
      }
      #expect(missing.resultCode == .cantOpen)
      #expect(!fileExists(documents + "/missing.db"))

      try makeDatabaseFile(at: bundle + "/seed.db", script: "CREATE TABLE t(x)")
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle)
      let notCopied = try #require(throws: DatabaseError.self) {
        try Database(name: "seed.db", location: location, configuration: readOnly)
      }
      #expect(notCopied.resultCode == .cantOpen)
      #expect(notCopied.message.contains("read-only"))
      #expect(try directoryContents(documents) == ["ro.db"])
    }
  }
}
