import CxxStdlib
import SQLiteBridgeCore

extension Database {
  /// Whether `sql` ends with a complete statement by SQLite's rule
  /// (`sqlite3_complete`): its last `;` ends a statement rather than sitting
  /// in a string literal, a quoted name, a comment or a trigger body
  /// (`BEGIN … END;`). A shell asks it to know when to run what was typed.
  /// False for text that is only whitespace and comments, and for text
  /// holding a NUL character. Says nothing about whether the SQL is valid.
  /// The core answers (`sqlitebridge::isCompleteStatement`).
  public static func isCompleteStatement(_ sql: String) -> Bool {
    sqlitebridge.interop.StatementTextAccess.isComplete(std.string(sql))
  }

  /// Cuts `sql` at every `;` that completes a statement (see
  /// `isCompleteStatement`): `statements` in order, each ending with its
  /// `;` (a piece may be only filler before its `;`, as in `;;`), and `rest`,
  /// what follows the last one (whitespace and comments, or a statement not
  /// finished yet). The pieces joined give `sql` back. The core cuts
  /// (`sqlitebridge::splitStatements`).
  ///
  /// - Throws: `DatabaseError` with `.noMemory` when memory runs out.
  public static func splitStatements(_ sql: String) throws -> (statements: [String], rest: String) {
    var statements = sqlitebridge.interop.StringList()
    var rest = std.string()
    guard sqlitebridge.interop.StatementTextAccess.split(std.string(sql), &statements, &rest) else {
      throw DatabaseError(code: ResultCode.noMemory.rawValue, message: "out of memory")
    }
    return ((0..<statements.size()).map { String(statements[$0]) }, String(rest))
  }
}
