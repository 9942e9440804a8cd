import Foundation
import NotesKit
import SQLiteBridge
import Testing

/// The first open (the bundled seed, `notes-seed.db`, is copied as
/// `notes.db`) and the migrations (a v1 file, the seed's or an older app's,
/// becomes v2 with its rows).
@Suite("Seed and migrations")
struct SeedAndMigrationTests {
  /// The bundled seed's path, in the resource bundle the app finds.
  private func seedPath() throws -> String {
    let location = try NotesSeed.location(dataDirectory: "/unused")
    return try #require(location.bundleDirectory) + "/" + NotesSeed.seedName
  }

  @Test func theSeedIsBundledUnderItsOwnNameAndHoldsTheVersion1SchemaAndTheWelcomeNote() throws {
    let location = try NotesSeed.location(dataDirectory: "/unused")
    #expect(location.seedName == "notes-seed.db")
    let bundle = try #require(location.bundleDirectory)
    #expect(bundle.contains("NotesApp_NotesKit."))
    // The seed's name is not the database's.
    #expect(!FileManager.default.fileExists(atPath: bundle + "/" + NotesStore.databaseName))
    let seed = try Database(path: try seedPath(), mode: .readOnly)
    let titles = try seed.rows("SELECT title FROM notes ORDER BY id").map { try $0.get(0, as: String.self) }
    #expect(titles == ["Welcome to notes"])
    #expect(try DatabaseMigrator().appliedMigrations(seed) == [])
    // The same columns and indexes as the migrator's v1 makes.
    let v1 = try Database(path: ":memory:")
    try v1.executeScript(NotesMigrations.v1Schema)
    for sql in ["PRAGMA table_info(notes)", "PRAGMA index_list(notes)"] {
      #expect(try seed.execute(sql) == (try v1.execute(sql)), "\(sql)")
    }
  }

  @Test func theFirstOpenCopiesTheSeedAsNotesDbAndMigratesTheCopy() throws {
    try withTemporaryDirectory { directory throws in
      let seedBytes = try Data(contentsOf: URL(fileURLWithPath: try seedPath()))
      let store = try NotesStore(directory: directory)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.db"])
      #expect(try store.all() == [Note(id: 1, title: "Welcome to notes", body: Self.welcomeBody)])
      try store.queue.read { db throws in
        #expect(try NotesMigrations.migrator.appliedMigrations(db) == ["v1", "v2", "v3"])
        #expect(try db.userVersion() == 3)
      }
      // The seed itself is untouched.
      #expect(try Data(contentsOf: URL(fileURLWithPath: try seedPath())) == seedBytes)
      let seed = try Database(path: try seedPath(), mode: .readOnly)
      #expect(try seed.tableColumns("notes") == ["id", "title", "body"])
    }
  }

  @Test func aMissingResourceBundleFailsWithCantOpenNamingIt() throws {
    try withTemporaryDirectory { directory throws in
      let error = try #require(throws: DatabaseError.self) {
        _ = try NotesSeed.location(dataDirectory: directory, searchDirectories: [directory])
      }
      #expect(error.resultCode == .cantOpen)
      #expect(error.message.contains("\"NotesApp_NotesKit\""))
      #expect(error.message.hasSuffix("was not found in any of: \(directory)"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
  }

  @Test func aLaterOpenUsesTheExistingFile() throws {
    try withTemporaryDirectory { directory throws in
      _ = try NotesStore(directory: directory).add(title: "kept")
      let titles = try NotesStore(directory: directory).all().map(\.title)
      #expect(titles == ["Welcome to notes", "kept"])
    }
  }

  @Test func withoutASeedTheDatabaseIsCreatedEmptyAndMigrated() throws {
    try withTemporaryDirectory { directory throws in
      let store = try NotesStore(directory: directory, seeded: false)
      #expect(try store.all() == [])
      let note = try store.add(title: "first")
      #expect(note.id == 1)
    }
  }

  @Test func aVersion1DatabaseUpgradesToVersion2KeepingItsRows() throws {
    try withTemporaryDirectory { directory throws in
      try makeVersion1Database(
        at: directory + "/notes.db", rows: [("Groceries", "milk"), ("No body", nil), ("   ", "blank title")])
      let store = try NotesStore(directory: directory)  // the existing file: the seed is not copied
      #expect(
        try store.all() == [
          Note(id: 1, title: "Groceries", body: "milk"),
          Note(id: 2, title: "No body", body: ""),
          Note(id: 3, title: "(untitled)", body: "blank title"),
        ])
      try store.queue.read { db throws in
        #expect(try db.tableColumns("notes") == ["id", "title", "body", "done"])
        #expect(try NotesMigrations.migrator.appliedMigrations(db) == ["v1", "v2", "v3"])
        #expect(try db.execute("PRAGMA index_list(notes)").map { $0["name"] } == ["notes_title"])
      }
      // v2's constraints hold, which ALTER TABLE could not have added.
      try store.queue.write { db throws in
        #expect(try refusal(db, "UPDATE notes SET done = 2 WHERE id = 1") == .constraintCheck)
        #expect(try refusal(db, "UPDATE notes SET title = ' ' WHERE id = 1") == .constraintCheck)
        #expect(try refusal(db, "UPDATE notes SET body = NULL WHERE id = 1") == .constraintNotNull)
      }
    }
  }

  @Test func aMissingDataDirectoryIsAUsageError() throws {
    try withTemporaryDirectory { directory throws in
      #expect(throws: NotesError.usage("the data directory \(directory)/missing does not exist")) {
        try NotesStore(directory: directory + "/missing")
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
  }

  /// The extended code of the error `sql` fails with; nil when it runs.
  private func refusal(_ db: Database, _ sql: String) throws -> ResultCode? {
    do {
      try db.execute(sql)
      return nil
    } catch let error as DatabaseError {
      return error.extendedResultCode
    }
  }

  static let welcomeBody =
    "This note came from the bundled seed database. Try: notes add \"Buy milk\" --body \"oat\""
}
