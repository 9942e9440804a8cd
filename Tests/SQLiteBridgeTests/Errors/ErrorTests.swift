import Foundation
import SQLiteBridge
import Testing

@Suite("DatabaseError")
struct ErrorTests {
  @Test func errorCarriesCodeExtendedCodeMessageAndSQL() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE u(x UNIQUE)")
    try database.execute("INSERT INTO u(x) VALUES ('a')")
    let sql = "INSERT INTO u(x) VALUES ('a')"
    do {
      try database.execute(sql)
      Issue.record("the duplicate insert should have thrown")
    } catch let error as DatabaseError {
      #expect(error.resultCode == .constraint)
      #expect(error.extendedResultCode == .constraintUnique)
      #expect(error.message == "UNIQUE constraint failed: u.x")
      #expect(error.sql == sql)
    }
  }

  /// I/O errors and full disks say what failed (the core's rule, issue 28;
  /// the C++ suite fails reads, writes, syncs and locks through the
  /// power-loss harness's VFS).
  @Test func aFullDatabaseSaysSoByName() throws {
    try withTemporaryDirectory { directory in
      let database = try Database(path: directory + "/full.db")
      try database.execute("CREATE TABLE notes(body)")
      try database.execute("PRAGMA max_page_count = 2")
      let error = try #require(throws: DatabaseError.self) {
        try database.execute("INSERT INTO notes(body) VALUES (zeroblob(100000))")
      }
      #expect(error.resultCode == .full)
      #expect(error.message == "database or disk is full (SQLITE_FULL)")
      try database.execute("INSERT INTO notes(body) VALUES ('small')")
      #expect(try database.execute("SELECT count(*) AS n FROM notes") == [["n": .integer(1)]])
    }
  }

  @Test func sqlIsNilWhenNoSQLWasRunning() throws {
    try withTemporaryDirectory { directory in
      let badName = try #require(throws: DatabaseError.self) {
        _ = try Database(name: "a/b", location: DatabaseLocation(documentsDirectory: directory))
      }
      #expect(badName.sql == nil)
      let missingFile = try #require(throws: DatabaseError.self) {
        _ = try Database(path: directory + "/missing.db", mode: .readWrite)
      }
      #expect(missingFile.sql == nil)
    }
  }

  @Test func extendedCodeEqualsCodeWhenNothingMoreSpecificIsKnown() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT * FROM nowhere") }
    #expect(error.resultCode == .error)
    #expect(error.extendedCode == error.code)
  }

  @Test func codeIsThePrimaryPartOfTheExtendedCode() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE p(id INTEGER PRIMARY KEY)")
    try database.execute("INSERT INTO p(id) VALUES (1)")
    let error = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO p(id) VALUES (1)") }
    #expect(error.extendedResultCode == .constraintPrimaryKey)
    #expect(error.code == error.extendedCode & 0xff)
  }

  @Test func publicInitializerDefaultsExtendedCodeToCode() {
    let error = DatabaseError(code: 5, message: "database is locked")
    #expect(error.resultCode == .busy)
    #expect(error.extendedResultCode == .busy)
    #expect(error.message == "database is locked")
    #expect(error.sql == nil)
    let full = DatabaseError(code: 19, extendedCode: 2067, message: "m", sql: "INSERT")
    #expect(full.extendedResultCode == .constraintUnique)
    #expect(full.sql == "INSERT")
  }

  @Test func errorsCompareByAllFields() {
    let error = DatabaseError(code: 1, message: "m", sql: "S")
    #expect(error == DatabaseError(code: 1, extendedCode: 1, message: "m", sql: "S"))
    #expect(error != DatabaseError(code: 1, message: "m", sql: nil))
    #expect(error != DatabaseError(code: 1, message: "other", sql: "S"))
  }

  @Test func descriptionNamesCodesMessageAndSQL() {
    let error = DatabaseError(code: 19, extendedCode: 2067, message: "UNIQUE constraint failed: u.x", sql: "INSERT 1")
    #expect(error.description == "SQLite error 19 (extended 2067): UNIQUE constraint failed: u.x — SQL: INSERT 1")
    #expect(DatabaseError(code: 14, message: "cannot open").description == "SQLite error 14: cannot open")
  }

  @Test func errorIsCatchableAsAnyError() throws {
    let database = try memoryDatabase()
    var caught: (any Error)?
    do { try database.execute("SELEC") } catch { caught = error }
    let error = try #require(caught as? DatabaseError)
    #expect(error.resultCode == .error)
  }

  @Test func anErrorIsNotReportedAgainByALaterSuccessfulCall() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(x)")
    #expect(throws: DatabaseError.self) { try database.hasTableColumn("nowhere", "x") }
    // A false answer after an earlier failure must stay a plain false.
    #expect(try database.hasTableColumn("t", "y") == false)
    #expect(throws: DatabaseError.self) { try database.execute("SELECT ?") }
    #expect(try database.execute("SELECT 1 AS one") == [["one": 1]])
  }
}
