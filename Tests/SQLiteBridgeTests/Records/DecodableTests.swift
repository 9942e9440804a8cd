import Foundation
import SQLiteBridge
import Testing

@Suite("Decodable rows: fetch and fetchOne")
struct DecodableTests {
  struct Note: Decodable, Equatable {
    var id: Int
    var title: String
    var body: String?
    var score: Double
    var pinned: Bool
  }

  struct Member: Decodable, Equatable {
    var userId: Int
    var displayName: String
    var createdAt: Date
    var avatarURL: String?
  }

  struct Everything: Decodable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var bool: Bool
    var double: Double
    var float: Float
    var string: String
    var data: Data
    var date: Date
    var uuid: UUID
    var optionalUUID: UUID?
    var optionalDate: Date?
  }

  enum Status: String, Decodable {
    case open, closed
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
  }

  struct Shape: Decodable, Equatable {
    var status: Status
    var origin: Point
    var path: [Point]?
  }

  private func notes() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT, score REAL, pinned INTEGER);
      INSERT INTO notes VALUES (1, 'first', 'hello', 1.5, 1), (2, 'second', NULL, 2, 0), (3, 'third', 'x', 0.25, 5);
      """)
    return database
  }

  // MARK: Success

  @Test func fetchDecodesEveryRowByColumnName() throws {
    let database = try notes()
    let rows = try database.fetch(Note.self, "SELECT * FROM notes ORDER BY id")
    #expect(
      rows == [
        Note(id: 1, title: "first", body: "hello", score: 1.5, pinned: true),
        Note(id: 2, title: "second", body: nil, score: 2.0, pinned: false),
        Note(id: 3, title: "third", body: "x", score: 0.25, pinned: true),
      ])
  }

  @Test func columnOrderAndExtraColumnsDoNotMatter() throws {
    let database = try notes()
    let rows = try database.fetch(
      Note.self, "SELECT pinned, 'ignored' AS extra, score, body, title, id FROM notes WHERE id = ?", [2])
    #expect(rows == [Note(id: 2, title: "second", body: nil, score: 2.0, pinned: false)])
  }

  @Test func columnNamesMatchCaseInsensitivelyAndTheLeftmostWins() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch(
      Note.self, "SELECT 1 AS ID, 'a' AS Title, 'b' AS BODY, 0.5 AS score, 0 AS Pinned, 99 AS id")
    #expect(rows == [Note(id: 1, title: "a", body: "b", score: 0.5, pinned: false)])
  }

  @Test func fetchOneReturnsTheFirstRowOrNil() throws {
    let database = try notes()
    let first = try database.fetchOne(Note.self, "SELECT * FROM notes ORDER BY id DESC")
    #expect(first?.id == 3)
    #expect(try database.fetchOne(Note.self, "SELECT * FROM notes WHERE id > ?", [10]) == nil)
  }

  @Test func fetchOneDoesNotStepPastTheFirstRow() throws {
    let database = try memoryDatabase()
    // Stepping to the second row fails (integer overflow); fetchOne never does.
    let sql = "SELECT 1 AS v UNION ALL SELECT abs(-9223372036854775807 - 1)"
    #expect(try database.fetchOne(Int.self, sql) == 1)
    #expect(throws: DatabaseError.self) { try database.fetch(Int.self, sql) }
    // The statement was reset: it runs again.
    #expect(try database.fetchOne(Int.self, sql) == 1)
  }

  @Test func convertibleTypesAreReadFromTheFirstColumn() throws {
    let database = try notes()
    #expect(try database.fetch(Int.self, "SELECT id, title FROM notes ORDER BY id") == [1, 2, 3])
    #expect(try database.fetch(String?.self, "SELECT body FROM notes ORDER BY id") == ["hello", nil, "x"])
    #expect(try database.fetchOne(Int.self, "SELECT count(*) FROM notes") == 3)
    let date = try #require(try database.fetchOne(Date.self, "SELECT '2024-03-05 12:34:56.789'"))
    #expect(date.databaseValue == .text("2024-03-05 12:34:56.789"))
  }

  @Test func snakeCaseColumnsFillCamelCaseProperties() throws {
    let database = try memoryDatabase()
    try database.execute(
      "CREATE TABLE members(user_id INTEGER, display_name TEXT, created_at TEXT, avatar_url TEXT)")
    try database.execute("INSERT INTO members VALUES (7, 'Ada', '2024-03-05 12:34:56.789', 'https://x')")
    let sql = "SELECT * FROM members"
    let members = try database.fetch(Member.self, sql, keyDecoding: .convertFromSnakeCase)
    #expect(members.count == 1)
    #expect(members.first?.userId == 7)
    #expect(members.first?.displayName == "Ada")
    #expect(members.first?.createdAt.databaseValue == .text("2024-03-05 12:34:56.789"))
    // `avatar_url` becomes `avatarUrl`, which matches `avatarURL` as case is ignored.
    #expect(members.first?.avatarURL == "https://x")
    let one = try database.fetchOne(Member.self, sql, [], keyDecoding: .convertFromSnakeCase)
    #expect(one == members.first)
    // Without the strategy, the snake_case columns match no property.
    let error = try #require(throws: DecodingError.self) { try database.fetch(Member.self, sql) }
    guard case .keyNotFound(let key, _) = error else {
      Issue.record("expected keyNotFound, got \(error)")
      return
    }
    #expect(key.stringValue == "userId")
  }

  struct Underscored: Decodable, Equatable {
    var _privateValue: Int
    // The name tests the underscores snake_case conversion keeps.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var __metaData_: String
    var plain: Int
  }

  @Test func snakeCaseConversionKeepsLeadingAndTrailingUnderscores() throws {
    let database = try memoryDatabase()
    let row = try database.fetchOne(
      Underscored.self, "SELECT 1 AS _private_value, 'm' AS __meta_data_, 2 AS plain",
      keyDecoding: .convertFromSnakeCase)
    #expect(row == Underscored(_privateValue: 1, __metaData_: "m", plain: 2))
  }

  @Test func aDictionaryDecodesEveryColumnOnce() throws {
    let database = try memoryDatabase()
    let rows = try database.fetch([String: Int].self, "SELECT 1 AS a, 2 AS b, 3 AS A UNION ALL SELECT 4, 5, 6")
    #expect(rows == [["a": 1, "b": 2], ["a": 4, "b": 5]])
  }

  @Test func optionalPropertiesAreNilWhenTheColumnIsAbsentOrNull() throws {
    let database = try memoryDatabase()
    let absent = try database.fetchOne(Note.self, "SELECT 1 AS id, 't' AS title, 1.0 AS score, 1 AS pinned")
    #expect(absent == Note(id: 1, title: "t", body: nil, score: 1, pinned: true))
    let null = try database.fetchOne(Note.self, "SELECT 1 AS id, 't' AS title, NULL AS body, 1 AS score, 0 AS pinned")
    #expect(null == Note(id: 1, title: "t", body: nil, score: 1, pinned: false))
  }

  @Test func everyConvertibleTypeDecodesAsAProperty() throws {
    let database = try memoryDatabase()
    let uuid = UUID()
    let sql = """
      SELECT -1 AS int, -8 AS int8, -16 AS int16, -32 AS int32, -64 AS int64, 1 AS uint, 8 AS uint8, 16 AS uint16,
        32 AS uint32, 9223372036854775807 AS uint64, 3 AS bool, 2 AS double, 0.5 AS float, 's' AS string,
        x'0102' AS data, '2001-01-01 00:00:00.000' AS date, ? AS uuid, ? AS optionalUUID,
        NULL AS optionalDate
      """
    let everything = try #require(try database.fetchOne(Everything.self, sql, [uuid, uuid.uuidString]))
    #expect(everything.int == -1 && everything.int8 == -8 && everything.int16 == -16)
    #expect(everything.int32 == -32 && everything.int64 == -64 && everything.uint == 1 && everything.uint8 == 8)
    #expect(everything.uint16 == 16 && everything.uint32 == 32 && everything.uint64 == UInt64(Int64.max))
    #expect(everything.bool && everything.double == 2.0 && everything.float == 0.5 && everything.string == "s")
    #expect(everything.data == Data([1, 2]))
    #expect(everything.date == Date(timeIntervalSinceReferenceDate: 0))
    #expect(everything.uuid == uuid)
    #expect(everything.optionalUUID == uuid)
    #expect(everything.optionalDate == nil)
  }

  @Test func nestedDecodableTypesReadRawValuesAndJSONText() throws {
    let database = try memoryDatabase()
    let shape = try database.fetchOne(
      Shape.self,
      #"SELECT 'open' AS status, '{"x": 1, "y": 2}' AS origin, '[{"x": 3, "y": 4}]' AS path"#)
    #expect(shape == Shape(status: .open, origin: Point(x: 1, y: 2), path: [Point(x: 3, y: 4)]))
    let noPath = try database.fetchOne(Shape.self, #"SELECT 'closed' AS status, '{"x":0,"y":0}' AS origin"#)
    #expect(noPath == Shape(status: .closed, origin: Point(x: 0, y: 0), path: nil))
  }

  @Test func argumentFormsWork() throws {
    let database = try notes()
    let id = 2
    let sql = "SELECT * FROM notes WHERE id = :id"
    #expect(try database.fetch(Note.self, sql, ["id": 2]).map(\.id) == [2])
    #expect(try database.fetch(Note.self, sql, ["id": id]).map(\.id) == [2])
    #expect(try database.fetchOne(Note.self, sql, ["id": 2])?.id == 2)
    #expect(try database.fetchOne(Note.self, sql, ["id": id])?.id == 2)
    #expect(try database.fetch(Note.self, "SELECT * FROM notes WHERE id = ?", [id]).map(\.id) == [2])
    #expect(try database.fetchOne(Note.self, "SELECT * FROM notes WHERE id = ?", [id])?.id == 2)
    #expect(try database.fetch(Note.self, sql, ["id": 2], keyDecoding: .convertFromSnakeCase).map(\.id) == [2])
    #expect(try database.fetch(Note.self, sql, ["id": id], keyDecoding: .convertFromSnakeCase).map(\.id) == [2])
    #expect(try database.fetchOne(Note.self, sql, ["id": 2], keyDecoding: .useDefaultKeys)?.id == 2)
    #expect(try database.fetchOne(Note.self, sql, ["id": id], keyDecoding: .useDefaultKeys)?.id == 2)
  }

  // MARK: Errors

  @Test func aMissingNonOptionalColumnIsKeyNotFoundNamingIt() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DecodingError.self) {
      try database.fetch(Note.self, "SELECT 1 AS id, 1.0 AS score, 1 AS pinned")
    }
    guard case .keyNotFound(let key, let context) = error else {
      Issue.record("expected keyNotFound, got \(error)")
      return
    }
    #expect(key.stringValue == "title")
    #expect(context.codingPath.map(\.stringValue) == ["title"])
    #expect(context.debugDescription.contains(#"no column named "title" in the row"#))
  }

  @Test func aMissingSnakeCaseColumnIsNamedInSnakeCase() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DecodingError.self) {
      try database.fetch(Member.self, "SELECT 1 AS user_id, 'x' AS display_name", keyDecoding: .convertFromSnakeCase)
    }
    guard case .keyNotFound(let key, let context) = error else {
      Issue.record("expected keyNotFound, got \(error)")
      return
    }
    #expect(key.stringValue == "createdAt")
    #expect(context.debugDescription.contains(#"no column named "created_at""#))
  }

  @Test func aNullNonOptionalColumnIsValueNotFoundNamingIt() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DecodingError.self) {
      try database.fetch(Note.self, "SELECT 1 AS id, NULL AS title, 1.0 AS score, 1 AS pinned")
    }
    guard case .valueNotFound(let type, let context) = error else {
      Issue.record("expected valueNotFound, got \(error)")
      return
    }
    #expect(type is String.Type)
    #expect(context.codingPath.map(\.stringValue) == ["title"])
    #expect(context.debugDescription == #"column "title" holds NULL, which does not convert to String"#)
  }

  @Test func aValueThatDoesNotConvertIsTypeMismatchWithTheDatabaseError() throws {
    let database = try memoryDatabase()
    let error = try #require(throws: DecodingError.self) {
      try database.fetch(Note.self, "SELECT 'abc' AS id, 't' AS title, 1.0 AS score, 1 AS pinned")
    }
    guard case .typeMismatch(let type, let context) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return
    }
    #expect(type is Int.Type)
    #expect(context.codingPath.map(\.stringValue) == ["id"])
    #expect(context.debugDescription == #"column "id" holds text 'abc', which does not convert to Int"#)
    let underlying = try #require(context.underlyingError as? DatabaseError)
    #expect(underlying.resultCode == .mismatch)
    #expect(underlying.message == context.debugDescription)
  }

  @Test func conversionErrorsCoverFractionsRangesAndText() throws {
    let database = try memoryDatabase()
    func description(_ sql: String) throws -> String {
      let error = try #require(throws: DecodingError.self) { try database.fetch(Everything.self, sql) }
      guard case .typeMismatch(_, let context) = error else { return "\(error)" }
      return context.debugDescription
    }
    #expect(try description("SELECT 2.5 AS int") == #"column "int" holds real 2.5, which does not convert to Int"#)
    #expect(
      try description("SELECT 1 AS int, 300 AS int8")
        == #"column "int8" holds integer 300, which does not convert to Int8"#)
    #expect(
      try description("SELECT 1 AS int, 1 AS int8, 1 AS int16, 1 AS int32, 1 AS int64, -1 AS uint")
        == #"column "uint" holds integer -1, which does not convert to UInt"#)
    let scalar = try #require(throws: DecodingError.self) { try database.fetch(Int.self, "SELECT '12' AS n") }
    guard case .typeMismatch(_, let context) = scalar else {
      Issue.record("expected typeMismatch, got \(scalar)")
      return
    }
    #expect(context.debugDescription == #"column "n" holds text '12', which does not convert to Int"#)
  }

  @Test func badNestedValuesNameTheColumn() throws {
    let database = try memoryDatabase()
    let status = try #require(throws: DecodingError.self) {
      try database.fetch(Shape.self, #"SELECT 7 AS status, '{"x":0,"y":0}' AS origin"#)
    }
    guard case .typeMismatch(_, let statusContext) = status else {
      Issue.record("expected typeMismatch, got \(status)")
      return
    }
    #expect(statusContext.codingPath.map(\.stringValue) == ["status"])
    #expect(statusContext.debugDescription == #"column "status" holds integer 7, which does not convert to String"#)
    let json = try #require(throws: DecodingError.self) {
      try database.fetch(Shape.self, "SELECT 'open' AS status, 'not json' AS origin")
    }
    guard case .typeMismatch(let jsonType, let jsonContext) = json else {
      Issue.record("expected typeMismatch, got \(json)")
      return
    }
    #expect(jsonType is Point.Type)
    #expect(jsonContext.codingPath.map(\.stringValue) == ["origin"])
    let jsonError = try #require(jsonContext.underlyingError as? DatabaseError)
    #expect(jsonError.resultCode == .mismatch)
    #expect(
      jsonError.message
        == #"column "origin" holds text 'not json' that is not JSON for Point, which does not convert to Point"#)
    #expect(jsonContext.debugDescription.hasPrefix(jsonError.message + " ("))
    let number = try #require(throws: DecodingError.self) {
      try database.fetch(Shape.self, "SELECT 'open' AS status, 5 AS origin")
    }
    guard case .typeMismatch(_, let numberContext) = number else {
      Issue.record("expected typeMismatch, got \(number)")
      return
    }
    #expect(numberContext.debugDescription == #"column "origin" holds integer 5, which does not convert to Point"#)
  }

  @Test func aFailingRowStopsTheFetch() throws {
    let database = try memoryDatabase()
    #expect(throws: DecodingError.self) {
      try database.fetch(Int.self, "SELECT 1 UNION ALL SELECT 'x' UNION ALL SELECT 3")
    }
    #expect(try database.fetch(Int.self, "SELECT 1 UNION ALL SELECT 2") == [1, 2])
  }
}
