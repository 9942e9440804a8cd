import Foundation
import SQLiteBridge
import Testing

@Suite("updateTable")
struct UpdateTableTests {
  /// notes(id, title, body) with three rows, a unique index, an ordinary
  /// index, a trigger writing to `audit`, and a view over notes.
  private func notesDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
      CREATE UNIQUE INDEX notes_title ON notes(title);
      CREATE INDEX notes_body ON notes(body);
      CREATE TABLE audit(note_id INTEGER, action TEXT);
      CREATE TRIGGER notes_insert AFTER INSERT ON notes BEGIN
        INSERT INTO audit(note_id, action) VALUES (new.id, 'insert');
      END;
      CREATE VIEW note_titles AS SELECT id, title FROM notes;
      INSERT INTO notes(id, title, body) VALUES (1, 'one', 'first'), (2, 'two', 'second'), (3, 'three', NULL);
      DELETE FROM audit;
      """)
    return database
  }

  private struct Snapshot: Equatable {
    var schema: [[String: DatabaseValue]]
    var notes: [Row]
    var audit: [Row]
  }

  private func snapshot(_ database: Database) throws -> Snapshot {
    Snapshot(
      schema: try schemaSnapshot(database), notes: try tableSnapshot(database, "notes"),
      audit: try tableSnapshot(database, "audit"))
  }

  /// Checks that `database` still has the original notes table and that its
  /// indexes and trigger still work.
  private func expectOriginalNotesStillWork(_ database: Database) throws {
    #expect(try database.tableColumns("notes") == ["id", "title", "body"])
    let duplicate = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO notes(title) VALUES ('one')")
    }
    #expect(duplicate.extendedResultCode == .constraintUnique)
    try database.execute("INSERT INTO notes(id, title) VALUES (10, 'ten')")
    #expect(try database.execute("SELECT note_id, action FROM audit") == [["note_id": 10, "action": "insert"]])
  }

  /// Expects `body` to throw a DatabaseError and to leave `database` exactly
  /// as it was (schema, rows, working indexes and trigger); returns the error.
  private func expectFailureLeavesNotesUntouched(
    _ database: Database, _ body: () throws -> Void
  ) throws -> DatabaseError {
    let before = try snapshot(database)
    let error = try #require(throws: DatabaseError.self) { try body() }
    #expect(!database.isInTransaction)
    #expect(try snapshot(database) == before)
    try expectOriginalNotesStillWork(database)
    return error
  }

  // MARK: Success

  @Test func explicitInsertCopiesTheChosenColumns() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: """
        CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, created INTEGER NOT NULL DEFAULT 0)
        """,
      insert: "INSERT INTO notes(id, title) SELECT id, title FROM notes_old",
      name: "notes")
    #expect(try database.tableColumns("notes") == ["id", "title", "body", "created"])
    #expect(
      try database.rows("SELECT id, title, body, created FROM notes ORDER BY id").map(\.values) == [
        [1, "one", nil, 0], [2, "two", nil, 0], [3, "three", nil, 0],
      ])
    #expect(try !tableNames(database).contains("notes_old"))
  }

  @Test func insertCanTransformRows() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)",
      insert: "INSERT INTO notes(id, title, body) SELECT id, upper(title), coalesce(body, '') FROM notes_old",
      name: "notes")
    #expect(
      try database.rows("SELECT title, body FROM notes ORDER BY id").map(\.values) == [
        ["ONE", "first"], ["TWO", "second"], ["THREE", ""],
      ])
  }

  @Test func emptyInsertCopiesTheSharedColumns() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, dropped INTEGER);
      INSERT INTO notes(id, title, body, dropped) VALUES (1, 'one', 'b1', 10), (2, 'two', NULL, 20);
      """)
    // Shared columns match case-insensitively; `dropped` goes, `tags` comes.
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, BODY TEXT, TITLE TEXT NOT NULL, tags TEXT DEFAULT 'none')",
      name: "notes")
    #expect(try database.tableColumns("notes") == ["id", "BODY", "TITLE", "tags"])
    #expect(
      try database.rows("SELECT id, title, body, tags FROM notes ORDER BY id").map(\.values) == [
        [1, "one", "b1", "none"], [2, "two", nil, "none"],
      ])
  }

  @Test func emptyInsertSkipsGeneratedColumns() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE g(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2));
      INSERT INTO g(a) VALUES (1), (2);
      """)
    try database.updateTable(
      create: "CREATE TABLE g(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 3), c TEXT)", name: "g")
    #expect(try database.rows("SELECT a, b, c FROM g ORDER BY a").map(\.values) == [[1, 3, nil], [2, 6, nil]])
  }

  @Test func indexesAreRecreatedAndWork() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra INTEGER)",
      name: "notes")
    #expect(
      try database.rows("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' ORDER BY name").map(\.values)
        == [["notes_body", "notes"], ["notes_title", "notes"]])
    let duplicate = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO notes(title) VALUES ('two')")
    }
    #expect(duplicate.extendedResultCode == .constraintUnique)
    let plan = try database.rows("EXPLAIN QUERY PLAN SELECT id FROM notes WHERE body = ?", ["first"])
    #expect(
      plan.contains { row in
        if case .text(let detail)? = row["detail"] { return detail.contains("notes_body") }
        return false
      })
    #expect(try database.execute("PRAGMA integrity_check") == [["integrity_check": "ok"]])
  }

  @Test func triggersAreRecreatedAndFire() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra INTEGER)",
      name: "notes")
    #expect(
      try scalar(database, "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name = 'notes_insert'")
        == .text("notes"))
    try database.execute("INSERT INTO notes(id, title) VALUES (7, 'seven')")
    #expect(try database.execute("SELECT note_id, action FROM audit") == [["note_id": 7, "action": "insert"]])
  }

  @Test func indexesAndTriggersTheCreateSQLMakesItselfAreKept() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: """
        CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT);
        CREATE INDEX notes_body ON notes(body DESC);
        CREATE TRIGGER notes_insert AFTER INSERT ON notes BEGIN
          INSERT INTO audit(note_id, action) VALUES (new.id, 'created');
        END;
        """,
      name: "notes")
    #expect(
      try scalar(database, "SELECT sql FROM sqlite_master WHERE name = 'notes_body'")
        == .text("CREATE INDEX notes_body ON notes(body DESC)"))
    #expect(try scalar(database, "SELECT count(*) FROM sqlite_master WHERE name = 'notes_title'") == .integer(1))
    try database.execute("INSERT INTO notes(id, title) VALUES (7, 'seven')")
    // (A trigger made by `create` exists while `insert` copies the rows, so
    // it also fired for them; only note 7 is checked here.)
    #expect(
      try database.execute("SELECT action FROM audit WHERE note_id = 7") == [["action": "created"]])
  }

  @Test func viewsStillWorkAfterTheRebuild() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra INTEGER)",
      name: "notes")
    #expect(
      try database.rows("SELECT id, title FROM note_titles ORDER BY id").map(\.values) == [
        [1, "one"], [2, "two"], [3, "three"],
      ])
    #expect(
      try scalar(database, "SELECT sql FROM sqlite_master WHERE name = 'note_titles'")
        == .text("CREATE VIEW note_titles AS SELECT id, title FROM notes"))
  }

  @Test func autoincrementSequenceIsKept() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT);
      INSERT INTO items(name) VALUES ('a'), ('b'), ('c');
      DELETE FROM items WHERE id = 3;
      """)
    try database.updateTable(
      create: "CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, extra INTEGER)", name: "items")
    try database.execute("INSERT INTO items(name) VALUES ('d')")
    #expect(database.lastInsertRowID == 4)
  }

  @Test func tableNamesThatNeedQuotingAreRebuilt() throws {
    let database = try memoryDatabase()
    try database.executeScript(
      #"""
      CREATE TABLE "my ""odd"" table"("first name" TEXT, n INTEGER);
      CREATE INDEX "odd index" ON "my ""odd"" table"("first name");
      INSERT INTO "my ""odd"" table" VALUES ('a', 1), ('b', 2);
      """#)
    try database.updateTable(
      create: #"CREATE TABLE "my ""odd"" table"("first name" TEXT, n INTEGER, "last name" TEXT)"#,
      name: #"my "odd" table"#)
    #expect(try database.tableColumns(#"my "odd" table"#) == ["first name", "n", "last name"])
    #expect(
      try database.rows(#"SELECT "first name", n FROM "my ""odd"" table" ORDER BY n"#).map(\.values) == [
        ["a", 1], ["b", 2],
      ])
    #expect(
      try scalar(database, "SELECT tbl_name FROM sqlite_master WHERE name = 'odd index'") == .text(#"my "odd" table"#))
  }

  @Test func insideATransactionRollbackRestoresTheOldTable() throws {
    let database = try notesDatabase()
    let before = try snapshot(database)
    try database.execute("BEGIN")
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra INTEGER)",
      name: "notes")
    #expect(database.isInTransaction)
    #expect(try database.tableColumns("notes") == ["id", "title", "body", "extra"])
    try database.execute("ROLLBACK")
    #expect(try snapshot(database) == before)
    try expectOriginalNotesStillWork(database)
  }

  @Test func insideATransactionCommitKeepsTheNewTable() throws {
    let database = try notesDatabase()
    try database.execute("BEGIN")
    try database.updateTable(
      create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra INTEGER)",
      name: "notes")
    try database.execute("COMMIT")
    #expect(try database.tableColumns("notes") == ["id", "title", "body", "extra"])
    #expect(try scalar(database, "SELECT count(*) FROM notes") == .integer(3))
  }

  @Test func failureInsideATransactionKeepsTheTransactionAndItsEarlierWork() throws {
    let database = try notesDatabase()
    try database.execute("BEGIN")
    try database.execute("INSERT INTO audit(note_id, action) VALUES (0, 'before')")
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(create: "CREATE TABLE notes(", name: "notes")
    }
    #expect(error.resultCode == .error)
    #expect(database.isInTransaction)
    #expect(try database.tableColumns("notes") == ["id", "title", "body"])
    #expect(try database.execute("SELECT action FROM audit") == [["action": "before"]])
    try database.execute("COMMIT")
    #expect(try scalar(database, "SELECT count(*) FROM audit") == .integer(1))
  }

  @Test func rebuiltDatabaseSurvivesReopening() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/notes.db"
      try makeDatabaseFile(
        at: path,
        script: """
          CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT);
          CREATE INDEX notes_title ON notes(title);
          INSERT INTO notes(title) VALUES ('one');
          """)
      do {
        let database = try Database(path: path)
        try database.updateTable(
          create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, extra TEXT)", name: "notes")
      }
      let reopened = try Database(path: path, mode: .readOnly)
      #expect(try reopened.tableColumns("notes") == ["id", "title", "extra"])
      #expect(try reopened.execute("SELECT title FROM notes") == [["title": "one"]])
      #expect(try reopened.execute("PRAGMA integrity_check") == [["integrity_check": "ok"]])
    }
  }

  // MARK: Failures leave everything untouched

  @Test func createThatDoesNotCreateTheTableThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(create: "CREATE TABLE other(id INTEGER PRIMARY KEY, title TEXT)", name: "notes")
    }
    #expect(error.resultCode == .error)
    #expect(try !tableNames(database).contains("other"))
  }

  @Test func existingOldTableThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    try database.execute("CREATE TABLE notes_old(x)")
    try database.execute("INSERT INTO notes_old(x) VALUES ('keep me')")
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)", name: "notes")
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("notes_old"))
    #expect(try database.execute("SELECT x FROM notes_old") == [["x": "keep me"]])
  }

  @Test func missingTableThrowsNoSuchTable() throws {
    let database = try notesDatabase()
    let before = try snapshot(database)
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(create: "CREATE TABLE nowhere(x)", name: "nowhere")
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("no such table"))
    #expect(try snapshot(database) == before)
  }

  @Test func failingCreateThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(create: "CREATE TABLE notes(id INTEGER PRIMARY KEY,, oops)", name: "notes")
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("syntax error"))
  }

  @Test func failingInsertThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(
        create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
        insert: "INSERT INTO notes(id, title) SELECT id, missing_column FROM notes_old",
        name: "notes")
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("missing_column"))
  }

  @Test func insertBreakingAConstraintThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(
        create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)",
        name: "notes")
    }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintNotNull)
  }

  @Test func failingRecreatedIndexThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    // notes_body indexes a column the new table no longer has.
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)", name: "notes")
    }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("body"))
  }

  @Test func recreatedUniqueIndexRejectingTheNewRowsThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(
        create: "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)",
        insert: "INSERT INTO notes(id, title, body) SELECT id, 'same', body FROM notes_old",
        name: "notes")
    }
    #expect(error.resultCode == .constraint)
  }

  @Test func emptyInsertWithNoSharedColumnsThrowsAndChangesNothing() throws {
    let database = try notesDatabase()
    let error = try expectFailureLeavesNotesUntouched(database) {
      try database.updateTable(create: "CREATE TABLE notes(something_else TEXT)", name: "notes")
    }
    #expect(error.resultCode == .error)
  }

  // MARK: Foreign keys

  /// parent(id, name) with rows 1, 2 and child rows referencing both (with
  /// ON DELETE CASCADE, so a wrongly cascading rebuild would lose them), with
  /// foreign keys enforced.
  private func familyDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      PRAGMA foreign_keys = ON;
      CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE child(
        id INTEGER PRIMARY KEY,
        parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE ON UPDATE CASCADE
      );
      INSERT INTO parent(id, name) VALUES (1, 'p1'), (2, 'p2');
      INSERT INTO child(id, parent_id) VALUES (10, 1), (11, 1), (20, 2);
      """)
    return database
  }

  private struct FamilySnapshot: Equatable {
    var schema: [[String: DatabaseValue]]
    var parents: [Row]
    var children: [Row]
  }

  private func familySnapshot(_ database: Database) throws -> FamilySnapshot {
    FamilySnapshot(
      schema: try schemaSnapshot(database), parents: try tableSnapshot(database, "parent"),
      children: try tableSnapshot(database, "child"))
  }

  @Test func rebuildBreakingAForeignKeyThrows787AndChangesNothing() throws {
    let database = try familyDatabase()
    let before = try familySnapshot(database)
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(
        create: "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL, extra TEXT)",
        insert: "INSERT INTO parent(id, name) SELECT id, name FROM parent_old WHERE id <> 1",
        name: "parent")
    }
    #expect(error.resultCode == .constraint)
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(try familySnapshot(database) == before)
    #expect(try scalar(database, "PRAGMA foreign_keys") == .integer(1))
    #expect(try database.execute("PRAGMA foreign_key_check").isEmpty)
  }

  @Test func childRebuildBreakingItsOwnForeignKeyThrows787AndChangesNothing() throws {
    let database = try familyDatabase()
    let before = try familySnapshot(database)
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(
        create: "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id))",
        insert: "INSERT INTO child(id, parent_id) SELECT id, parent_id + 100 FROM child_old",
        name: "child")
    }
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(try familySnapshot(database) == before)
  }

  @Test func validParentRebuildKeepsChildReferencesAndRows() throws {
    let database = try familyDatabase()
    let childSQL = try scalar(database, "SELECT sql FROM sqlite_master WHERE name = 'child'")
    let children = try tableSnapshot(database, "child")

    try database.updateTable(
      create: "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL, extra TEXT DEFAULT 'x')",
      name: "parent")

    #expect(try database.tableColumns("parent") == ["id", "name", "extra"])
    #expect(try scalar(database, "SELECT sql FROM sqlite_master WHERE name = 'child'") == childSQL)
    if case .text(let sql) = childSQL {
      #expect(sql.contains("REFERENCES parent(id)"))
      #expect(!sql.contains("parent_old"))
    }
    #expect(try tableSnapshot(database, "child") == children)
    #expect(try scalar(database, "PRAGMA foreign_keys") == .integer(1))
    #expect(try database.execute("PRAGMA foreign_key_check").isEmpty)

    // Enforcement against the new parent table still works.
    let error = try #require(throws: DatabaseError.self) {
      try database.execute("INSERT INTO child(id, parent_id) VALUES (30, 3)")
    }
    #expect(error.extendedResultCode == .constraintForeignKey)
    try database.execute("DELETE FROM parent WHERE id = 2")
    #expect(try scalar(database, "SELECT count(*) FROM child WHERE parent_id = 2") == .integer(0))
  }

  @Test func rebuildWithForeignKeysOffDoesNotCheckThem() throws {
    let database = try familyDatabase()
    try database.execute("PRAGMA foreign_keys = OFF")
    try database.updateTable(
      create: "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
      insert: "INSERT INTO parent(id, name) SELECT id, name FROM parent_old WHERE id <> 1",
      name: "parent")
    #expect(try scalar(database, "SELECT count(*) FROM parent") == .integer(1))
    #expect(try scalar(database, "SELECT count(*) FROM child") == .integer(3))
    #expect(try scalar(database, "PRAGMA foreign_keys") == .integer(0))
  }

  @Test func referencedTableInsideATransactionWithEnforcedForeignKeysThrowsMisuse() throws {
    let database = try familyDatabase()
    let before = try familySnapshot(database)
    try database.execute("BEGIN")
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(
        create: "CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT NOT NULL, extra TEXT)", name: "parent")
    }
    #expect(error.resultCode == .misuse)
    #expect(database.isInTransaction)
    try database.execute("ROLLBACK")
    #expect(try familySnapshot(database) == before)
  }

  @Test func breakingAForeignKeyInAnUnrelatedTableThrows787AndChangesNothing() throws {
    let database = try familyDatabase()
    try database.executeScript(
      """
      CREATE TABLE owner(id INTEGER PRIMARY KEY);
      CREATE TABLE pet(id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owner(id));
      INSERT INTO owner(id) VALUES (1);
      INSERT INTO pet(id, owner_id) VALUES (1, 1);
      """)
    let before = try familySnapshot(database)
    let pets = try tableSnapshot(database, "pet")
    let owners = try tableSnapshot(database, "owner")
    // Enforcement is paused for the rebuild, so the insert's DELETE breaks
    // pet's reference unnoticed until the check of every table.
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(
        create:
          "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id), note TEXT)",
        insert: "INSERT INTO child(id, parent_id) SELECT id, parent_id FROM child_old; DELETE FROM owner",
        name: "child")
    }
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(error.message.contains("pet"), "\(error.message)")
    #expect(try familySnapshot(database) == before)
    #expect(try tableSnapshot(database, "pet") == pets)
    #expect(try tableSnapshot(database, "owner") == owners)
    #expect(try scalar(database, "PRAGMA foreign_keys") == .integer(1))
  }

  @Test func transactionControlInCreateOrInsertThrowsMisuseBeforeItRuns() throws {
    let database = try notesDatabase()
    let before = try snapshot(database)
    let attempts: [(create: String, insert: String)] = [
      ("COMMIT; CREATE TABLE notes(x)", ""),
      ("BEGIN; CREATE TABLE notes(x)", ""),
      (
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, extra)",
        "INSERT INTO notes(id, title, body) SELECT id, title, body FROM notes_old; END TRANSACTION"
      ),
      (
        "CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)",
        "ROLLBACK; INSERT INTO notes SELECT * FROM notes_old"
      ),
      ("SAVEPOINT mine; CREATE TABLE notes(x)", ""),
    ]
    for attempt in attempts {
      let error = try #require(throws: DatabaseError.self) {
        try database.updateTable(create: attempt.create, insert: attempt.insert, name: "notes")
      }
      #expect(error.resultCode == .misuse, "\(attempt)")
      #expect(error.message.contains("must not begin, commit, roll back or release"), "\(error.message)")
      #expect(try snapshot(database) == before)
      #expect(!database.isInTransaction)
    }
  }

  @Test func releasingTheRebuildsSavepointInsideATransactionThrowsMisuseAndKeepsTheTransaction() throws {
    let database = try notesDatabase()
    try database.execute("BEGIN")
    try database.execute("INSERT INTO audit(note_id, action) VALUES (0, 'caller')")
    let before = try snapshot(database)
    let error = try #require(throws: DatabaseError.self) {
      try database.updateTable(create: "RELEASE sqlitebridge_update_table; CREATE TABLE notes(x)", name: "notes")
    }
    #expect(error.resultCode == .misuse)
    #expect(database.isInTransaction)
    #expect(try snapshot(database) == before)
    try database.execute("COMMIT")
    #expect(try scalar(database, "SELECT count(*) FROM audit WHERE action = 'caller'") == .integer(1))
  }

  @Test func sqlThatOnlyMentionsTransactionWordsStillRuns() throws {
    let database = try notesDatabase()
    try database.updateTable(
      create: "/* COMMIT */ CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT, \"end\" TEXT)",
      insert: "-- ROLLBACK\nINSERT INTO notes(id, title, body) SELECT id, title, body FROM notes_old",
      name: "notes")
    #expect(try database.tableColumns("notes") == ["id", "title", "body", "end"])
    #expect(try scalar(database, "SELECT count(*) FROM notes") == .integer(3))
  }
}
