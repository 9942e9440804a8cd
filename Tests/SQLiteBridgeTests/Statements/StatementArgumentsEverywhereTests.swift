import Foundation
import SQLiteBridge
import Testing

/// `StatementArguments` everywhere: array and dictionary literals of any mix
/// (`DatabaseValue`'s case names, plain literals, Swift values), named ones
/// in literal order, through every call that runs SQL, a `Statement`'s runs
/// included; `[DatabaseValue]` and `NamedArguments` values bind by the same
/// paths.
@Suite("Statement arguments everywhere")
struct StatementArgumentsEverywhereTests {
  private let id = 7

  struct Note: Decodable, Equatable {
    let id: Int
    let title: String
  }

  struct Record: FetchableRecord, Equatable {
    let title: String
    init(title: String) { self.title = title }
    init(row: RowView) throws { title = try row.get("title", as: String.self) }
  }
  private let title: String? = "Ada"

  private func types(_ rows: [Row]) throws -> [String] {
    let row = try #require(rows.first)
    return try (0..<row.count).map { try row.get($0, as: String.self) }
  }

  @Test func caseNamesPlainLiteralsAndSwiftValuesMixInOneLiteral() throws {
    let database = try memoryDatabase()
    let rows = try database.rows(
      "SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), ?, ?",
      [.integer(1), .real(1.5), .text("t"), .blob(Data([1, 2])), .null, id, nil, "literal", title])
    #expect(try types(Array(rows)).prefix(7) == ["integer", "real", "text", "blob", "null", "integer", "null"])
    #expect(rows.first?.values.suffix(2) == ["literal", "Ada"])
  }

  @Test func theCaseNamesBuildArguments() {
    let arguments: StatementArguments = [.integer(-3), .real(0.5), .text("x"), .blob(Data([9])), .null]
    #expect(arguments.positionalValues == [.integer(-3), .real(0.5), .text("x"), .blob(Data([9])), .null])
    // Where a DatabaseValue is expected, the same names are its cases.
    let value: DatabaseValue = .integer(4)
    #expect(value == DatabaseValue.integer(4))
    #expect(StatementArguments.Argument.fromDatabaseValue(.text("y"))?.databaseValue == .text("y"))
  }

  @Test func namedArgumentsKeepTheLiteralsOrderAndBindByName() throws {
    let database = try memoryDatabase()
    let arguments: StatementArguments = ["b": .integer(2), "a": "x", "c": id, "d": nil]
    #expect(arguments.namedArguments?.elements.map(\.0) == ["b", "a", "c", "d"])
    #expect(arguments.namedArguments?.elements.map(\.1) == [2, "x", 7, .null])
    #expect(arguments.positionalValues == nil)
    let rows = try database.execute("SELECT :a AS a, :b AS b, :c AS c, :d AS d", arguments)
    #expect(rows == [["a": "x", "b": 2, "c": 7, "d": .null]])
    let unknown = try #require(throws: DatabaseError.self) {
      try database.execute("SELECT :a", ["a": 1, "zz": .text("no")])
    }
    #expect(unknown.resultCode == .range)
    #expect(unknown.message.contains("zz"))
  }

  @Test func everyCallTakesTheSameArgumentsValue() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    let insert: StatementArguments = [.integer(1), .text("one")]
    try database.execute("INSERT INTO notes VALUES (?, ?)", insert)
    try database.execute("INSERT INTO notes VALUES (:id, :title)", ["id": 2, "title": "two"])
    let byID: StatementArguments = ["id": 2]
    let sql = "SELECT id, title FROM notes WHERE id = :id"
    #expect(try database.rows(sql, byID).map { $0["title"] } == [.text("two")])
    #expect(try database.fetch(Note.self, sql, byID) == [Note(id: 2, title: "two")])
    #expect(try database.fetchOne(Note.self, sql, byID, keyDecoding: .useDefaultKeys) == Note(id: 2, title: "two"))
    #expect(try database.fetch(Record.self, sql, byID) == [Record(title: "two")])
    #expect(try database.fetchOne(Record.self, "SELECT title FROM notes WHERE id = ?", [1]) == Record(title: "one"))
    var streamed: [String] = []
    try database.forEach(Record.self, "SELECT title FROM notes WHERE id >= ? ORDER BY id", [.integer(1)]) {
      streamed.append($0.title)
    }
    #expect(streamed == ["one", "two"])
    var viewed: [Int64] = []
    try database.forEachRow("SELECT id FROM notes ORDER BY id", []) { viewed.append(try $0.get(0, as: Int64.self)) }
    #expect(viewed == [1, 2])
  }

  @Test func aStatementsRunsTakeTheSameType() throws {
    let database = try memoryDatabase()
    let positional = try database.makeStatement("SELECT typeof(?) AS t, ? AS v")
    #expect(try positional.execute([.real(2.5), id]) == [["t": "real", "v": 7]])
    #expect(try positional.rows(["x", nil]).map(\.values) == [["text", .null]])
    let named = try database.makeStatement("SELECT :a + :b AS sum")
    #expect(try named.execute(["b": .integer(2), "a": id]) == [["sum": 9]])
    let wrongCount = try #require(throws: DatabaseError.self) { try positional.execute([1]) }
    #expect(wrongCount.resultCode == .range)
  }

  /// A `[DatabaseValue]` or `NamedArguments` variable binds directly, or
  /// wrapped in `StatementArguments`, to the same result.
  @Test func variablesOfTheConcreteTypesBindDirectlyOrWrapped() throws {
    let database = try memoryDatabase()
    let values: [DatabaseValue] = [1, "x"]
    let named: NamedArguments = ["a": 3]
    #expect(try types(try database.rows("SELECT typeof(?), typeof(?)", values)) == ["integer", "text"])
    #expect(try database.execute("SELECT :a AS a", named) == [["a": 3]])
    #expect(try database.fetchOne(Int.self, "SELECT ? + 1", Array(values.prefix(1))) == 2)
    let statement = try database.makeStatement("SELECT ? AS v")
    #expect(try statement.execute(Array(values.prefix(1))) == [["v": 1]])
    // The same values wrapped.
    #expect(try database.execute("SELECT :a AS a", StatementArguments(named)) == [["a": 3]])
    #expect(try database.rows("SELECT ?, ?", StatementArguments(values)).map(\.values) == [values])
  }
}
