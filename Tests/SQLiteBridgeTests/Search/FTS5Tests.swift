import Foundation
import SQLiteBridge
import Testing

/// Whether this SQLite has FTS5 (a build without ENABLE_FTS5 has not).
private let fts5IsAvailable = (try? FTS5Pattern.tokens(in: "probe")) != nil

/// Full-text search: patterns from what a user typed (SQLite's tokenizer,
/// every token quoted) that never fail to parse, FTS5 tables with each
/// tokenizer and content mode, ranked search. Mirrors
/// Tests/CxxTests/Search/FTS5Tests.cpp.
@Suite("FTS5", .enabled(if: fts5IsAvailable, "this SQLite has no FTS5 (FTS5Unavailable covers it)"))
struct FTS5Tests {
  private func matches(_ db: Database, _ table: String, _ pattern: FTS5Pattern?) throws -> [Int64] {
    let pattern = try #require(pattern)
    return try db.rows(
      literal: "SELECT rowid FROM \(identifier: table) WHERE \(identifier: table) MATCH \(pattern) ORDER BY rowid"
    ).map { try $0.get(0, as: Int64.self) }
  }

  @Test func patternsQuoteEveryTokenOfTheUnicode61Tokenizer() throws {
    #expect(try FTS5Pattern.tokens(in: "Hello, Wörld! AND (x*) \"NEAR\"") == ["hello", "world", "and", "x", "near"])
    let text = "Hello, Wörld! OR"
    #expect(FTS5Pattern(matchingAllTokensIn: text)?.rawPattern == #""hello" "world" "or""#)
    #expect(FTS5Pattern(matchingAnyTokenIn: text)?.rawPattern == #""hello" OR "world" OR "or""#)
    #expect(FTS5Pattern(matchingPhrase: text)?.rawPattern == #""hello world or""#)
    #expect(FTS5Pattern(matchingPrefixesIn: text)?.rawPattern == #""hello"* "world"* "or"*"#)
  }

  @Test func textWithoutATokenMakesNoPattern() throws {
    #expect(FTS5Pattern(matchingAllTokensIn: "  ,;!? \"\" () * ") == nil)
    #expect(FTS5Pattern(matchingAnyTokenIn: "") == nil)
    #expect(FTS5Pattern(matchingPhrase: "---") == nil)
    #expect(FTS5Pattern(matchingPrefixesIn: "\t\n") == nil)
    #expect(try FTS5Pattern.tokens(in: "---") == [])
  }

  /// Property test: random user text, stored as a document and searched
  /// with each pattern made from it, never fails to parse and finds itself.
  @Test func noTextAUserTypesFailsToParseAndTheTextFindsItself() throws {
    let db = try memoryDatabase()
    try db.createFTS5Table(named: "docs", columns: ["body"])
    let pieces = [
      "AND", "OR", "NOT", "NEAR", "NEAR(", "\"", "'", "(", ")", "*", "^", ":", "-", "+", "{", "}", "body:", "é",
      "日本", "ß", " ", "  ", "\t", ",", "x", "abc", "Z9", "\u{0}", "rank", "rowid", "🙂",
    ]
    var generator = SeededGenerator(seed: 20_261_204)
    for _ in 0..<2000 {
      let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
        .joined()
      try db.execute("DELETE FROM docs")
      try db.execute("INSERT INTO docs(rowid, body) VALUES (1, ?)", [.text(text)])
      let patterns = [
        FTS5Pattern(matchingAllTokensIn: text), FTS5Pattern(matchingAnyTokenIn: text),
        FTS5Pattern(matchingPhrase: text), FTS5Pattern(matchingPrefixesIn: text),
      ]
      for pattern in patterns.compactMap({ $0 }) {
        #expect(try matches(db, "docs", pattern) == [1], "text \(text.debugDescription), pattern \(pattern)")
      }
      #expect(patterns.allSatisfy { ($0 == nil) == (try! FTS5Pattern.tokens(in: text)).isEmpty })
    }
  }

  @Test func tablesSearchWithEachTokenizer() throws {
    let db = try memoryDatabase()
    try db.createFTS5Table(named: "plain", columns: ["body"])
    try db.createFTS5Table(named: "stemmed", columns: ["body"], tokenizer: .porter())
    try db.createFTS5Table(
      named: "dashes", columns: ["body"], tokenizer: .unicode61(removeDiacritics: 0, tokenCharacters: "-'\""))
    try db.createFTS5Table(named: "trigrams", columns: ["body"], tokenizer: .trigram())
    try db.createFTS5Table(named: "asciiwords", columns: ["body"], tokenizer: .ascii)
    for table in ["plain", "stemmed", "dashes", "trigrams", "asciiwords"] {
      try db.execute(literal: "INSERT INTO \(identifier: table)(rowid, body) VALUES (1, 'Running e-mail café')")
    }
    #expect(try matches(db, "plain", FTS5Pattern(matchingAllTokensIn: "RUNNING cafe")) == [1])
    #expect(try matches(db, "plain", FTS5Pattern(matchingAllTokensIn: "run")) == [])
    #expect(try matches(db, "stemmed", FTS5Pattern(matchingAllTokensIn: "run")) == [1])
    #expect(try matches(db, "dashes", FTS5Pattern(matchingAllTokensIn: "mail")) == [])
    #expect(try matches(db, "dashes", FTS5Pattern(rawPattern: #""e-mail""#)) == [1])
    #expect(try matches(db, "trigrams", FTS5Pattern(matchingAllTokensIn: "unnin")) == [1])
    #expect(try matches(db, "asciiwords", FTS5Pattern(matchingPrefixesIn: "runn")) == [1])
    #expect(FTS5Tokenizer.porter().words == ["porter", "unicode61", "remove_diacritics", "1"])
  }

