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
    let both =
      "SELECT (SELECT fullfsync FROM pragma_fullfsync) || (SELECT checkpoint_fullfsync FROM pragma_checkpoint_fullfsync) AS both"
    try withLocationDirectories { _, documents, _ in
      for on in [true, false] {
        var configuration = Configuration()
        configuration.fullFsync = on
        let expected: [[String: DatabaseValue]] = [["both": .text(on ? "11" : "00")]]
        let byPath = try Database(path: documents + "/\(on).db", configuration: configuration)
        #expect(try byPath.execute(both) == expected)
        let byName = try Database(
          name: "name-\(on).db", createSQL: "CREATE TABLE t(x)",
          location: DatabaseLocation(documentsDirectory: documents), configuration: configuration)
        #expect(try byName.execute(both) == expected)
        let queue = try DatabaseQueue(path: documents + "/queue.db", configuration: configuration)
        #expect(try queue.read { try $0.execute(both) } == expected)
        let pool = try DatabasePool(path: documents + "/pool.db", configuration: configuration)
        #expect(try pool.read { try $0.execute(both) } == expected)
        #expect(try pool.writeWithoutTransaction { try $0.execute(both) } == expected)
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
