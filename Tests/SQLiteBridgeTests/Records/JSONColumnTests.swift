import Foundation
import SQLiteBridge
import Testing

// JSON columns (issue 29, part 3): a Codable record's property that is not a
// database value is stored as JSON text and decoded from it, with the
// record type's databaseJSONEncoder/databaseJSONDecoder hooks; text that is
// not JSON for the property fails with `.mismatch` naming the column; SQLite's
// JSON functions work over the stored text.

/// Whether this SQLite has the JSON functions (a build may leave them out:
/// SQLITE_OMIT_JSON).
private let sqliteHasJSONFunctions: Bool = {
  guard let database = try? Database(path: ":memory:") else { return false }
  return (try? database.execute("SELECT json_extract('[1]', '$[0]')")) != nil
}()

/// What a hook was asked, in order (the hooks are static: each type that
/// logs is used by one test only, as tests run in parallel).
final class JSONHookLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []

  func record(_ entry: String) { lock.withLock { entries.append(entry) } }

  /// The entries so far, emptied.
  func take() -> [String] {
    lock.withLock {
      defer { entries = [] }
      return entries
    }
  }
}

@Suite("JSON columns: Codable properties stored as JSON text")
struct JSONColumnTests {
  struct Address: Codable, Equatable {
    var street: String
    var city: String
  }