  @Test func externalContentStaysInStepThroughTriggers() throws {
    let db = try memoryDatabase()
    try db.executeScript(
      """
      CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT);
      INSERT INTO notes VALUES (1, 'Groceries', 'milk and bread');
      """)
    try db.createFTS5Table(
      named: "notes_fts", columns: ["title", "body"], content: .external(table: "notes", rowID: "id"))
    #expect(
      try db.triggerExists("notes_fts_ai") && db.triggerExists("notes_fts_ad") && db.triggerExists("notes_fts_au"))
    let milk = FTS5Pattern(matchingAllTokensIn: "milk")
    #expect(try matches(db, "notes_fts", milk) == [1])
    try db.execute("INSERT INTO notes VALUES (2, 'Dairy', 'milk, cheese')")
    #expect(try matches(db, "notes_fts", milk) == [1, 2])
    try db.execute("UPDATE notes SET body = 'bread only' WHERE id = 1")
    #expect(try matches(db, "notes_fts", milk) == [2])
    try db.execute("DELETE FROM notes WHERE id = 2")
    #expect(try matches(db, "notes_fts", milk) == [])
    try db.rebuildFTS5Table(named: "notes_fts")
    try db.optimizeFTS5Table(named: "notes_fts")
    #expect(try matches(db, "notes_fts", FTS5Pattern(matchingAllTokensIn: "bread")) == [1])
    try db.execute("INSERT INTO notes_fts(notes_fts, rank) VALUES ('integrity-check', 1)")
  }

  @Test func aFailedExternalContentTableLeavesNothingBehind() throws {
    let db = try memoryDatabase()
    try db.executeScript("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO notes VALUES (1, 'x');")
    let error = try #require(throws: DatabaseError.self) {
      try db.createFTS5Table(named: "notes_fts", columns: ["title", "missing"], content: .external(table: "notes"))
    }
    #expect(error.message.contains("missing"), "\(error)")
    #expect(try !db.tableExists("notes_fts"))
    #expect(try !db.triggerExists("notes_fts_ai"))
    #expect(try db.firstRow("SELECT count(*) FROM sqlite_master")?[0] == 1)
  }

  @Test func contentlessTablesKeepOnlyTheIndex() throws {
    let db = try memoryDatabase()
    try db.createFTS5Table(named: "index_only", columns: ["body"], content: .contentless)
    try db.execute("INSERT INTO index_only(rowid, body) VALUES (7, 'secret words')")
    #expect(try matches(db, "index_only", FTS5Pattern(matchingAllTokensIn: "secret")) == [7])
    #expect(try db.firstRow("SELECT body FROM index_only")?[0] == .null)
    #expect(throws: DatabaseError.self) { try db.rebuildFTS5Table(named: "index_only") }
  }

  @Test func hostileNamesStayNames() throws {
    let db = try memoryDatabase()
    let table = "x\"; DROP TABLE t; --"
    try db.createFTS5Table(
      named: table, columns: ["b'\"y"], tokenizer: .unicode61(tokenCharacters: "'\"", separators: ")"))
    #expect(try db.tableExists(table))
    #expect(throws: DatabaseError.self) { try db.createFTS5Table(named: "a\u{0}b", columns: ["c"]) }
    let empty = try #require(throws: DatabaseError.self) { try db.createFTS5Table(named: "empty", columns: []) }
    #expect(empty.resultCode == .misuse)
    let reserved = try #require(throws: DatabaseError.self) { try db.createFTS5Table(named: "r", columns: ["rank"]) }
    #expect(reserved.resultCode == .error)
  }

  @Test func rankedSearchWithBm25HighlightAndSnippet() throws {
    let db = try memoryDatabase()
    try db.createFTS5Table(named: "notes_fts", columns: ["title", "body"])
    try db.execute(
      """
      INSERT INTO notes_fts(rowid, title, body) VALUES (1, 'Shopping', 'buy milk and more milk'),
      (2, 'Milk', 'milk'), (3, 'Chores', 'walk the dog')
      """)
    let pattern = try #require(FTS5Pattern(matchingAllTokensIn: "MILK"))
    let rows = try db.rows(
      literal: """
        SELECT rowid, highlight(notes_fts, 0, '[', ']') AS title,
               snippet(notes_fts, 1, '<', '>', '…', 3) AS excerpt
        FROM notes_fts WHERE notes_fts MATCH \(pattern) ORDER BY bm25(notes_fts, 10.0, 1.0)
        """)
    #expect(rows.map { $0["rowid"] } == [2, 1])
    #expect(rows.first?["title"] == "[Milk]")
    #expect(rows.last?["excerpt"] == "buy <milk> and…")
  }
}

@Suite("FTS5 unavailable", .enabled(if: !fts5IsAvailable, "this SQLite has FTS5 (the FTS5 suite covers it)"))
struct FTS5UnavailableTests {
  @Test func everyHelperNamesTheMissingModule() throws {
    #expect(FTS5Pattern(matchingAllTokensIn: "milk") == nil)
    let tokens = try #require(throws: DatabaseError.self) { try FTS5Pattern.tokens(in: "milk") }
    #expect(tokens.resultCode == .error)
    #expect(tokens.message.contains("no fts5 module"), "\(tokens)")
    let db = try memoryDatabase()
    for attempt in [
      { try db.createFTS5Table(named: "t", columns: ["body"]) }, { try db.rebuildFTS5Table(named: "t") },
      { try db.optimizeFTS5Table(named: "t") },
    ] as [() throws -> Void] {
      let error = try #require(throws: DatabaseError.self) { try attempt() }
      #expect(error.message.contains("no fts5 module"), "\(error)")
    }
  }
}
