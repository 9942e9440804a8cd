import Foundation
import SQLiteBridge
import Testing

@Suite("Encodable insert")
struct EncodableInsertTests {
  enum Status: String, Codable {
    case open, closed
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  struct Item: Codable, Equatable {
    var id: Int
    var name: String
    var note: String?
    var price: Double
    var inStock: Bool
    var createdAt: Date
    var tag: UUID
    var payload: Data
    var status: Status
    var origin: Point
  }

  private let item = Item(
    id: 1, name: "lamp", note: nil, price: 9.5, inStock: true,
    createdAt: Date(timeIntervalSince1970: 1_709_642_096.789),
    tag: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, payload: Data([1, 2, 3]), status: .open,
    origin: Point(x: 1, y: -2))

  @Test func insertBindsEachPropertyAsItsColumnType() throws {
    let database = try memoryDatabase()
    try database.execute(
      """
      CREATE TABLE items(id, name, note DEFAULT 'default note', price, inStock, createdAt, tag, payload, status,
        origin)
      """)
    try database.insert(item, into: "items")
    #expect(database.lastInsertRowID == 1)
    let row = try #require(
      try database.rows(
        """
        SELECT typeof(id), typeof(name), typeof(note), typeof(price), typeof(inStock), typeof(createdAt),
          typeof(tag), typeof(payload), typeof(status), typeof(origin), createdAt, status, origin, inStock
        FROM items
        """
      ).first)
    #expect(
      row.values[0..<10].map { $0 } == [
        "integer", "text", "null", "real", "integer", "text", "blob", "blob", "text", "text",
      ])
    #expect(row[10] == "2024-03-05 12:34:56.789")
    #expect(row[11] == "open")
    #expect(row[12] == #"{"x":1,"y":-2}"#)
    #expect(row[13] == .integer(1))
  }

  @Test func insertedValuesFetchBackEqual() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE items(id, name, note, price, inStock, createdAt, tag, payload, status, origin)")
    var second = item
    second.id = 2
    second.note = "with note"
    second.status = .closed
    try database.insert(item, into: "items")
    try database.insert(second, into: "items")
    let fetched = try database.fetch(Item.self, "SELECT * FROM items ORDER BY id")
    #expect(fetched.map(\.id) == [1, 2])
    #expect(fetched.map(\.note) == [nil, "with note"])
    #expect(fetched.map(\.status) == [.open, .closed])
    #expect(fetched.map(\.origin) == [item.origin, item.origin])
    #expect(fetched.map(\.tag) == [item.tag, item.tag])
    #expect(fetched.map(\.payload) == [item.payload, item.payload])
    #expect(fetched.map { $0.createdAt.databaseValue } == [item.createdAt.databaseValue, item.createdAt.databaseValue])
  }

  struct Member: Codable, Equatable {
    var userId: Int
    var displayName: String
    var avatarURL: String?
  }

  @Test func snakeCaseKeyEncodingNamesColumns() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE members(user_id INTEGER, display_name TEXT, avatar_url TEXT)")
    let member = Member(userId: 7, displayName: "Ada", avatarURL: "https://x")
    try database.insert(member, into: "members", keyEncoding: .convertToSnakeCase)
    let rows = try database.rows("SELECT user_id, display_name, avatar_url FROM members")
    #expect(rows.map(\.values) == [[7, "Ada", "https://x"]])
    let back = try database.fetchOne(Member.self, "SELECT * FROM members", keyDecoding: .convertFromSnakeCase)
    #expect(back == member)
    // With default keys the camelCase names are not columns of the table.
    let error = try #require(throws: DatabaseError.self) { try database.insert(member, into: "members") }
    #expect(error.message.contains("userId"))
  }

  struct Hostile: Encodable {
    var value: Int
    enum CodingKeys: String, CodingKey {
      case value = #"va"lue"); DROP TABLE victims; --"#
    }
  }

  @Test func hostileTableAndColumnNamesStayNames() throws {
    let database = try memoryDatabase()
    let table = #"t"; DROP TABLE victims; --"#
    try database.execute("CREATE TABLE victims(x)")
    try database.execute(#"CREATE TABLE "t""; DROP TABLE victims; --"("va""lue""); DROP TABLE victims; --")"#)
    try database.insert(Hostile(value: 42), into: table)
    #expect(try database.rows(#"SELECT * FROM "t""; DROP TABLE victims; --""#).map(\.values) == [[42]])
    #expect(try tableNames(database).contains("victims"))
  }

  @Test func aNulInANameIsRejectedBeforeRunning() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(value)")
    let error = try #require(throws: DatabaseError.self) { try database.insert(Point(x: 1, y: 2), into: "t\u{0}x") }
    #expect(error.resultCode == .error)
    #expect(error.message.contains("NUL"))
  }

  @Test func aMissingTableOrColumnIsTheDatabaseError() throws {
    let database = try memoryDatabase()
    let table = try #require(throws: DatabaseError.self) { try database.insert(Point(x: 1, y: 2), into: "nowhere") }
    #expect(table.resultCode == .error)
    #expect(table.message.contains("no such table"))
    try database.execute("CREATE TABLE points(x)")
    let column = try #require(throws: DatabaseError.self) { try database.insert(Point(x: 1, y: 2), into: "points") }
    #expect(column.resultCode == .error)
    #expect(column.message.contains("y"))
    #expect(try database.rows("SELECT * FROM points").isEmpty)
  }

  @Test func aConstraintFailureIsTheDatabaseError() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE points(x UNIQUE, y)")
    try database.insert(Point(x: 1, y: 2), into: "points")
    let error = try #require(throws: DatabaseError.self) { try database.insert(Point(x: 1, y: 3), into: "points") }
    #expect(error.extendedResultCode == .constraintUnique)
  }

  struct Unsigned: Encodable {
    var big: UInt64
  }

  @Test func anUnsignedValueAboveInt64MaxIsAnEncodingError() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE u(big)")
    try database.insert(Unsigned(big: UInt64(Int64.max)), into: "u")
    let error = try #require(throws: EncodingError.self) {
      try database.insert(Unsigned(big: UInt64(Int64.max) + 1), into: "u")
    }
    guard case .invalidValue(_, let context) = error else {
      Issue.record("expected invalidValue, got \(error)")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["big"])
    #expect(try database.rows("SELECT big FROM u").map(\.values) == [[.integer(Int64.max)]])
  }

  struct Empty: Encodable {}

  @Test func aValueWithoutPropertiesInsertsDefaultValues() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE d(id INTEGER PRIMARY KEY, label DEFAULT 'none')")
    try database.insert(Empty(), into: "d")
    #expect(try database.rows("SELECT id, label FROM d").map(\.values) == [[1, "none"]])
  }

  struct Nested: Encodable {
    var id = 1
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .id)
      try nested.encode(2, forKey: .id)
    }
    enum CodingKeys: String, CodingKey { case id }
  }

  @Test func valuesThatAreNotARowAreEncodingErrors() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(id)")
    #expect(throws: EncodingError.self) { try database.insert(5, into: "t") }
    #expect(throws: EncodingError.self) { try database.insert([1, 2], into: "t") }
    let nested = try #require(throws: EncodingError.self) { try database.insert(Nested(), into: "t") }
    guard case .invalidValue(_, let context) = nested else {
      Issue.record("expected invalidValue, got \(nested)")
      return
    }
    #expect(context.debugDescription.contains(#"key "id" asks for a nested container"#))
    #expect(try database.rows("SELECT * FROM t").isEmpty)
  }

  /// Two keys naming one column (ASCII case aside).
  struct TwoSpellings: Encodable {
    var name: String
    var capitalized: String
    enum CodingKeys: String, CodingKey {
      case name
      case capitalized = "Name"
    }
  }

  @Test func keysNamingOneColumnSetItOnceTheLaterWins() throws {
    // As a PersistenceContainer sets columns: the first spelling, the later
    // value (SQLite, given the column twice, kept the earlier one).
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(name)")
    try database.insert(TwoSpellings(name: "first", capitalized: "second"), into: "t")
    #expect(try database.rows("SELECT name FROM t").map(\.values) == [["second"]])
  }
}