  /// A record with a nested struct, an array, a dictionary and an optional
  /// array (the default hooks).
  struct Profile: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "profiles"
    var id: Int64
    var name: String
    var address: Address
    var tags: [String]
    var scores: [String: Int]
    var aliases: [String]?
  }

  /// The same shape, neither `FetchableRecord` nor `PersistableRecord`.
  struct PlainProfile: Codable, Equatable {
    var id: Int64
    var name: String
    var address: Address
    var tags: [String]
    var scores: [String: Int]
    var aliases: [String]?
  }

  static let createProfiles =
    "CREATE TABLE profiles(id INTEGER PRIMARY KEY, name TEXT, address TEXT, tags TEXT, scores TEXT, aliases TEXT)"

  static let ann = Profile(
    id: 1, name: "Ann", address: Address(street: "1 Rue Haute", city: "Paris"), tags: ["admin", "dev"],
    scores: ["y": 2, "x": 1], aliases: nil)
  static let bob = Profile(
    id: 2, name: "Bob", address: Address(street: "2 Low St", city: "Leeds"), tags: [], scores: [:],
    aliases: ["bobby", "rob"])

  func profiles() throws -> Database {
    let database = try memoryDatabase()
    try database.execute(Self.createProfiles)
    return database
  }

  /// The stored text of `column` for each row, by id.
  func stored(_ database: Database, _ column: String, table: String = "profiles") throws -> [DatabaseValue] {
    try database.rows("SELECT \(column) FROM \(table) ORDER BY id").map { $0[0] }
  }

  /// `fetch` through the `Decodable` path even for a `FetchableRecord`
  /// (generic code sees only `Decodable`).
  func decodeAll<T: Decodable>(_ database: Database, _ type: T.Type, _ sql: String) throws -> [T] {
    try database.fetch(type, sql)
  }

  /// `insert(_:into:)` through the `Encodable` path.
  func insertEncodable<T: Encodable>(_ database: Database, _ value: T, into table: String) throws {
    try database.insert(value, into: table)
  }

  // MARK: Round trips

  @Test func aPersistableRecordStoresNestedValuesAsSortedJSONText() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    try database.insert(Self.bob)
    #expect(
      try stored(database, "address") == [
        #"{"city":"Paris","street":"1 Rue Haute"}"#, #"{"city":"Leeds","street":"2 Low St"}"#,
      ])
    #expect(try stored(database, "tags") == [#"["admin","dev"]"#, "[]"])
    #expect(try stored(database, "scores") == [#"{"x":1,"y":2}"#, "{}"])
    #expect(try stored(database, "aliases") == [.null, #"["bobby","rob"]"#])
    #expect(try stored(database, "typeof(tags)") == ["text", "text"])
  }

  @Test func anEncodableInsertStoresTheSameTextAsAPersistableRecord() throws {
    let database = try profiles()
    try insertEncodable(database, Self.ann, into: "profiles")  // a record, through insert(_:into:)
    let plain = PlainProfile(
      id: 2, name: "Ann", address: Self.ann.address, tags: Self.ann.tags, scores: Self.ann.scores, aliases: nil)
    try database.insert(plain, into: "profiles")
    let first = try database.rows("SELECT address, tags, scores, aliases FROM profiles WHERE id = 1")[0]
    let second = try database.rows("SELECT address, tags, scores, aliases FROM profiles WHERE id = 2")[0]
    #expect(first.values == second.values)
    #expect(
      first.values == [#"{"city":"Paris","street":"1 Rue Haute"}"#, #"["admin","dev"]"#, #"{"x":1,"y":2}"#, .null])
  }

  @Test func recordsFetchBackEqualThroughEveryPath() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    try database.insert(Self.bob, into: "profiles")
    let sql = "SELECT * FROM profiles ORDER BY id"
    // FetchableRecord: the default init(row:).
    #expect(try database.fetch(Profile.self, sql) == [Self.ann, Self.bob])
    #expect(try database.fetchOne(Profile.self, key: 2) == Self.bob)
    #expect(try database.fetchAll(Profile.self).sorted { $0.id < $1.id } == [Self.ann, Self.bob])
    var streamed: [Profile] = []
    try database.forEach(Profile.self, sql) { streamed.append($0) }
    #expect(streamed == [Self.ann, Self.bob])
    // Decodable: the row decoder, for the record type and for a plain type.
    #expect(try decodeAll(database, Profile.self, sql) == [Self.ann, Self.bob])
    #expect(try database.fetch(Profile.self, sql, keyDecoding: .useDefaultKeys) == [Self.ann, Self.bob])
    let plain = try database.fetch(PlainProfile.self, sql)
    #expect(plain.map(\.tags) == [["admin", "dev"], []])
    #expect(plain.map(\.scores) == [["x": 1, "y": 2], [:]])
    #expect(plain.map(\.address) == [Self.ann.address, Self.bob.address])
    #expect(plain.map(\.aliases) == [nil, ["bobby", "rob"]])
  }

  @Test func updateAndSaveRewriteTheJSONText() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    var changed = Self.ann
    changed.tags.append("ops")
    changed.address.city = "Lyon"
    try database.update(changed)
    #expect(try stored(database, "tags") == [#"["admin","dev","ops"]"#])
    #expect(try stored(database, "address") == [#"{"city":"Lyon","street":"1 Rue Haute"}"#])
    changed.aliases = ["annie"]
    try database.save(changed)
    #expect(try database.fetchOne(Profile.self, key: 1) == changed)
  }

  // MARK: Hooks

  struct Schedule: Codable, Equatable {
    var startsAt: Date
    var endsAt: Date
  }

  struct Meta: Codable, Equatable {
    var createdBy: String
    var links: [String]
  }

  /// Different coders per column: `schedule` with ISO 8601 dates, `meta`
  /// with snake_case keys and unescaped slashes, `rehearsal` (the same type
  /// as `schedule`) with the default coders.
  struct Event: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "events"
    var id: Int64
    var schedule: Schedule
    var rehearsal: Schedule
    var meta: Meta

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      switch column {
      case "schedule":
        encoder.dateEncodingStrategy = .iso8601
      case "meta":
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting.insert(.withoutEscapingSlashes)
      default:
        break
      }
      return encoder
    }

    static func databaseJSONDecoder(for column: String) -> JSONDecoder {
      let decoder = JSONDecoder()
      switch column {
      case "schedule": decoder.dateDecodingStrategy = .iso8601
      case "meta": decoder.keyDecodingStrategy = .convertFromSnakeCase
      default: break
      }
      return decoder
    }
  }

  static let noon = Date(timeIntervalSince1970: 1_709_640_000)  // 2024-03-05T12:00:00Z
  static let event = Event(
    id: 1, schedule: Schedule(startsAt: noon, endsAt: noon + 3600),
    rehearsal: Schedule(startsAt: noon - 86400, endsAt: noon - 82800),
    meta: Meta(createdBy: "ann", links: ["https://example.com/a"]))

  func events() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE events(id INTEGER PRIMARY KEY, schedule TEXT, rehearsal TEXT, meta TEXT)")
    return database
  }

  @Test func eachColumnIsWrittenByTheEncoderTheHookGivesForIt() throws {
    let database = try events()
    try database.insert(Self.event)
    #expect(
      try stored(database, "schedule", table: "events") == [
        #"{"endsAt":"2024-03-05T13:00:00Z","startsAt":"2024-03-05T12:00:00Z"}"#
      ])
    // The same type in another column: the default encoder (seconds since
    // 2001-01-01).
    #expect(try stored(database, "rehearsal", table: "events") == [#"{"endsAt":731250000,"startsAt":731246400}"#])
    #expect(
      try stored(database, "meta", table: "events") == [#"{"created_by":"ann","links":["https://example.com/a"]}"#])
    // insert(_:into:) of the record uses its hook too.
    var second = Self.event
    second.id = 2
    try insertEncodable(database, second, into: "events")
    let texts = try database.rows("SELECT schedule, rehearsal, meta FROM events ORDER BY id").map(\.values)
    #expect(texts[0] == texts[1])
  }

  @Test func eachColumnIsReadByTheDecoderTheHookGivesForIt() throws {
    let database = try events()
    try database.insert(Self.event)
    #expect(try database.fetch(Event.self, "SELECT * FROM events") == [Self.event])
    #expect(try decodeAll(database, Event.self, "SELECT * FROM events") == [Self.event])
    // JSON written by hand, as the hooks expect it.
    try database.execute(
      #"""
      INSERT INTO events VALUES (2, '{"startsAt":"2024-03-05T12:00:00Z","endsAt":"2024-03-05T12:00:00Z"}',
        '{"startsAt":0,"endsAt":0}', '{"created_by":"bob","links":[]}')
      """#)
    let handWritten = try #require(try database.fetchOne(Event.self, key: 2))
    #expect(handWritten.schedule == Schedule(startsAt: Self.noon, endsAt: Self.noon))
    #expect(handWritten.rehearsal.startsAt == Date(timeIntervalSinceReferenceDate: 0))
    #expect(handWritten.meta == Meta(createdBy: "bob", links: []))
  }

  @Test func aColumnsDecoderRejectingItsTextIsAMismatchNamingTheColumn() throws {
    let database = try events()
    // Dates as numbers where the hook's decoder wants ISO 8601.
    try database.execute(
      #"INSERT INTO events VALUES (1, '{"startsAt":0,"endsAt":0}', '{"startsAt":0,"endsAt":0}', '{"created_by":"x","links":[]}')"#
    )
    let error = try #require(throws: DecodingError.self) { try database.fetch(Event.self, "SELECT * FROM events") }
    guard case .typeMismatch(let type, let context) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return
    }
    #expect(type is Schedule.Type)
    #expect(context.codingPath.map(\.stringValue) == ["schedule"])
    let underlying = try #require(context.underlyingError as? DatabaseError)
    #expect(underlying.resultCode == .mismatch)
    #expect(
      underlying.message
        == #"column "schedule" holds text '{"startsAt":0,"endsAt":0}' that is not JSON for Schedule, which does not convert to Schedule"#
    )
  }

  /// Logs its hooks (used by one test only).
  struct Logged: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "logged"
    static let log = JSONHookLog()
    var id: Int64
    var shippingAddress: Address
    var tags: [String]
    var note: String

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
      log.record("encoder \(column)")
      return JSONEncoder()
    }

    static func databaseJSONDecoder(for column: String) -> JSONDecoder {
      log.record("decoder \(column)")
      return JSONDecoder()
    }
  }

  @Test func hooksGetTheColumnNameOncePerColumnPerQuery() throws {
    let database = try memoryDatabase()
    try database.execute(
      "CREATE TABLE logged(id INTEGER PRIMARY KEY, shippingAddress TEXT, shipping_address TEXT, tags TEXT, note TEXT)")
    let address = Address(street: "s", city: "c")
    let records = (1...3).map { Logged(id: $0, shippingAddress: address, tags: ["t\($0)"], note: "n") }
    for record in records { try database.insert(record) }
    // Asked once per JSON column for all three records (the database keeps
    // the encoders with the insert's plan), never for `note`.
    #expect(Logged.log.take() == ["encoder shippingAddress", "encoder tags"])
    // Another kind of write has a plan of its own: asked once more.
    try database.save(records[0])
    try database.save(records[1])
    #expect(Logged.log.take() == ["encoder shippingAddress", "encoder tags"])

    // Three rows, one query: each JSON column's decoder is asked for once,
    // through init(row:) (a context per row) and through the row decoder.
    let sql = "SELECT id, shippingAddress, tags, note FROM logged ORDER BY id"
    #expect(try database.fetch(Logged.self, sql) == records)
    #expect(Logged.log.take() == ["decoder shippingAddress", "decoder tags"])
    #expect(try decodeAll(database, Logged.self, sql) == records)
    #expect(Logged.log.take() == ["decoder shippingAddress", "decoder tags"])
    var streamed = 0
    try database.forEach(Logged.self, sql) { _ in streamed += 1 }
    #expect(streamed == 3)
    #expect(Logged.log.take() == ["decoder shippingAddress", "decoder tags"])
    // A query with no rows asks for nothing.
    #expect(try database.fetch(Logged.self, "SELECT * FROM logged WHERE id > 3") == [])
    #expect(Logged.log.take() == [])

    // The column's name, not the key: snake_case on the way in and out.
    try database.execute("DELETE FROM logged")
    try database.insert(records[0], into: "logged", keyEncoding: .convertToSnakeCase)
    #expect(Logged.log.take() == ["encoder shipping_address", "encoder tags"])
    let snake = try database.fetch(
      Logged.self, "SELECT id, shipping_address, tags, note FROM logged", keyDecoding: .convertFromSnakeCase)
    #expect(snake == [records[0]])
    #expect(Logged.log.take() == ["decoder shipping_address", "decoder tags"])
  }

  @Test func typesThatAreNotRecordsUseTheDefaultCoders() throws {
    struct Plain: Codable, Equatable {
      var schedule: Schedule
    }
    let database = try events()
    let schedule = Schedule(startsAt: Date(timeIntervalSinceReferenceDate: 0), endsAt: Self.noon)
    try database.insert(Plain(schedule: schedule), into: "events")
    #expect(try stored(database, "schedule", table: "events") == [#"{"endsAt":731332800,"startsAt":0}"#])
    #expect(try database.fetch(Plain.self, "SELECT schedule FROM events") == [Plain(schedule: schedule)])
  }

  // MARK: Failures

  /// The `.mismatch` error under a `DecodingError.typeMismatch` for
  /// `column`, checked; its message. The description is the message, and
  /// for text that is not JSON, JSONDecoder's reason after it.
  func jsonMismatch(
    _ error: DecodingError, column: String, json: Bool = true, sql: String = "SELECT * FROM profiles ORDER BY id"
  ) throws -> String {
    guard case .typeMismatch(_, let context) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return ""
    }
    #expect(context.codingPath.map(\.stringValue) == [column])
    let underlying = try #require(context.underlyingError as? DatabaseError)
    #expect(underlying.resultCode == .mismatch)
    #expect(underlying.sql == sql)
    if json {
      #expect(context.debugDescription.hasPrefix(underlying.message + " ("))
    } else {
      #expect(context.debugDescription == underlying.message)
    }
    return underlying.message
  }

  @Test func textThatIsNotJSONFailsTheFetchWithAMismatchNamingTheColumn() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    try database.insert(Self.bob)
    try database.execute("UPDATE profiles SET tags = 'not json' WHERE id = 2")
    let sql = "SELECT * FROM profiles ORDER BY id"
    let expected =
      #"column "tags" holds text 'not json' that is not JSON for Array<String>, which does not convert to Array<String>"#
    // Every path: FetchableRecord's init(row:), the row decoder, a plain type.
    let viaRecord = try #require(throws: DecodingError.self) { try database.fetch(Profile.self, sql) }
    #expect(try jsonMismatch(viaRecord, column: "tags") == expected)
    let viaDecoder = try #require(throws: DecodingError.self) { try decodeAll(database, Profile.self, sql) }
    #expect(try jsonMismatch(viaDecoder, column: "tags") == expected)
    let viaPlain = try #require(throws: DecodingError.self) { try database.fetch(PlainProfile.self, sql) }
    #expect(try jsonMismatch(viaPlain, column: "tags") == expected)
    // forEach hands over the rows before the bad one, then throws.
    var streamed: [Int64] = []
    do {
      try database.forEach(Profile.self, sql) { streamed.append($0.id) }
      Issue.record("forEach did not throw")
    } catch {
      #expect(error is DecodingError)
    }
    #expect(streamed == [1])
    // The connection is usable afterwards.
    try database.execute("UPDATE profiles SET tags = '[]' WHERE id = 2")
    #expect(try database.fetch(Profile.self, sql).map(\.tags) == [["admin", "dev"], []])
  }

  @Test func jsonOfAnotherShapeFailsTooAndSaysWhereInTheJSON() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    try database.execute(#"UPDATE profiles SET address = '{"street":"s","city":7}'"#)
    let error = try #require(throws: DecodingError.self) {
      try database.fetch(Profile.self, "SELECT * FROM profiles ORDER BY id")
    }
    #expect(
      try jsonMismatch(error, column: "address")
        == #"column "address" holds text '{"street":"s","city":7}' that is not JSON for Address, which does not convert to Address"#
    )
    guard case .typeMismatch(_, let context) = error else { return }
    #expect(context.debugDescription.contains("(at $.city: "))

    try database.execute(#"UPDATE profiles SET address = '{"street":"s","city":"c"}', scores = '["x"]'"#)
    let scores = try #require(throws: DecodingError.self) {
      try database.fetch(Profile.self, "SELECT * FROM profiles ORDER BY id")
    }
    #expect(
      try jsonMismatch(scores, column: "scores")
        == #"column "scores" holds text '["x"]' that is not JSON for Dictionary<String, Int>, which does not convert to Dictionary<String, Int>"#
    )
  }

  @Test func nonTextNullAndLongTextFailAsOtherConversionsDo() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    let sql = "SELECT * FROM profiles ORDER BY id"
    func failure(_ assignment: String) throws -> DecodingError {
      try database.execute("UPDATE profiles SET \(assignment)")
      defer { _ = try? database.execute(#"UPDATE profiles SET tags = '["admin","dev"]', aliases = NULL"#) }
      return try #require(throws: DecodingError.self) { try database.fetch(Profile.self, sql) }
    }
    // An integer or a blob is not text: no JSON is tried. (The integer
    // comes from the query: the TEXT column would store 5 as '5'.)
    let integerSQL = "SELECT id, name, address, 5 AS tags, scores, aliases FROM profiles"
    let integer = try #require(throws: DecodingError.self) { try database.fetch(Profile.self, integerSQL) }
    #expect(
      try jsonMismatch(integer, column: "tags", json: false, sql: integerSQL)
        == #"column "tags" holds integer 5, which does not convert to Array<String>"#)
    #expect(
      try jsonMismatch(failure("tags = '5'"), column: "tags")
        == #"column "tags" holds text '5' that is not JSON for Array<String>, which does not convert to Array<String>"#
    )
    #expect(
      try jsonMismatch(failure("tags = x'5b5d'"), column: "tags", json: false)
        == #"column "tags" holds a blob of 2 byte(s), which does not convert to Array<String>"#)
    // NULL in a non-optional property.
    guard case .valueNotFound(let type, let context) = try failure("tags = NULL") else {
      Issue.record("expected valueNotFound")
      return
    }
    #expect(type is [String].Type)
    #expect(context.codingPath.map(\.stringValue) == ["tags"])
    // Bad text in an optional property fails too (it is not nil).
    #expect(
      try jsonMismatch(failure("aliases = '[1, 2]'"), column: "aliases")
        == #"column "aliases" holds text '[1, 2]' that is not JSON for Array<String>, which does not convert to Array<String>"#
    )
    // Long text is cut as the core cuts it.
    let long = "[" + String(repeating: "\"abcdefgh\",", count: 6) + "1]"
    #expect(
      try jsonMismatch(failure("tags = '\(long)'"), column: "tags")
        == #"column "tags" holds text '["abcdefgh","abcdefgh","abcdefgh","abcde...' that is not JSON for Array<String>, which does not convert to Array<String>"#
    )
    // NULL in an optional property is nil.
    #expect(try database.fetch(Profile.self, sql).map(\.aliases) == [nil])
  }

  struct Refusal: Error, Equatable {}

  /// Reads a keyed container (so it is stored as JSON), then refuses.
  struct Refusing: Decodable {
    enum CodingKeys: CodingKey { case a }
    init(from decoder: any Decoder) throws {
      _ = try decoder.container(keyedBy: CodingKeys.self)
      throw Refusal()
    }
  }

  @Test func anErrorOfATypesOwnIsNotAMismatch() throws {
    struct Holder: Decodable {
      var value: Refusing
    }
    let database = try memoryDatabase()
    #expect(throws: Refusal()) { try database.fetch(Holder.self, #"SELECT '{"a":1}' AS value"#) }
  }

  struct Big: Codable, Equatable {
    var big: UInt64
    var ratio: Double
  }

  struct Measured: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "measured"
    var id: Int64
    var big: Big
  }

  @Test func jsonHoldsWhatAColumnCannotAndTheEncodersErrorsFailTheWrite() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE measured(id INTEGER PRIMARY KEY, big TEXT)")
    // UInt64.max does not fit an integer column, but fits JSON.
    let measured = Measured(id: 1, big: Big(big: .max, ratio: 0.5))
    try database.insert(measured)
    #expect(try stored(database, "big", table: "measured") == [#"{"big":18446744073709551615,"ratio":0.5}"#])
    #expect(try database.fetchOne(Measured.self, key: 1) == measured)
    // A NaN is refused by the default encoder: nothing is written.
    let nan = Measured(id: 2, big: Big(big: 1, ratio: .nan))
    #expect(throws: EncodingError.self) { try database.insert(nan) }
    #expect(throws: EncodingError.self) { try database.insert(nan, into: "measured") }
    #expect(try stored(database, "id", table: "measured") == [1])
  }

  // MARK: SQLite's JSON functions

  @Test(.enabled(if: sqliteHasJSONFunctions, "this SQLite lacks the JSON functions (built with SQLITE_OMIT_JSON)"))
  func jsonFunctionsReadTheStoredColumns() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    try database.insert(Self.bob)
    #expect(try stored(database, "json_extract(tags, '$[0]')") == ["admin", .null])
    #expect(try stored(database, "json_extract(address, '$.city')") == ["Paris", "Leeds"])
    #expect(try stored(database, "json_array_length(tags)") == [2, 0])
    #expect(try stored(database, "json_valid(scores)") == [1, 1])
    let scored = try database.fetch(
      Profile.self, "SELECT * FROM profiles WHERE json_extract(scores, '$.y') = ? ORDER BY id", [2])
    #expect(scored == [Self.ann])
    let tagged = try database.rows(
      "SELECT DISTINCT p.name FROM profiles p, json_each(p.aliases) WHERE json_each.value = 'rob'")
    #expect(tagged.map { $0[0] } == ["Bob"])
    // JSON built by SQLite decodes as well.
    let built = try database.fetchOne(
      PlainProfile.self,
      """
      SELECT 3 AS id, 'Cy' AS name, json_object('street', 's', 'city', 'c') AS address,
        json_array('a', 'b') AS tags, json_object('x', 1) AS scores, NULL AS aliases
      """)
    #expect(built?.tags == ["a", "b"])
    #expect(built?.address == Address(street: "s", city: "c"))
    #expect(built?.scores == ["x": 1])
  }

  @Test(.enabled(if: sqliteIsAtLeast(3_038_000), "->> needs SQLite 3.38"))
  func theArrowOperatorsReadTheStoredColumns() throws {
    let database = try profiles()
    try database.insert(Self.ann)
    try database.insert(Self.bob)
    #expect(try stored(database, "tags ->> '$[1]'") == ["dev", .null])
    #expect(try stored(database, "address ->> '$.street'") == ["1 Rue Haute", "2 Low St"])
    #expect(try stored(database, "scores -> '$.x'") == ["1", .null])
    let names = try database.rows("SELECT name FROM profiles WHERE address ->> '$.city' = ?", ["Leeds"])
    #expect(names.map { $0[0] } == ["Bob"])
  }

  // MARK: The README's example

  struct Player: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "players"
    struct Stats: Codable, Equatable {
      var wins: Int
      var losses: Int
    }
    var id: Int64
    var name: String
    var tags: [String]  // stored as JSON text: ["pro","left-handed"]
    var stats: Stats  // {"losses":1,"wins":3}

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      if column == "stats" { encoder.keyEncodingStrategy = .convertToSnakeCase }
      return encoder
    }

    static func databaseJSONDecoder(for column: String) -> JSONDecoder {
      let decoder = JSONDecoder()
      if column == "stats" { decoder.keyDecodingStrategy = .convertFromSnakeCase }
      return decoder
    }
  }

  @Test(.enabled(if: sqliteIsAtLeast(3_038_000), "->> needs SQLite 3.38"))
  func theReadmeExampleWorks() throws {
    let db = try memoryDatabase()
    try db.execute("CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tags TEXT, stats TEXT)")
    try db.insert(Player(id: 1, name: "Ann", tags: ["pro", "left-handed"], stats: .init(wins: 3, losses: 1)))
    try db.insert(Player(id: 2, name: "Bob", tags: [], stats: .init(wins: 0, losses: 2)))

    let winners = try db.fetch(Player.self, "SELECT * FROM players WHERE stats ->> '$.wins' > 0")
    let firstTags = try db.rows("SELECT name, json_extract(tags, '$[0]') FROM players ORDER BY id")
    #expect(winners.map(\.name) == ["Ann"])
    #expect(winners.first?.stats == Player.Stats(wins: 3, losses: 1))
    #expect(firstTags.map(\.values) == [["Ann", "pro"], ["Bob", .null]])
    #expect(try scalar(db, "SELECT stats FROM players WHERE id = 1") == #"{"losses":1,"wins":3}"#)

    try db.execute("UPDATE players SET tags = 'pro' WHERE id = 2")
    let error = try #require(throws: DecodingError.self) { try db.fetch(Player.self, "SELECT * FROM players") }
    guard case .typeMismatch(_, let context) = error else {
      Issue.record("expected typeMismatch, got \(error)")
      return
    }
    #expect(
      (context.underlyingError as? DatabaseError)?.message
        == #"column "tags" holds text 'pro' that is not JSON for Array<String>, which does not convert to Array<String>"#
    )
  }
}
