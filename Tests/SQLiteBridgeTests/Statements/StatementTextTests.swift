import SQLiteBridge
import Testing

/// Where SQL text ends a statement: `Database.isCompleteStatement` and
/// `Database.splitStatements` give the core's answers (SQLite's rule).
@Suite("Statement text")
struct StatementTextTests {
  @Test func aSemicolonOutsideLiteralsCompletesAStatement() {
    #expect(Database.isCompleteStatement("SELECT 1;"))
    #expect(Database.isCompleteStatement("SELECT 1;\n  -- done\n"))
    #expect(Database.isCompleteStatement("SELECT 'a;b';"))
    #expect(!Database.isCompleteStatement("SELECT 1"))
    #expect(!Database.isCompleteStatement("SELECT 'a;"))
    #expect(!Database.isCompleteStatement("SELECT 1 /* ; */"))
    #expect(!Database.isCompleteStatement("SELECT 1 -- ;"))
  }

  @Test func aTriggerBodyEndsOnlyAtItsEnd() {
    let head = "CREATE TRIGGER t AFTER INSERT ON x BEGIN INSERT INTO y VALUES (1);"
    #expect(!Database.isCompleteStatement(head))
    #expect(Database.isCompleteStatement(head + " END;"))
  }

  @Test func fillerAndNulCharactersAreNeverComplete() {
    #expect(!Database.isCompleteStatement(""))
    #expect(!Database.isCompleteStatement("  \n -- a comment\n /* another */ "))
    #expect(!Database.isCompleteStatement("SELECT 1;\u{0}"))
  }

  @Test func splitCutsAtEachCompletingSemicolon() throws {
    let text = "SELECT 'x;y'; INSERT INTO t VALUES (1);;\nSELECT 3 -- more; here\n"
    let (statements, rest) = try Database.splitStatements(text)
    #expect(statements == ["SELECT 'x;y';", " INSERT INTO t VALUES (1);", ";"])
    #expect(rest == "\nSELECT 3 -- more; here\n")
    #expect(statements.joined() + rest == text)
  }

  @Test func splitKeepsAnUnfinishedStatementAndNulCharactersInTheRest() throws {
    #expect(try Database.splitStatements("").statements.isEmpty)
    let unfinished = try Database.splitStatements("SELECT 1; SELECT 'open;")
    #expect(unfinished.statements == ["SELECT 1;"])
    #expect(unfinished.rest == " SELECT 'open;")
    let withNul = try Database.splitStatements("SELECT 1; SELECT\u{0} 2;")
    #expect(withNul.statements == ["SELECT 1;"])
    #expect(withNul.rest == " SELECT\u{0} 2;")
  }
}
