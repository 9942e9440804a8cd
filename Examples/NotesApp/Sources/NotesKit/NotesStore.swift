import Foundation
import SQLiteBridge

/// The notes database: `<directory>/notes.db`, opened by name through a
/// `DatabaseQueue` (every read and write goes through it) and migrated to
/// the latest schema on open.
public final class NotesStore: Sendable {
  /// The database's file name in the data directory. The seed has a name
  /// of its own in its bundle (`NotesSeed.seedName`).
  public static let databaseName = "notes.db"

  /// The queue every access goes through.
  public let queue: DatabaseQueue

  /// Opens `<directory>/notes.db`. The first open copies the bundled seed
  /// (`NotesSeed.location(dataDirectory:)`), or, with `seeded` false,
  /// creates the database empty. Then the pending migrations run.
  ///
  /// - Throws: `NotesError.usage` when `directory` does not exist;
  ///   `DatabaseError` with `.cantOpen` when `seeded` and the resource
  ///   bundle is missing (naming it and where it was looked for), and when
  ///   the file cannot be copied, opened or migrated (`.cantOpen`,
  ///   `.notADatabase`, `.busy`; `.error` for a database a newer version of
  ///   the app migrated).
  public init(directory: String, seeded: Bool = true) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw NotesError.usage("the data directory \(directory) does not exist")
    }
    let location =
      seeded ? try NotesSeed.location(dataDirectory: directory) : DatabaseLocation(documentsDirectory: directory)
    queue = try DatabaseQueue(name: Self.databaseName, location: location)
    // The migrator runs its own transactions.
    try queue.writeWithoutTransaction { db in try NotesMigrations.migrator.migrate(db) }
  }

  /// Inserts a new note and returns it with its id: `id` when given (a
  /// synced copy picks ids that no other copy picks: `NotesSync.add`), the
  /// next one SQLite assigns otherwise.
  ///
  /// - Throws: `NotesError.blankTitle` for an empty or whitespace title
  ///   (nothing is written); `DatabaseError` when the write fails
  ///   (`.constraint` for an id already taken).
  public func add(title: String, body: String = "", id: Int64? = nil) throws -> Note {
    guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw NotesError.blankTitle }
    var note = Note(id: id, title: title, body: body)
    note.id = try queue.write { db in try db.insert(note) }
    return note
  }

  /// Every note, by id (the order they were added).
  ///
  /// - Throws: `DatabaseError` when the read fails.
  public func all() throws -> [Note] {
    try queue.read { db in try db.fetch(Note.self, "SELECT * FROM notes ORDER BY id") }
  }

  /// The notes holding every word of `text`, or a word starting with it
  /// ("mil" finds "milk"), ignoring case and diacritics, best matches first
  /// (FTS5's bm25, a word in the title weighing ten times one in the body),
  /// then by id. What the user typed is only ever words: quotes, `*`, `OR`,
  /// `NEAR` or parentheses are never query syntax (`FTS5Pattern`). Text
  /// without a word (only punctuation) finds nothing.
  ///
  /// - Throws: `DatabaseError` when the read fails.
  public func search(_ text: String) throws -> [Note] {
    guard let pattern = FTS5Pattern(matchingPrefixesIn: text) else { return [] }
    return try queue.read { db in
      try db.fetch(
        Note.self,
        literal: """
          SELECT notes.* FROM notes_fts JOIN notes ON notes.id = notes_fts.rowid
          WHERE notes_fts MATCH \(pattern) ORDER BY bm25(notes_fts, 10.0, 1.0), notes.id
          """)
    }
  }

  /// Marks the note `id` done (again is fine) and returns it.
  ///
  /// - Throws: `NotesError.unknownNote` when no note has that id (nothing
  ///   changes); `DatabaseError` when the write fails.
  @discardableResult
  public func markDone(id: Int64) throws -> Note {
    try queue.write { db in
      guard var note = try db.fetchOne(Note.self, key: .integer(id)) else { throw NotesError.unknownNote(id) }
      note.done = true
      try db.update(note)
      return note
    }
  }
}
