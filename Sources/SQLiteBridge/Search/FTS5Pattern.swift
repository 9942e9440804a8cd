import CxxStdlib
import SQLiteBridgeCore

/// A full-text query for an FTS5 table, made from what a user typed so that
/// nothing they type can change the query's syntax: SQLite's own `unicode61`
/// tokenizer splits the text into tokens (folded to lower case, diacritics
/// removed, punctuation dropped) and every token is quoted. `AND`, `OR`,
/// `NOT`, `NEAR`, `*`, `^`, `:`, quotes and parentheses are words or
/// separators, never operators. Bind it as MATCH's argument:
///
/// ```swift
/// if let pattern = FTS5Pattern(matchingAllTokensIn: searchField) {
///   let rows = try db.rows("SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?", [pattern.databaseValue])
/// }
/// ```
///
/// Each initializer returns nil when the text holds no token (only spaces
/// and punctuation), and also when this SQLite was built without FTS5 (no
/// SQLITE_ENABLE_FTS5): ``tokens(in:)`` says which. The rules are the
/// core's (`sqlitebridge::FTS5Pattern`, which C++ callers use).
public struct FTS5Pattern: Sendable, Hashable, CustomStringConvertible {
  /// The FTS5 query text.
  public let rawPattern: String

  /// A pattern of FTS5 query syntax, unchecked: for queries the program
  /// itself writes (`"milk" NOT "bread"`). SQLite reports a syntax error
  /// when the query runs.
  public init(rawPattern: String) {
    self.rawPattern = rawPattern
  }

  /// Rows holding every token, anywhere: `"token1" "token2"`.
  public init?(matchingAllTokensIn string: String) {
    self.init(string) { sqlitebridge.FTS5Pattern.matchingAllTokensIn($0, &$1, nil) }
  }

  /// Rows holding at least one of the tokens: `"token1" OR "token2"`.
  public init?(matchingAnyTokenIn string: String) {
    self.init(string) { sqlitebridge.FTS5Pattern.matchingAnyTokenIn($0, &$1, nil) }
  }

  /// Rows holding the tokens next to each other, in order: `"token1 token2"`.
  public init?(matchingPhrase string: String) {
    self.init(string) { sqlitebridge.FTS5Pattern.matchingPhrase($0, &$1, nil) }
  }

  /// Rows holding, for every token, a word that starts with it:
  /// `"token1"* "token2"*` (search as you type).
  public init?(matchingPrefixesIn string: String) {
    self.init(string) { sqlitebridge.FTS5Pattern.matchingPrefixesIn($0, &$1, nil) }
  }

  private init?(
    _ string: String,
    _ make: (std.string, inout sqlitebridge.FTS5Pattern) -> Bool
  ) {
    var pattern = sqlitebridge.FTS5Pattern()
    guard make(std.string(string), &pattern) else { return nil }
    rawPattern = String(pattern.rawPattern())
  }

  /// The tokens SQLite's `unicode61` tokenizer finds in `string`, in order,
  /// as a query sees them (folded): what the initializers quote.
  ///
  /// - Throws: `DatabaseError` with `.error` naming the missing fts5 module
  ///   when this SQLite has no FTS5.
  public static func tokens(in string: String) throws -> [String] {
    var tokens = sqlitebridge.interop.StringList()
    var error = sqlitebridge.Error()
    guard sqlitebridge.FTS5Pattern.tokens(std.string(string), &tokens, &error) else { throw DatabaseError(error) }
    return tokens.map { String($0) }
  }

  /// The FTS5 query text.
  public var description: String { rawPattern }
}

extension FTS5Pattern: DatabaseValueConvertible {
  /// The query text, bound as MATCH's argument.
  public var databaseValue: DatabaseValue { .text(rawPattern) }

  /// A pattern of the text `value` holds; nil for any other value.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> FTS5Pattern? {
    guard case .text(let text) = value else { return nil }
    return FTS5Pattern(rawPattern: text)
  }
}
