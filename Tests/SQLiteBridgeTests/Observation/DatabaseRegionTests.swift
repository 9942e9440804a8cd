import Foundation
import SQLiteBridge
import Testing

/// `DatabaseRegion` from Swift: the value type (union, emptiness, the full
/// database, description, equality and hashing as SQLite compares names,
/// intersection) and `Database.region(of:)`, the region a statement reads
/// as SQLite's authorizer reports it while the statement is prepared: views
/// resolved, SQLite's own tables and pragma tables dropped, COUNT(*) and
/// rowid meaning the whole table, computed once per cached statement.
/// (DatabaseRegionTests.cpp checks the same in C++.)
@Suite("DatabaseRegion")
struct DatabaseRegionTests {
  private static let schema = """
    CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT);
    CREATE TABLE tags(noteId INTEGER REFERENCES notes(id), name TEXT);
    CREATE TABLE plain(a, b);
    CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
    CREATE VIEW tagged AS SELECT notes.title, tags.name FROM notes JOIN tags ON tags.noteId = notes.id;
    CREATE VIEW titles AS SELECT title FROM tagged;
    CREATE VIEW plain_view AS SELECT a, b FROM plain;
    """

  /// Runs `body` with a fresh database holding `schema`.
  private func withRegions(_ body: (Database) throws -> Void) throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/regions.db")
      try database.executeScript(Self.schema)
      try body(database)
    }
  }

  // MARK: The value

  @Test func emptyFullTablesAndColumnsDescribeThemselves() {
    #expect(DatabaseRegion().description == "empty")
    #expect(DatabaseRegion().isEmpty)
    #expect(!DatabaseRegion().isFullDatabase)
    #expect(DatabaseRegion.fullDatabase.description == "full database")
    #expect(DatabaseRegion.fullDatabase.isFullDatabase)
    #expect(!DatabaseRegion.fullDatabase.isEmpty)
    #expect(DatabaseRegion(table: "u").description == "u(*)")
    #expect(DatabaseRegion(table: "t", columns: ["b", "a", "B"]).description == "t(a,b)")
    #expect(DatabaseRegion(table: "t", columns: []).isEmpty)
    let region = DatabaseRegion(table: "t", columns: ["a", "b"]).union(DatabaseRegion(table: "u"))
    #expect(region.description == "t(a,b),u(*)")
    #expect("\(region)" == "t(a,b),u(*)")
  }

  @Test func unionWidensColumnsToTheTableAndAnythingToTheFullDatabase() {
    var region = DatabaseRegion(table: "t", columns: ["a"]).union(DatabaseRegion(table: "T", columns: ["c"]))
    #expect(region.description == "t(a,c)")
    region = region.union(DatabaseRegion(table: "t"))
    #expect(region.description == "t(*)")
    region = region.union(DatabaseRegion(table: "t", columns: ["z"]))
    #expect(region.description == "t(*)")
    region = region.union(DatabaseRegion())
    #expect(region.description == "t(*)")
    region = region.union(.fullDatabase)
    #expect(region.isFullDatabase)
    region = region.union(DatabaseRegion(table: "x"))
    #expect(region.description == "full database")
  }

  @Test func unionLeavesBothOperandsAsTheyWere() {
    let left = DatabaseRegion(table: "t", columns: ["a"])
    let right = DatabaseRegion(table: "u")
    let both = left.union(right)
    #expect(left.description == "t(a)")
    #expect(right.description == "u(*)")
    #expect(both.description == "t(a),u(*)")
    #expect(DatabaseRegion.fullDatabase.union(left).isFullDatabase)
    #expect(DatabaseRegion.fullDatabase.description == "full database")
  }

  @Test func namesCompareAsSQLiteComparesIdentifiersForEqualityAndHashing() {
    #expect(DatabaseRegion(table: "Notes") == DatabaseRegion(table: "NOTES"))
    #expect(DatabaseRegion(table: "Notes", columns: ["Title"]) == DatabaseRegion(table: "notes", columns: ["title"]))
    #expect(DatabaseRegion(table: "Notes").hashValue == DatabaseRegion(table: "notes").hashValue)
    #expect(
      Set([DatabaseRegion(table: "Notes"), DatabaseRegion(table: "NOTES"), DatabaseRegion(table: "notes")]).count == 1)
    #expect(
      [DatabaseRegion(table: "Notes", columns: ["Title"]): 1][DatabaseRegion(table: "NOTES", columns: ["TITLE"])] == 1)
    // ASCII only, as SQLite: "É" and "é" are different names.
    #expect(DatabaseRegion(table: "Été") != DatabaseRegion(table: "été"))
    #expect(DatabaseRegion(table: "t") != DatabaseRegion(table: "t", columns: ["a"]))
    #expect(DatabaseRegion() != DatabaseRegion.fullDatabase)
    #expect(Set([DatabaseRegion(), .fullDatabase, DatabaseRegion(table: "t")]).count == 3)
    // The first spelling is kept for the description.
    #expect(DatabaseRegion(table: "Notes").union(DatabaseRegion(table: "notes")).description == "Notes(*)")
  }

  @Test func intersectionFollowsTablesColumnsAndTheFullDatabase() {
    let ab = DatabaseRegion(table: "t", columns: ["a", "b"])
    #expect(ab.intersects(DatabaseRegion(table: "T", columns: ["B"])))
    #expect(!ab.intersects(DatabaseRegion(table: "t", columns: ["c"])))
    #expect(ab.intersects(DatabaseRegion(table: "t")))
    #expect(!ab.intersects(DatabaseRegion(table: "u")))
    #expect(ab.intersects(.fullDatabase))
    #expect(!DatabaseRegion().intersects(.fullDatabase))
    #expect(!DatabaseRegion.fullDatabase.intersects(DatabaseRegion()))
  }

  @Test func aRegionCanBeSentToAnotherTask() async {
    let region = DatabaseRegion(table: "t", columns: ["a"])
    let description = await Task.detached { region.union(DatabaseRegion(table: "u")).description }.value
    #expect(description == "t(a),u(*)")
    #expect(region.description == "t(a)")
  }

  // MARK: Database.region(of:)

  @Test func columnsReadAreTheRegion() throws {
    try withRegions { db throws in
      #expect(try db.region(of: "SELECT title, body FROM notes WHERE title = 'x'").description == "notes(body,title)")
      #expect(try db.region(of: "SELECT a FROM plain WHERE b > 1").description == "plain(a,b)")
    }
  }

  @Test func countStarAndRowidMeanTheWholeTable() throws {
    try withRegions { db throws in
      #expect(try db.region(of: "SELECT COUNT(*) FROM plain").description == "plain(*)")
      #expect(try db.region(of: "SELECT rowid FROM plain").description == "plain(*)")
      #expect(try db.region(of: "SELECT id FROM notes").description == "notes(*)")
      #expect(try db.region(of: "SELECT count(*) FROM keyed").description == "keyed(*)")
    }
  }

  @Test func viewsAreResolvedToTheTablesTheyRead() throws {
    try withRegions { db throws in
      // notes.id is the rowid alias: the whole table.
      #expect(try db.region(of: "SELECT * FROM tagged").description == "notes(*),tags(name,noteId)")
      #expect(try db.region(of: "SELECT title FROM titles").description == "notes(*),tags(name,noteId)")
      // SQLite authorizes every column the view selects, used or not.
      #expect(try db.region(of: "SELECT a FROM plain_view").description == "plain(a,b)")
    }
  }

  @Test func joinsAndSubqueriesReadEveryTableTheyName() throws {
    try withRegions { db throws in
      #expect(
        try db.region(of: "SELECT title FROM notes WHERE id IN (SELECT noteId FROM tags WHERE name = ?)").description
          == "notes(*),tags(name,noteId)")
      #expect(
        try db.region(of: "SELECT k FROM keyed JOIN plain ON plain.a = keyed.v").description == "keyed(k,v),plain(a)")
    }
  }

  @Test func sqlitesOwnTablesAndPragmaTablesAreLeftOut() throws {
    try withRegions { db throws in
      #expect(try db.region(of: "SELECT name FROM sqlite_master").isEmpty)
      #expect(try db.region(of: "SELECT name FROM pragma_table_info('notes')").isEmpty)
      #expect(try db.region(of: "SELECT 1") == DatabaseRegion())
    }
  }

  @Test func regionNamesAreComparedWithoutRegardToCase() throws {
    try withRegions { db throws in
      let upper = try db.region(of: "SELECT TITLE FROM NOTES")
      let lower = try db.region(of: "select title from notes")
      #expect(upper == lower)
      #expect(upper.hashValue == lower.hashValue)
      #expect(upper.intersects(DatabaseRegion(table: "notes", columns: ["title"])))
    }
  }

  @Test func aCachedStatementKeepsItsRegion() throws {
    try withRegions { db throws in
      let sql = "SELECT title FROM notes WHERE body = ?"
      #expect(try db.region(of: sql).description == "notes(body,title)")
      let prepared = db.preparedStatementCount
      #expect(try db.region(of: sql).description == "notes(body,title)")
      #expect(db.preparedStatementCount == prepared, "the second call reused the cached statement and its region")
    }
  }

  @Test func badSQLThrowsWithItsResultCode() throws {
    try withRegions { db throws in
      let unknownColumn = try #require(throws: DatabaseError.self) { try db.region(of: "SELECT nope FROM notes") }
      #expect(unknownColumn.resultCode == .error)
      #expect(unknownColumn.message.contains("nope"))
      let twoStatements = try #require(throws: DatabaseError.self) { try db.region(of: "SELECT 1; SELECT 2") }
      #expect(twoStatements.resultCode == .misuse)
      db.close()
      let closed = try #require(throws: DatabaseError.self) { try db.region(of: "SELECT 1") }
      #expect(closed.resultCode == .misuse)
    }
  }

  @Test func regionDoesNotRunTheStatement() throws {
    try withRegions { db throws in
      _ = try db.region(of: "DELETE FROM plain")
      try db.execute("INSERT INTO plain VALUES (1, 2)")
      _ = try db.region(of: "DELETE FROM plain")
      #expect(try scalar(db, "SELECT count(*) FROM plain") == .integer(1))
    }
  }
}
