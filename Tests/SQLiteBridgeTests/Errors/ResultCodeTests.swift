import Foundation
import SQLiteBridge
import Testing

@Suite("ResultCode")
struct ResultCodeTests {
  /// A database with `t(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL)`
  /// holding one row, and a child table with a foreign key to it.
  private func database() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      PRAGMA foreign_keys = ON;
      CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
      CREATE TABLE child(parent INTEGER REFERENCES t(id));
      INSERT INTO t VALUES (1, 'one');
      """)
    return database
  }

  @Test func primaryCodesHaveSQLitesNumbersAndNames() {
    let expected: [(ResultCode, Int32, String)] = [
      (.ok, 0, "SQLITE_OK"), (.error, 1, "SQLITE_ERROR"), (.internal, 2, "SQLITE_INTERNAL"),
      (.permission, 3, "SQLITE_PERM"), (.abort, 4, "SQLITE_ABORT"), (.busy, 5, "SQLITE_BUSY"),
      (.locked, 6, "SQLITE_LOCKED"), (.noMemory, 7, "SQLITE_NOMEM"), (.readOnly, 8, "SQLITE_READONLY"),
      (.interrupt, 9, "SQLITE_INTERRUPT"), (.ioError, 10, "SQLITE_IOERR"), (.corrupt, 11, "SQLITE_CORRUPT"),
      (.notFound, 12, "SQLITE_NOTFOUND"), (.full, 13, "SQLITE_FULL"), (.cantOpen, 14, "SQLITE_CANTOPEN"),
      (.protocolError, 15, "SQLITE_PROTOCOL"), (.empty, 16, "SQLITE_EMPTY"), (.schema, 17, "SQLITE_SCHEMA"),
      (.tooBig, 18, "SQLITE_TOOBIG"), (.constraint, 19, "SQLITE_CONSTRAINT"), (.mismatch, 20, "SQLITE_MISMATCH"),
      (.misuse, 21, "SQLITE_MISUSE"), (.noLFS, 22, "SQLITE_NOLFS"), (.authorization, 23, "SQLITE_AUTH"),
      (.format, 24, "SQLITE_FORMAT"), (.range, 25, "SQLITE_RANGE"), (.notADatabase, 26, "SQLITE_NOTADB"),
      (.notice, 27, "SQLITE_NOTICE"), (.warning, 28, "SQLITE_WARNING"), (.row, 100, "SQLITE_ROW"),
      (.done, 101, "SQLITE_DONE"),
    ]
    for (code, number, name) in expected {
      #expect(code.rawValue == number, "\(name)")
      #expect(code.description == "\(name) (\(number))")
      #expect(code.primary == code)
    }
  }

  @Test func extendedCodesNameThemselvesAndKnowTheirPrimary() {
    let expected: [(ResultCode, ResultCode, String)] = [
      (.constraintUnique, .constraint, "SQLITE_CONSTRAINT_UNIQUE (2067)"),
      (.constraintPrimaryKey, .constraint, "SQLITE_CONSTRAINT_PRIMARYKEY (1555)"),
      (.constraintForeignKey, .constraint, "SQLITE_CONSTRAINT_FOREIGNKEY (787)"),
      (.constraintNotNull, .constraint, "SQLITE_CONSTRAINT_NOTNULL (1299)"),
      (.constraintCheck, .constraint, "SQLITE_CONSTRAINT_CHECK (275)"),
      (.constraintCommitHook, .constraint, "SQLITE_CONSTRAINT_COMMITHOOK (531)"),
      (.busySnapshot, .busy, "SQLITE_BUSY_SNAPSHOT (517)"),
      (.readOnlyDatabaseMoved, .readOnly, "SQLITE_READONLY_DBMOVED (1032)"),
      (.abortRollback, .abort, "SQLITE_ABORT_ROLLBACK (516)"),
      // dqlite's own, which a ClusterDatabase reports.
      (.ioErrorNotLeader, .ioError, "SQLITE_IOERR_NOT_LEADER (10250)"),
      (.ioErrorLeadershipLost, .ioError, "SQLITE_IOERR_LEADERSHIP_LOST (10506)"),
    ]
    for (code, primary, description) in expected {
      #expect(code.primary == primary, "\(description)")
      #expect(code.description == description)
    }
    // Any code SQLite defines has its name, even without a static member.
    #expect(ResultCode(rawValue: 266).description == "SQLITE_IOERR_READ (266)")
    #expect(ResultCode(rawValue: 12345).description == "SQLITE_UNKNOWN (12345)")
    #expect(ResultCode(rawValue: 12345).primary == ResultCode(rawValue: 57))
  }

  @Test func databaseErrorsCarryTypedPrimaryAndExtendedCodes() throws {
    let database = try database()
    let unique = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO t VALUES (2, 'one')") }
    #expect(unique.resultCode == .constraint)
    #expect(unique.extendedResultCode == .constraintUnique)
    let notNull = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO t VALUES (3, NULL)") }
    #expect(notNull.extendedResultCode == .constraintNotNull)
    let syntax = try #require(throws: DatabaseError.self) { try database.execute("SELEKT 1") }
    #expect(syntax.resultCode == .error)
    #expect(syntax.extendedResultCode == .error)
  }

  /// Which `catch` clause an error thrown by `body` lands in.
  private func caughtBy(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "nothing thrown"
    } catch ResultCode.constraintUnique {
      return "constraintUnique"
    } catch ResultCode.constraintForeignKey {
      return "constraintForeignKey"
    } catch ResultCode.constraint {
      return "constraint"
    } catch ResultCode.range {
      return "range"
    } catch {
      return "other"
    }
  }

  @Test func catchMatchesAPrimaryCodeForEveryExtendedCodeAndAnExtendedCodeOnlyForItself() throws {
    let database = try database()
    #expect(caughtBy { try database.execute("INSERT INTO t VALUES (2, 'one')") } == "constraintUnique")
    #expect(caughtBy { try database.execute("INSERT INTO child VALUES (99)") } == "constraintForeignKey")
    // NOT NULL: no clause names it, so the primary-code clause takes it.
    #expect(caughtBy { try database.execute("INSERT INTO t VALUES (3, NULL)") } == "constraint")
    #expect(caughtBy { try database.execute("SELECT ?", []) } == "range")
    #expect(caughtBy { try database.execute("SELEKT 1") } == "other")
    #expect(caughtBy { throw CocoaError(.fileNoSuchFile) } == "other")
    #expect(caughtBy { try database.execute("INSERT INTO t VALUES (4, 'four')") } == "nothing thrown")
  }

  @Test func patternMatchingIsFalseForAnErrorThatIsNoDatabaseError() {
    #expect(!(ResultCode.error ~= CocoaError(.fileNoSuchFile)))
    #expect(ResultCode.constraint ~= DatabaseError(code: 19, extendedCode: 2067, message: "x"))
    #expect(!(ResultCode.constraintUnique ~= DatabaseError(code: 19, extendedCode: 1299, message: "x")))
    #expect(!(ResultCode.busy ~= DatabaseError(code: 19, extendedCode: 2067, message: "x")))
  }
}
