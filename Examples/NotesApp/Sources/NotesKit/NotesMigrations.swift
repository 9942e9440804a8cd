import SQLiteBridge

/// The schema's history, applied in order by the library's
/// `DatabaseMigrator` every time the store opens.
///
/// - "v1": the `notes` table as the bundled seed holds it. The seed is a
///   plain v1 file with no migration records (see scripts/make-seed), so v1
///   creates the table only IF NOT EXISTS: on the copied seed it records
///   itself and changes nothing; on a database created empty (no seed was
///   found) it makes the table.
/// - "v2": `updateTable` rebuilds `notes` with a `done` flag (0 or 1) and
///   two changes ALTER TABLE cannot make to an existing table: `title` must
///   not be blank (a table CHECK) and `body` becomes NOT NULL DEFAULT ''
///   (NULL bodies become ''). A blank v1 title becomes "(untitled)" so that
///   no row is lost. The index on `title` is kept.
/// - "v3": full-text search. `notes_fts`, an FTS5 index of `title` and
///   `body` with external content (the text stays in `notes`; the triggers
///   `createFTS5Table` makes keep the index in step with every insert,
///   update and delete) and the `unicode61` tokenizer removing diacritics
///   (so "uber" finds "Über"). The notes already there are indexed.
public enum NotesMigrations {
  /// The version-1 schema (the seed's; a test checks they agree).
  public static let v1Schema = """
    CREATE TABLE IF NOT EXISTS notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
    CREATE INDEX IF NOT EXISTS notes_title ON notes(title);
    """

  /// The version-2 table.
  public static let v2Table = """
    CREATE TABLE notes(
      id INTEGER PRIMARY KEY,
      title TEXT NOT NULL,
      body TEXT NOT NULL DEFAULT '',
      done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
      CHECK (length(trim(title)) > 0)
    )
    """

  /// The migrator with every version, in order.
  public static let migrator: DatabaseMigrator = {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in try db.executeScript(v1Schema) }
    migrator.registerMigration("v2") { db in
      try db.updateTable(
        create: v2Table,
        insert: """
          INSERT INTO notes(id, title, body, done)
          SELECT id, CASE WHEN length(trim(title)) > 0 THEN title ELSE '(untitled)' END, coalesce(body, ''), 0
          FROM notes_old
          """,
        name: "notes")
    }
    migrator.registerMigration("v3") { db in
      try db.createFTS5Table(
        named: "notes_fts", columns: ["title", "body"], tokenizer: .unicode61(removeDiacritics: 2),
        content: .external(table: "notes", rowID: "id"))
    }
    return migrator
  }()
}
