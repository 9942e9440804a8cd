import CxxStdlib
import SQLiteBridgeCore

/// The tokenizer of an FTS5 table (its `tokenize` option): how text is cut
/// into the words that are indexed and searched. Made by the core
/// (`sqlitebridge::FTS5Tokenizer`), which also quotes every word when it
/// writes the table's SQL.
public struct FTS5Tokenizer: Sendable, Hashable {
  /// The option's words, as FTS5 reads them (`["porter", "unicode61", …]`).
  public var words: [String]

  /// A tokenizer of the given option words, for one this type has no maker
  /// for (a custom tokenizer registered through the C API).
  public init(words: [String]) {
    self.words = words
  }

  init(_ core: sqlitebridge.FTS5Tokenizer) {
    words = core.words.map { String($0) }
  }

  /// `unicode61`: Unicode letters and digits make words, folded to lower
  /// case. `removeDiacritics`: 0 keeps them, 1 (SQLite's default) removes
  /// them, 2 removes them from composed characters too. `tokenCharacters`
  /// also make words (`"-_"`); `separators` also separate them.
  public static func unicode61(removeDiacritics: Int = 1, tokenCharacters: String = "", separators: String = "")
    -> FTS5Tokenizer
  {
    FTS5Tokenizer(
      sqlitebridge.FTS5Tokenizer.unicode61(
        Int32(truncatingIfNeeded: removeDiacritics), std.string(tokenCharacters), std.string(separators)))
  }

  /// `ascii`: ASCII letters and digits make words, folded to lower case.
  public static var ascii: FTS5Tokenizer { FTS5Tokenizer(sqlitebridge.FTS5Tokenizer.ascii()) }

  /// `porter`: English stemming (`running` finds `run`) over `base`.
  public static func porter(_ base: FTS5Tokenizer = .unicode61()) -> FTS5Tokenizer {
    var core = sqlitebridge.FTS5Tokenizer()
    core.words = Database.stringList(base.words)
    return FTS5Tokenizer(sqlitebridge.FTS5Tokenizer.porter(core))
  }

  /// `trigram`: every run of three characters is a
  /// word, so MATCH, LIKE and GLOB find any substring of three characters or
  /// more; case-insensitive unless `caseSensitive`.
  public static func trigram(caseSensitive: Bool = false) -> FTS5Tokenizer {
    FTS5Tokenizer(sqlitebridge.FTS5Tokenizer.trigram(caseSensitive))
  }

  /// The core's form.
  func cxx() -> sqlitebridge.FTS5Tokenizer {
    var core = sqlitebridge.FTS5Tokenizer()
    core.words = Database.stringList(words)
    return core
  }
}

/// Where an FTS5 table's text lives.
public enum FTS5Content: Sendable, Hashable {
  /// The FTS5 table keeps its own copy of the text (FTS5's default).
  case own
  /// Contentless: only the index is kept; its columns read as NULL.
  case contentless
  /// External content: the text stays in `table`, whose integer key column
  /// is `rowID`; triggers created with the FTS5 table keep the index in
  /// step with the table's inserts, updates and deletes.
  case external(table: String, rowID: String = "rowid")
}
