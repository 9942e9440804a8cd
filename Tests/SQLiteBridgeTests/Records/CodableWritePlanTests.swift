import Foundation
import SQLiteBridge
import Testing

// The encoding a Database keeps per Codable record type and write plan
// (issue 38): the keyed container, the key seen at each column of the plan
// (recognized by its bits), the JSON encoders. Whatever a record does that
// the kept state did not expect (keys in another order, a key left out, a
// non-enum key type, a write inside an encode(to:), a record that encodes
// another type's columns), every value must still land in its own column.

@Suite("Codable write plans")
struct CodableWritePlanTests {
  /// Sets `b` before `a` when `flipped`, and leaves `note` out when it is
  /// nil.
  struct Shuffled: Encodable, PersistableRecord {
    static let databaseTableName = "shuffled"
    var id: Int64
    var a: Int64
    var b: String
    var note: String?
    var flipped = false
    enum CodingKeys: String, CodingKey { case id, a, b, note }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      if flipped {
        try container.encode(b, forKey: .b)
        try container.encode(a, forKey: .a)
      } else {
        try container.encode(a, forKey: .a)
        try container.encode(b, forKey: .b)
      }
      if let note { try container.encode(note, forKey: .note) }
    }
  }

  private func shuffledTable() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE shuffled(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, note TEXT DEFAULT 'none')")
    return database
  }

  private func rows(_ database: Database, _ sql: String) throws -> [[DatabaseValue]] {
    try database.rows(sql).map(\.values)
  }

  @Test func valuesFollowTheirKeysWhateverTheOrderFromRecordToRecord() throws {
    let database = try shuffledTable()
    // Three records teach the plan's keys; then one sets the same columns
    // in another order, one leaves a column out, and the first shape comes
    // back (each on a plan of its own, no value in another's column).
    let flippedIDs: Set<Int64> = [4, 7]
    for id in Int64(1)...9 {
      try database.insert(
        Shuffled(id: id, a: id * 10, b: "b\(id)", note: id == 5 ? nil : "n\(id)", flipped: flippedIDs.contains(id)))
    }
    #expect(
      try rows(database, "SELECT id, a, b, note FROM shuffled ORDER BY id")
        == (Int64(1)...9).map { id in
          [.integer(id), .integer(id * 10), .text("b\(id)"), .text(id == 5 ? "none" : "n\(id)")]
        })
  }

  @Test func updatesAndSavesUseTheirOwnPlansWithTheSameKeys() throws {
    let database = try shuffledTable()
    for id in Int64(1)...4 { try database.insert(Shuffled(id: id, a: id, b: "x", note: "n\(id)")) }
    for id in Int64(1)...4 { try database.update(Shuffled(id: id, a: -id, b: "u\(id)", note: "m\(id)")) }
    try database.save(Shuffled(id: 5, a: 5, b: "s5", note: "saved"))
    try database.save(Shuffled(id: 1, a: 100, b: "s1", note: "resaved"))
    #expect(
      try rows(database, "SELECT id, a, b, note FROM shuffled ORDER BY id") == [
        [1, 100, "s1", "resaved"], [2, -2, "u2", "m2"], [3, -3, "u3", "m3"], [4, -4, "u4", "m4"],
        [5, 5, "s5", "saved"],
      ])
  }

  /// Keys of a struct type holding a string: not plain data, so every key
  /// is matched by name.
  struct NamedKeys: Encodable, PersistableRecord {
    static let databaseTableName = "shuffled"
    struct Key: CodingKey {
      var stringValue: String
      init(stringValue: String) { self.stringValue = stringValue }
      var intValue: Int? { nil }
      init?(intValue: Int) { nil }
    }
    var values: [(String, Int64)]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
    }
  }

  @Test func keysThatAreNotPlainDataAreMatchedByName() throws {
    let database = try shuffledTable()
    try database.insert(NamedKeys(values: [("id", 1), ("a", 10)]))
    try database.insert(NamedKeys(values: [("a", 20), ("id", 2)]))
    try database.insert(NamedKeys(values: [("id", 3), ("a", 30)]))
    #expect(try rows(database, "SELECT id, a FROM shuffled ORDER BY id") == [[1, 10], [2, 20], [3, 30]])
  }

  /// Writes a record of its own type while it is being encoded.
  struct Reentrant: Encodable, PersistableRecord {
    static let databaseTableName = "shuffled"
    nonisolated(unsafe) static var database: Database?
    var id: Int64
    var a: Int64

    func encode(to encoder: any Encoder) throws {
      if id < 100, let database = Self.database { try database.insert(Reentrant(id: id + 100, a: a + 100)) }
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(a, forKey: .a)
    }
    enum CodingKeys: String, CodingKey { case id, a }
  }

  @Test func aWriteInsideAnEncodeGetsAnEncodingOfItsOwn() throws {
    let database = try shuffledTable()
    Reentrant.database = database
    defer { Reentrant.database = nil }
    for id in Int64(1)...3 { try database.insert(Reentrant(id: id, a: id)) }
    #expect(
      try rows(database, "SELECT id, a FROM shuffled ORDER BY id") == [
        [1, 1], [2, 2], [3, 3], [101, 101], [102, 102], [103, 103],
      ])
  }

  struct Inner: Codable, PersistableRecord {
    static let databaseTableName = "inner"
    var x: Int64
    var y: String
  }

  /// A record whose own encode(to:) sets one column and lets another
  /// type's default encode(to:) set the rest of the same container.
  struct Outer: PersistableRecord {
    static let databaseTableName = "outer"
    static let primaryKey = ["id"]
    var id: Int64
    var inner: Inner

    func encode(to container: inout PersistenceContainer) {
      container["id"] = id
      inner.encode(to: &container)
    }
  }

  @Test func aRecordMayFillItsContainerWithAnotherTypesEncoding() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE outer(id INTEGER PRIMARY KEY, x INTEGER, y TEXT)")
    try database.execute("CREATE TABLE inner(x INTEGER, y TEXT)")
    for id in Int64(1)...3 { try database.insert(Outer(id: id, inner: Inner(x: id * 2, y: "y\(id)"))) }
    for x in Int64(7)...8 { try database.insert(Inner(x: x, y: "plain")) }
    #expect(
      try rows(database, "SELECT id, x, y FROM outer ORDER BY id") == [[1, 2, "y1"], [2, 4, "y2"], [3, 6, "y3"]])
    #expect(try rows(database, "SELECT x, y FROM inner ORDER BY x") == [[7, "plain"], [8, "plain"]])
  }

  @Test func anEncodingErrorOnOneRecordLeavesTheNextOnesWhole() throws {
    struct Counter: Encodable, PersistableRecord {
      static let databaseTableName = "counters"
      var id: Int64
      var count: UInt64
    }
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE counters(id INTEGER PRIMARY KEY, count INTEGER)")
    try database.insert(Counter(id: 1, count: 5))
    #expect(throws: EncodingError.self) { try database.insert(Counter(id: 2, count: UInt64.max)) }
    try database.insert(Counter(id: 3, count: 7))
    #expect(try rows(database, "SELECT id, count FROM counters ORDER BY id") == [[1, 5], [3, 7]])
  }
}
