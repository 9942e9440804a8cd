import Foundation
import SQLiteBridge

/// `demo [--dir DIR]`: the library's main job, start to finish.
enum DemoCommand {
  static let databaseName = "notes.db"
  /// Used only when the bundled seed is missing (the demo then creates the
  /// database instead of copying it).
  static let createSQL = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '');
    CREATE INDEX notes_title ON notes(title);
    """

  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let directory = try arguments.option("dir") ?? makeTemporaryDirectory()
    try arguments.finish()
    guard FileManager.default.fileExists(atPath: directory) else {
      throw UsageError("--dir \(directory) does not exist")
    }
    // The bundled seed is plain text: with a key the demo creates the
    // database encrypted with its creation SQL instead.
    let location =
      opener.key == nil
      ? SeedDatabase.location(documentsDirectory: directory) : DatabaseLocation(documentsDirectory: directory)
    let seed = SeedDatabase.directory(containing: databaseName, at: location)
    let target = (directory as NSString).appendingPathComponent(databaseName)
    let existed = FileManager.default.fileExists(atPath: target)

    let database = try opener.open(name: databaseName, createSQL: createSQL, location: location)
    if existed {
      say("1. Opened \(database.path) (the writable copy from an earlier run).")
    } else if let seed {
      say("1. Opened \(database.path), copied on first use from the bundled seed in \(seed).")
    } else if opener.key != nil {
      say("1. Opened \(database.path), created encrypted with its creation SQL (the bundled seed is plain text).")
    } else {
      say("1. Opened \(database.path), created with its creation SQL (no bundled seed was found).")
    }
    say("   Notes so far:")
    print(RowPrinting.json(try database.rows("SELECT * FROM notes ORDER BY id")))

    try database.execute(
      "INSERT INTO notes(title, body) VALUES (?, ?)", ["Demo run", .text("written at \(Date())")])
    say("2. Inserted a note with bound arguments: rowid \(database.lastInsertRowID), \(database.changes) row changed.")

    let rows = try database.rows("SELECT id, title FROM notes WHERE title LIKE ? ORDER BY id", ["%e%"])
    say("3. Queried notes whose title contains 'e':")
    print(RowPrinting.json(rows))

    if try database.hasTableColumn("notes", "pinned") {
      say("4. The notes table already has a 'pinned' column (updateTable ran on an earlier run).")
    } else {
      try database.updateTable(
        create: """
          CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '',
                             pinned INTEGER NOT NULL DEFAULT 0)
          """,
        insert: "INSERT INTO notes(id, title, body, pinned) SELECT id, title, body, id = 1 FROM notes_old",
        name: "notes")
      say("4. Changed the notes table with updateTable: added 'pinned' (the first note is pinned).")
    }
    say("   Columns now: \(try database.tableColumns("notes").joined(separator: ", "))")
    say("   All notes, pinned first:")
    print(RowPrinting.json(try database.rows("SELECT * FROM notes ORDER BY pinned DESC, id")))
  }

  private static func say(_ line: String) { print(line) }

  private static func makeTemporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sqlite-bridge-demo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
  }
}
