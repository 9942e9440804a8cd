import SQLiteBridgeCore

/// Where SQL text typed or piped into the shell ends a statement, by
/// SQLite's own rule (`sqlite3_complete`): a `;` ends a statement unless it
/// is inside a string literal, a quoted name, a comment or a trigger body
/// (`BEGIN … END;`). The facade has no wrapper for it yet, so this is the
/// one place the CLI calls the sqlite3 C API (through the core's module).
enum SQLStatementText {
  /// True when `text` ends with a complete statement (its last `;` ends
  /// one). False for text that is only whitespace and comments, and for
  /// text holding a NUL byte (SQLite's text ends there).
  static func isComplete(_ text: String) -> Bool {
    guard !text.utf8.contains(0) else { return false }
    return sqlite3_complete(text) != 0
  }

  /// Cuts `text` into pieces that each end with the `;` completing one
  /// statement (the core's script runner cuts its error messages the same
  /// way), and the rest after the last such `;` (only whitespace and
  /// comments when `isComplete(text)`; otherwise an unfinished statement).
  /// A piece may be only filler before its `;` (as in `;;`).
  static func split(_ text: String) -> (statements: [String], rest: String) {
    // Bytes, not Characters: a `;` followed by a combining mark is still a
    // `;` to SQLite, and cutting UTF-8 at an ASCII byte keeps both sides valid.
    let bytes = Array(text.utf8)
    var statements: [String] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ";") {
      let piece = String(decoding: bytes[start...index], as: UTF8.self)
      if isComplete(piece) {
        statements.append(piece)
        start = index + 1
      }
    }
    return (statements, String(decoding: bytes[start...], as: UTF8.self))
  }
}
