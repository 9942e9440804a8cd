import Foundation
import SQLiteBridge
import Testing

/// Decodable and FetchableRecord: `init(row:)` marks what it built, which
/// the decoder never does (`viaRow` is not a coding key).
struct MarkedNote: Decodable, FetchableRecord, Equatable {
  var id: Int64
  var title: String
  var viaRow = false

  enum CodingKeys: String, CodingKey { case id, title }

  init(row: RowView) throws {
    id = try row.get("id", as: Int64.self)
    title = try row.get("title", as: String.self)
    viaRow = true
  }
}

/// Adopts both protocols with no code but its table.
struct CodableNote: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "notes"
  var id: Int64
  var title: String
  var body: String?
}

@Suite("Records: Codable defaults, overloads and streaming")
struct RecordEdgeTests {
  func notesDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
    try database.execute("INSERT INTO notes(id, title) VALUES (1, 'a'), (2, 'b')")
    return database
  }

  @Test func decodableAndFetchableRecordUsesInitRow() throws {
    let database = try notesDatabase()
    let sql = "SELECT id, title FROM notes ORDER BY id"
    let all = try database.fetch(MarkedNote.self, sql)
    #expect(all.count == 2 && all.allSatisfy(\.viaRow))
    #expect(try database.fetch(MarkedNote.self, sql, []).allSatisfy(\.viaRow))
    #expect(try database.fetch(MarkedNote.self, "SELECT * FROM notes WHERE id = :id", ["id": 1])[0].viaRow)
    let id: Int = 2
    #expect(try database.fetch(MarkedNote.self, "SELECT * FROM notes WHERE id = ?", [id])[0].viaRow)
    #expect(try database.fetchOne(MarkedNote.self, sql)?.viaRow == true)
    #expect(try database.fetchOne(MarkedNote.self, "SELECT * FROM notes WHERE id = :id", ["id": 2])?.viaRow == true)
    #expect(try database.fetchOne(MarkedNote.self, "SELECT * FROM notes WHERE id = ?", [id])?.viaRow == true)
    var streamed: [MarkedNote] = []
    try database.forEach(MarkedNote.self, sql) { streamed.append($0) }
    #expect(streamed == all)
    // The Decodable path is still there when asked for by its own labels.
    let decoded = try database.fetch(MarkedNote.self, sql, keyDecoding: .useDefaultKeys)
    #expect(decoded.map(\.title) == ["a", "b"] && decoded.allSatisfy { !$0.viaRow })
  }

  @Test func aDecodableTypeAdoptsFetchableRecordWithNoCode() throws {
    let database = try notesDatabase()
    try database.execute("UPDATE notes SET body = 'x' WHERE id = 2")
    #expect(
      try database.fetch(CodableNote.self, "SELECT * FROM notes ORDER BY id") == [
        CodableNote(id: 1, title: "a", body: nil), CodableNote(id: 2, title: "b", body: "x"),
      ])
    #expect(try database.fetchOne(CodableNote.self, key: 2)?.body == "x")
    #expect(try database.fetchAll(CodableNote.self).count == 2)
    // Its errors are the decoder's.
    #expect(throws: DecodingError.self) { try database.fetch(CodableNote.self, "SELECT id FROM notes") }
  }

  @Test func anEncodableTypeAdoptsPersistableRecordWithItsTableOnly() throws {
    let database = try notesDatabase()
    #expect(try database.insert(CodableNote(id: 3, title: "c", body: nil)) == 3)
    try database.update(CodableNote(id: 1, title: "A", body: "body"))
    try database.save(CodableNote(id: 4, title: "d", body: "e"))
    #expect(try database.delete(CodableNote(id: 2, title: "", body: nil)))
    #expect(
      try database.fetchAll(CodableNote.self) == [
        CodableNote(id: 1, title: "A", body: "body"), CodableNote(id: 3, title: "c", body: nil),
        CodableNote(id: 4, title: "d", body: "e"),
      ])
    // A nil optional is written as NULL, as insert(_:into:) writes it.
    #expect(try database.rows("SELECT typeof(body) FROM notes WHERE id = 3")[0][0] == "null")
  }

  @Test func anEncodingErrorIsThrownByTheWriteAndNothingRuns() throws {
    struct Huge: Encodable, PersistableRecord {
      static let databaseTableName = "notes"
      var id: UInt64
      var title = "huge"
    }
    struct Listed: Encodable, PersistableRecord {
      static let databaseTableName = "notes"
      func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
      }
    }
    struct Throwing: Encodable, PersistableRecord {
      struct Refused: Error {}
      static let databaseTableName = "notes"
      func encode(to encoder: any Encoder) throws { throw Refused() }
    }
    let database = try notesDatabase()
    let writes: [() throws -> Void] = [
      { try database.insert(Huge(id: UInt64.max)) }, { try database.update(Huge(id: UInt64.max)) },
      { try database.save(Huge(id: UInt64.max)) }, { try database.delete(Huge(id: UInt64.max)) },
      { try database.insert(Listed()) },
    ]
    for write in writes {
      #expect(throws: EncodingError.self) { try write() }
    }
    #expect(throws: Throwing.Refused.self) { try database.insert(Throwing()) }
    #expect(try database.rows("SELECT count(*) FROM notes")[0][0] == 2)
    // Within range, the same type writes.
    try database.insert(Huge(id: 9))
    #expect(try database.rows("SELECT title FROM notes WHERE id = 9")[0][0] == "huge")
  }

  @Test func theCallsBeforeRecordsStillCompileAndBehave() throws {
    struct Plain: Codable, Equatable {
      var id: Int
      var title: String
      var body: String?
    }
    let database = try notesDatabase()
    #expect(try database.fetch(Plain.self, "SELECT * FROM notes ORDER BY id").map(\.title) == ["a", "b"])
    #expect(try database.fetchOne(Plain.self, "SELECT * FROM notes WHERE id = ?", [2])?.title == "b")
    #expect(try database.fetch(Int.self, "SELECT id FROM notes ORDER BY id") == [1, 2])
    try database.insert(Plain(id: 3, title: "c", body: nil), into: "notes")
    #expect(try database.insert(into: "notes", ["id": 4, "title": "d"]) == 4)
    #expect(try database.update("notes", set: ["body": "x"], where: "id >= ?", [3]) == 2)
    #expect(try database.delete(from: "notes", where: "id = ?", [1]) == 1)
    #expect(
      try database.fetch(Plain.self, "SELECT * FROM notes ORDER BY id") == [
        Plain(id: 2, title: "b", body: nil), Plain(id: 3, title: "c", body: "x"), Plain(id: 4, title: "d", body: "x"),
      ])
  }

  @Test func aContainerCopyKeptByARecordOutlivesLaterWrites() throws {
    final class Keeper {
      var kept: [PersistenceContainer] = []
    }
    struct Keeping: PersistableRecord {
      static let databaseTableName = "notes"
      let keeper: Keeper
      var id: Int64
      var title: String
      func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["title"] = title
        keeper.kept.append(container)
        container["body"] = .text(title + "!")  // changes this container only
      }
    }
    let database = try notesDatabase()
    let keeper = Keeper()
    for (id, title) in [(3, "c"), (4, "d"), (5, String(repeating: "e", count: 100))] {
      try database.insert(Keeping(keeper: keeper, id: Int64(id), title: title))
    }
    #expect(keeper.kept.map(\.columns) == Array(repeating: ["id", "title"], count: 3))
    #expect(keeper.kept.map { $0["title"] } == ["c", "d", .text(String(repeating: "e", count: 100))])
    #expect(
      try database.rows("SELECT body FROM notes WHERE id >= 3 ORDER BY id").map { $0[0] } == [
        "c!", "d!", .text(String(repeating: "e", count: 100) + "!"),
      ])
  }

  @Test func textAndBlobValuesSurviveTheReusedBuffer() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE blobs(id INTEGER PRIMARY KEY, text TEXT, data BLOB)")
    struct Blob: FetchableRecord, PersistableRecord, Equatable {
      static let databaseTableName = "blobs"
      var id: Int64
      var text: String?
      var data: Data?
      init(id: Int64, text: String?, data: Data?) {
        (self.id, self.text, self.data) = (id, text, data)
      }
      init(row: RowView) throws {
        (id, text, data) = (
          try row.get(0, as: Int64.self), try row.get(1, as: String?.self), try row.get(2, as: Data?.self)
        )
      }
      func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["text"] = text
        container["data"] = data
      }
    }
    var expected: [Blob] = []
    for id in 1...200 {
      let record = Blob(
        id: Int64(id), text: id % 3 == 0 ? nil : String(repeating: "é", count: id),
        data: id % 4 == 0 ? nil : Data(repeating: UInt8(id % 256), count: id * 10))
      expected.append(record)
      try database.insert(record)
    }
    #expect(try database.fetchAll(Blob.self) == expected)
  }

  // MARK: Constant memory

  @Test func forEachStreamsAMillionRecordsInConstantMemory() throws {
    struct Pair: FetchableRecord {
      var x: Int64
      var y: Int64
      init(row: RowView) throws {
        x = try row.get(0, as: Int64.self)
        y = try row.get("y", as: Int64.self)
      }
    }
    memoryHeavyTests.lock()  // no test using hundreds of MB runs meanwhile
    defer { memoryHeavyTests.unlock() }
    let database = try memoryDatabase()
    let rowCount: Int64 = 1_000_000
    let sql = countingRowsSQL
    try database.forEach(Pair.self, sql, [1000]) { _ in }  // warm up

    // A million two-Int64 records kept in an array would take 16 MB and
    // more as rows; streamed, the process must not grow by that.
    let bound = 8 * 1024 * 1024
    var count: Int64 = 0
    var sumY: Int64 = 0
    var ordered = true
    let runs = try measuringStreamMemory(bound: bound) { sample in
      (count, sumY, ordered) = (0, 0, true)
      try database.forEach(Pair.self, sql, [.integer(rowCount)]) { pair in
        count += 1
        if pair.x != count { ordered = false }
        sumY &+= pair.y
        sample()
      }
    }
    #expect(count == rowCount)
    #expect(ordered)
    #expect(sumY == rowCount * (rowCount + 1))
    if runningUnderASanitizer { return }
    #expect(runs.last!.staysBelow(bound), "the process grew on every run: \(runs)")
  }
}
