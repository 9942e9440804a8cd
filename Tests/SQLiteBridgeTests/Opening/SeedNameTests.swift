import Foundation
import SQLiteBridge
import Testing

/// `DatabaseLocation.seedName`: a seed of another name than the database's,
/// copied on first open as a seed of the database's own name is (and only
/// then), a missing one falling back to creation, an invalid one refused
/// with `.cantOpen` naming it, the bundle never touched, and a queue by name
/// using it. Mirrors Tests/CxxTests/Opening/SeedNameTests.cpp.
@Suite("DatabaseLocation.seedName")
struct SeedNameTests {
  private let seedScript = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);
    INSERT INTO notes(title) VALUES ('from the seed');
    """
  private let createSQL = "CREATE TABLE created(x); INSERT INTO created VALUES ('by createSQL');"

  /// Runs `body` with `documents/` and `bundle/`, the bundle holding
  /// `notes-seed.db`, and the seed's bytes.
  private func withSeed(_ body: (_ root: String, _ documents: String, _ bundle: String, _ seed: Data) throws -> Void)
    throws
  {
    try withLocationDirectories { root, documents, bundle in
      try makeDatabaseFile(at: bundle + "/notes-seed.db", script: seedScript)
      try body(root, documents, bundle, try fileBytes(bundle + "/notes-seed.db"))
    }
  }

  private func titles(_ database: Database) throws -> [DatabaseValue] {
    try database.rows("SELECT title FROM notes ORDER BY id").map { $0[0] }
  }

  @Test func theSeedNameIsNilUnlessGiven() {
    #expect(DatabaseLocation(documentsDirectory: "/x").seedName == nil)
    #expect(DatabaseLocation(documentsDirectory: "/x", bundleDirectory: "/y").seedName == nil)
    #expect(DatabaseLocation.default.seedName == nil)
    let location = DatabaseLocation(documentsDirectory: "/x", bundleDirectory: "/y", seedName: "s.db")
    #expect(location.seedName == "s.db")
    #expect(location.bundleDirectory == "/y")
  }

  @Test func aSeedUnderAnotherNameIsCopiedOnFirstOpen() throws {
    try withSeed { _, documents, bundle, seed in
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "notes-seed.db")
      let database = try Database(name: "notes.db", createSQL: createSQL, location: location)
      #expect(database.path == documents + "/notes.db")
      #expect(try titles(database) == ["from the seed"])
      #expect(try tableNames(database) == ["notes"], "createSQL must not run when the seed is copied")
      #expect(try fileBytes(documents + "/notes.db") == seed)
      #expect(try directoryContents(documents) == ["notes.db"], "no temporary file, no file under the seed's name")
      // Writes go to the copy; the seed is untouched.
      try database.execute("INSERT INTO notes(title) VALUES ('written')")
      #expect(try titles(database) == ["from the seed", "written"])
      #expect(try directoryContents(bundle) == ["notes-seed.db"])
      #expect(try fileBytes(bundle + "/notes-seed.db") == seed)
    }
  }

  @Test func laterOpensUseTheCopyAndNeverCopyTheSeedAgain() throws {
    try withSeed { _, documents, bundle, _ in
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "notes-seed.db")
      do {
        let database = try Database(name: "notes.db", location: location)
        try database.execute("INSERT INTO notes(title) VALUES ('mine')")
      }
      // A newer seed must not replace the user's copy.
      try FileManager.default.removeItem(atPath: bundle + "/notes-seed.db")
      try makeDatabaseFile(at: bundle + "/notes-seed.db", script: "CREATE TABLE other(x)")
      let newSeed = try fileBytes(bundle + "/notes-seed.db")

      let reopened = try Database(name: "notes.db", createSQL: createSQL, location: location)
      #expect(try titles(reopened) == ["from the seed", "mine"])
      #expect(try tableNames(reopened) == ["notes"])
      #expect(try fileBytes(bundle + "/notes-seed.db") == newSeed)
      #expect(try directoryContents(documents) == ["notes.db"])
    }
  }

  @Test func aMissingSeedOfThatNameFallsBackToCreation() throws {
    try withSeed { _, documents, bundle, _ in
      // A file of the database's own name is no seed once another name is set.
      try makeDatabaseFile(at: bundle + "/notes.db", script: "CREATE TABLE own(x)")
      let database = try Database(
        name: "notes.db", createSQL: createSQL,
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "absent.db"))
      #expect(try database.execute("SELECT x FROM created") == [["x": "by createSQL"]])
      #expect(try tableNames(database) == ["created"])
      #expect(try directoryContents(documents) == ["notes.db"])
      #expect(try directoryContents(bundle) == ["notes-seed.db", "notes.db"])
    }
  }

  @Test func anEmptySeedNameIsTheDatabasesOwnName() throws {
    try withSeed { _, documents, bundle, _ in
      try makeDatabaseFile(at: bundle + "/notes.db", script: "CREATE TABLE own(x); INSERT INTO own VALUES ('own name')")
      let database = try Database(
        name: "notes.db", createSQL: createSQL,
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: ""))
      #expect(try database.execute("SELECT x FROM own") == [["x": "own name"]])
    }
  }

  @Test func aSeedNameWithoutABundleDirectoryCreates() throws {
    try withSeed { _, documents, _, _ in
      let database = try Database(
        name: "notes.db", createSQL: createSQL,
        location: DatabaseLocation(documentsDirectory: documents, seedName: "notes-seed.db"))
      #expect(try tableNames(database) == ["created"])
    }
  }

  @Test func readOnlyDoesNotCopyTheSeed() throws {
    try withSeed { _, documents, bundle, seed in
      var configuration = Configuration()
      configuration.readOnly = true
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db",
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "notes-seed.db"),
          configuration: configuration)
      }
      #expect(error.resultCode == .cantOpen)
      #expect(try directoryContents(documents).isEmpty)
      #expect(try fileBytes(bundle + "/notes-seed.db") == seed)
    }
  }

  @Test func aSeedThatIsNotADatabaseThrowsNotADatabaseAndLeavesNoCopy() throws {
    try withSeed { _, documents, bundle, _ in
      try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: bundle + "/broken-seed.db"))
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db", createSQL: createSQL,
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "broken-seed.db")
        )
      }
      #expect(error.resultCode == .notADatabase)
      #expect(try directoryContents(documents).isEmpty)
      #expect(try fileBytes(bundle + "/broken-seed.db") == Data("not a database at all".utf8))
    }
  }

  @Test(arguments: [
    ".", "..", "sub/inner.db", "../outside.db", "/abs.db", "a\\b.db", "a\u{0}b.db", "seed.db-journal", "seed.db-WAL",
    "seed.db-shm", ".sqlitebridge-1-2-3.tmp", String(repeating: "s", count: 248),
  ])
  func anInvalidSeedNameThrowsCantOpenNamingItAndTouchesNothing(_ seedName: String) throws {
    try withSeed { root, documents, bundle, seed in
      try makeDatabaseFile(at: root + "/outside.db", script: seedScript)
      try FileManager.default.createDirectory(atPath: bundle + "/sub", withIntermediateDirectories: false)
      try makeDatabaseFile(at: bundle + "/sub/inner.db", script: seedScript)
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db", createSQL: createSQL,
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: seedName))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.extendedResultCode == .cantOpen)
      #expect(error.sql == nil)
      let shown = seedName.replacingOccurrences(of: "\u{0}", with: "?")
      #expect(error.message.hasPrefix("invalid seed name \"\(shown)\" for database \"notes.db\": "), "\(error.message)")
      #expect(try directoryContents(documents).isEmpty)
      #expect(try directoryContents(bundle) == ["notes-seed.db", "sub"])
      #expect(try fileBytes(bundle + "/notes-seed.db") == seed)
      #expect(try directoryContents(root) == ["bundle", "documents", "outside.db"])
    }
  }

  @Test func anInvalidSeedNameFailsLaterOpensTooAndLeavesTheDatabaseAlone() throws {
    try withSeed { _, documents, bundle, _ in
      _ = try Database(
        name: "notes.db",
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "notes-seed.db"))
      let before = try fileBytes(documents + "/notes.db")
      let error = try #require(throws: DatabaseError.self) {
        _ = try Database(
          name: "notes.db",
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "../x.db"))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.message.hasPrefix("invalid seed name \"../x.db\""))
      #expect(try fileBytes(documents + "/notes.db") == before)
    }
  }

  @Test func aQueueByNameCopiesTheSeedOfThatName() throws {
    try withSeed { _, documents, bundle, seed in
      let location = DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "notes-seed.db")
      do {
        let queue = try DatabaseQueue(name: "notes.db", createSQL: createSQL, location: location)
        #expect(try queue.read { try titles($0) } == ["from the seed"])
        try queue.write { try $0.execute("INSERT INTO notes(title) VALUES ('queued')") }
      }
      #expect(try directoryContents(documents) == ["notes.db"])
      let again = try DatabaseQueue(name: "notes.db", createSQL: createSQL, location: location)
      #expect(try again.read { try titles($0) } == ["from the seed", "queued"])
      #expect(try fileBytes(bundle + "/notes-seed.db") == seed)
    }
  }

  @Test func aQueueByNameRefusesAnInvalidSeedName() throws {
    try withSeed { _, documents, bundle, _ in
      let error = try #require(throws: DatabaseError.self) {
        _ = try DatabaseQueue(
          name: "notes.db",
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "a/b"))
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.message.hasPrefix("invalid seed name \"a/b\""))
      #expect(try directoryContents(documents).isEmpty)
    }
  }

  @Test func removingByNameIgnoresTheSeedName() throws {
    try withSeed { _, documents, bundle, seed in
      do {
        _ = try Database(
          name: "notes.db",
          location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: "notes-seed.db"))
      }
      try Database.removeDatabase(
        name: "notes.db",
        location: DatabaseLocation(documentsDirectory: documents, bundleDirectory: bundle, seedName: ".."))
      #expect(try directoryContents(documents).isEmpty)
      #expect(try directoryContents(bundle) == ["notes-seed.db"])
      #expect(try fileBytes(bundle + "/notes-seed.db") == seed)
    }
  }
}
