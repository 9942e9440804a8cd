import Foundation
import SQLiteBridge
import Testing

/// Each argument form compiles (the literal forms without ambiguity) and
/// binds values of the right storage class, checked with SQLite's `typeof`.
@Suite("Statement arguments")
struct ArgumentsTests {
  private let id = 42
  private let missingName: String? = nil
  private let name: String? = "Ada"
  private let date = Date(timeIntervalSince1970: 0)

  /// The `typeof` of each value of the single row `rows` returned.
  private func types(_ rows: [Row]) throws -> [String] {
    let row = try #require(rows.first)
    return try (0..<row.count).map { try row.get($0, as: String.self) }
  }

  // MARK: Existing forms keep working

  @Test func databaseValueLiteralsBindTheirCases() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT typeof(?), typeof(?), typeof(?), typeof(?)", ["a", 1, nil, 1.5])
    #expect(try types(rows) == ["text", "integer", "null", "real"])
    let dictionaries = try database.execute("SELECT typeof(?) AS a, typeof(?) AS b", [.blob(Data()), .null])
    #expect(dictionaries == [["a": "blob", "b": "null"]])
    #expect(try database.execute("SELECT 1 AS one", []) == [["one": 1]])
  }

  @Test func databaseValueArrayVariablesBind() throws {
    let database = try memoryDatabase()
    let arguments: [DatabaseValue] = ["a", 1]
    #expect(try types(try database.rows("SELECT typeof(?), typeof(?)", arguments)) == ["text", "integer"])
    #expect(try database.execute("SELECT ? AS a", ["x"]) == [["a": "x"]])
  }

  @Test func namedArgumentLiteralsAndVariablesBind() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT typeof(:a), typeof(@b), typeof($c)", ["a": 1, "b": "x", "c": nil])
    #expect(try types(rows) == ["integer", "text", "null"])
    let named: NamedArguments = ["a": 2.5]
    #expect(try types(try database.rows("SELECT typeof(:a)", named)) == ["real"])
    #expect(try database.execute("SELECT :a AS a", ["a": 1]) == [["a": 1]])
  }

  // MARK: Swift values

  @Test func swiftValuesBindPositionally() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT typeof(?), typeof(?), typeof(?)", [id, missingName, date])
    #expect(try types(rows) == ["integer", "null", "text"])
    #expect(try types(try database.rows("SELECT typeof(?), typeof(?)", [id, name])) == ["integer", "text"])
    let values = try #require(try database.rows("SELECT ?, ?, ?", [id, name, date]).first)
    #expect(values.values == [42, "Ada", "1970-01-01 00:00:00.000"])
  }

  @Test func swiftValuesMixWithLiterals() throws {
    let database = try memoryDatabase()
    let rows = try database.rows("SELECT typeof(?), typeof(?), typeof(?), typeof(?)", [id, "literal", nil, 2.5])
    #expect(try types(rows) == ["integer", "text", "null", "real"])
  }

  @Test func everyConvertibleTypeBindsItsStorageClass() throws {
    let database = try memoryDatabase()
    let arguments: StatementArguments = [
      Int8(-1), Int16(2), Int32(3), Int64(4), UInt8(5), UInt16(6), UInt32(7), true, Float(1.5), 2.5, "s",
      Data([1]), UUID(), date, DatabaseValue.null, Int?.none,
    ]
    let placeholders = Array(repeating: "typeof(?)", count: 16).joined(separator: ", ")
    #expect(
      try types(try database.rows("SELECT \(placeholders)", arguments)) == [
        "integer", "integer", "integer", "integer", "integer", "integer", "integer", "integer", "real", "real",
        "text", "blob", "blob", "text", "null", "null",
      ])
    #expect(arguments.positionalValues?.count == 16)
    #expect(arguments.namedArguments == nil)
  }

  @Test func swiftValuesBindByName() throws {
    let database = try memoryDatabase()
    let rows = try database.rows(
      "SELECT typeof(:id), typeof(:name), typeof(:date)", ["id": id, "name": name, "date": date])
    #expect(try types(rows) == ["integer", "text", "text"])
    let missing = try database.rows("SELECT typeof(:id), typeof(:name)", ["id": id, "name": missingName])
    #expect(try types(missing) == ["integer", "null"])
    let named = NamedArguments(values: ["id": id, "name": missingName])
    #expect(try types(try database.rows("SELECT typeof(:id), typeof(:name)", named)) == ["integer", "null"])
  }

  @Test func everyCallAcceptsSwiftValues() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE people(id INTEGER, name TEXT, born TEXT)")
    try database.execute("INSERT INTO people VALUES (?, ?, ?)", [id, name, date])
    try database.execute(
      "INSERT INTO people VALUES (:id, :name, :born)", ["id": id + 1, "name": missingName, "born": date])
    #expect(try database.rows("SELECT id FROM people WHERE id = ?", [id]).map(\.values) == [[42]])
    var streamed: [Int] = []
    try database.forEachRow("SELECT id FROM people WHERE id >= ? ORDER BY id", [id]) { row in
      streamed.append(try row.get("id", as: Int.self))
    }
    #expect(streamed == [42, 43])
    var unnamed: [Int] = []
    try database.forEachRow("SELECT id FROM people WHERE name IS :name", ["name": missingName]) { row in
      unnamed.append(try row.get("id", as: Int.self))
    }
    #expect(unnamed == [43])
    #expect(try database.fetch(Int.self, "SELECT id FROM people WHERE born = ? ORDER BY id", [date]) == [42, 43])
    #expect(try database.fetchOne(String.self, "SELECT name FROM people WHERE id = ?", [id]) == "Ada")
    #expect(try database.fetchOne(Int.self, "SELECT id FROM people WHERE born = :born", ["born": date]) == 42)
  }

  @Test func statementArgumentsVariablesBind() throws {
    let database = try memoryDatabase()
    let positional = StatementArguments([1, "x"])
    #expect(try types(try database.rows("SELECT typeof(?), typeof(?)", positional)) == ["integer", "text"])
    let named = StatementArguments(["a": 1] as NamedArguments)
    #expect(try types(try database.rows("SELECT typeof(:a)", named)) == ["integer"])
    #expect(named.namedArguments?.elements.map(\.0) == ["a"])
    #expect(positional.positionalValues == [1, "x"])
  }

  @Test func aWrongCountOrNameWithSwiftValuesIsARangeError() throws {
    let database = try memoryDatabase()
    let count = try #require(throws: DatabaseError.self) { try database.execute("SELECT ?, ?", [id]) }
    #expect(count.resultCode == .range)
    let unknown = try #require(throws: DatabaseError.self) { try database.execute("SELECT :a", ["b": id]) }
    #expect(unknown.resultCode == .range)
    #expect(unknown.message.contains("b"))
  }
}
