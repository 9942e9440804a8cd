import Foundation
import SQLiteBridge
import Testing

/// A row of every value type, read and written by hand.
struct EveryValueRecord: FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "every"
  var id: Int64
  var int: Int
  var int32: Int32
  var uint8: UInt8
  var double: Double
  var negativeZero: Double
  var infinity: Double
  var text: String
  var data: Data
  var emptyData: Data
  var optional: String?
  var bool: Bool
  var date: Date
  var uuid: UUID

  // negativeZero has no declared type: a REAL column stores an integral
  // real as an integer (SQLite's rule), which loses -0.0's sign.
  static let createSQL = """
    CREATE TABLE every(id INTEGER PRIMARY KEY, int INT, int32 INT, uint8 INT, double REAL, negativeZero,
      infinity REAL, text TEXT, data BLOB, emptyData BLOB, optional TEXT, bool INT, date TEXT, uuid BLOB)
    """

  init(
    id: Int64, int: Int, int32: Int32, uint8: UInt8, double: Double, negativeZero: Double, infinity: Double,
    text: String, data: Data, emptyData: Data, optional: String?, bool: Bool, date: Date, uuid: UUID
  ) {
    (self.id, self.int, self.int32, self.uint8, self.double) = (id, int, int32, uint8, double)
    (self.negativeZero, self.infinity, self.text, self.data, self.emptyData) = (
      negativeZero, infinity, text, data, emptyData
    )
    (self.optional, self.bool, self.date, self.uuid) = (optional, bool, date, uuid)
  }

  init(row: RowView) throws {
    id = try row.get("id", as: Int64.self)
    int = try row.get("int", as: Int.self)
    int32 = try row.get("int32", as: Int32.self)
    uint8 = try row.get("uint8", as: UInt8.self)
    double = try row.get("double", as: Double.self)
    negativeZero = try row.get("negativeZero", as: Double.self)
    infinity = try row.get("infinity", as: Double.self)
    text = try row.get("text", as: String.self)
    data = try row.get("data", as: Data.self)
    emptyData = try row.get("emptyData", as: Data.self)
    optional = try row.get("optional", as: String?.self)
    bool = try row.get("bool", as: Bool.self)
    date = try row.get("date", as: Date.self)
    uuid = try row.get("uuid", as: UUID.self)
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["int"] = int
    container["int32"] = int32
    container["uint8"] = uint8
    container["double"] = double
    container["negativeZero"] = negativeZero
    container["infinity"] = infinity
    container["text"] = text
    container["data"] = data
    container["emptyData"] = emptyData
    container["optional"] = optional
    container["bool"] = bool
    container["date"] = date
    container["uuid"] = uuid
  }
}

/// A note, by hand.
struct NoteRecord: FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "notes"
  var id: Int64?
  var title: String

  init(id: Int64?, title: String) {
    self.id = id
    self.title = title
  }

  init(row: RowView) throws {
    id = try row.get("id", as: Int64?.self)
    title = try row.get("title", as: String.self)
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["title"] = title
  }
}

/// A record keyed by two columns.
struct PairRecord: FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "pairs"
  static let primaryKey = ["a", "b"]
  var a: String
  var b: Int64
  var value: Double

  init(a: String, b: Int64, value: Double) {
    (self.a, self.b, self.value) = (a, b, value)
  }

  init(row: RowView) throws {
    a = try row.get("a", as: String.self)
    b = try row.get("b", as: Int64.self)
    value = try row.get("value", as: Double.self)
  }

  func encode(to container: inout PersistenceContainer) {
    container["value"] = value
    container["b"] = b
    container["a"] = a
  }
}

@Suite("Records: FetchableRecord and PersistableRecord")
struct RecordTests {
  func notesDatabase() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE)")
    return database
  }

  // MARK: Round trips

  @Test func everyValueTypeRoundTrips() throws {
    let database = try memoryDatabase()
    try database.execute(EveryValueRecord.createSQL)
    let record = EveryValueRecord(
      id: 7, int: Int.min, int32: Int32.max, uint8: 255, double: 1.5, negativeZero: -0.0, infinity: -.infinity,
      text: "a\u{0}b 😀 é", data: Data([0, 1, 2, 255]), emptyData: Data(), optional: nil, bool: true,
      date: Date(timeIntervalSince1970: 1_700_000_000.125), uuid: UUID())
    #expect(try database.insert(record) == 7)
    let read = try #require(try database.fetchOne(EveryValueRecord.self, key: 7))
    #expect(read == record)
    #expect(read.negativeZero.sign == .minus)
    #expect(read.text.utf8.count == record.text.utf8.count)
    // What was stored, as stored: NULL for nil, an empty blob, a 16-byte UUID.
    let stored = try database.rows("SELECT typeof(optional), typeof(emptyData), length(uuid), text FROM every")[0]
    #expect(stored.values == ["null", "blob", 16, .text("a\u{0}b 😀 é")])

    var other = record
    other.optional = "set"
    other.infinity = .infinity
    other.bool = false
    try database.update(other)
    #expect(try database.fetchOne(EveryValueRecord.self, key: 7) == other)
    #expect(try database.fetchAll(EveryValueRecord.self) == [other])
  }

  @Test func fetchFetchOneAndForEachBuildEveryRow() throws {
    let database = try notesDatabase()
    for title in ["a", "b", "c"] { try database.insert(NoteRecord(id: nil, title: title)) }
    let all = try database.fetch(NoteRecord.self, "SELECT * FROM notes ORDER BY id")
    #expect(all == [NoteRecord(id: 1, title: "a"), NoteRecord(id: 2, title: "b"), NoteRecord(id: 3, title: "c")])
    #expect(try database.fetch(NoteRecord.self, "SELECT * FROM notes WHERE id > ?", [1]).count == 2)
    #expect(try database.fetch(NoteRecord.self, "SELECT * FROM notes WHERE id > :id", ["id": 2]).count == 1)
    let minimum: Int = 0
    #expect(try database.fetch(NoteRecord.self, "SELECT * FROM notes WHERE id > ?", [minimum]).count == 3)
    #expect(try database.fetchOne(NoteRecord.self, "SELECT * FROM notes ORDER BY id DESC")?.title == "c")
    #expect(try database.fetchOne(NoteRecord.self, "SELECT * FROM notes WHERE id = ?", [9]) == nil)
    #expect(try database.fetchOne(NoteRecord.self, "SELECT * FROM notes WHERE id = :id", ["id": 2])?.title == "b")
    #expect(try database.fetchOne(NoteRecord.self, "SELECT * FROM notes WHERE id = ?", [minimum + 1])?.title == "a")
    var titles: [String] = []
    try database.forEach(NoteRecord.self, "SELECT * FROM notes ORDER BY id") { titles.append($0.title) }
    try database.forEach(NoteRecord.self, "SELECT * FROM notes WHERE id = ?", [2]) { titles.append($0.title) }
    try database.forEach(NoteRecord.self, "SELECT * FROM notes WHERE id = :id", ["id": 3]) { titles.append($0.title) }
    try database.forEach(NoteRecord.self, "SELECT * FROM notes WHERE id = ?", [minimum + 1]) {
      titles.append($0.title)
    }
    #expect(titles == ["a", "b", "c", "b", "c", "a"])
    #expect(try database.fetch(NoteRecord.self, "SELECT * FROM notes WHERE 0").isEmpty)
    #expect(try database.fetchOne(NoteRecord.self, key: 4) == nil)
  }

  @Test func forEachStopsWhenTheBodyThrows() throws {
    struct Stop: Error {}
    let database = try notesDatabase()
    for title in ["a", "b", "c"] { try database.insert(NoteRecord(id: nil, title: title)) }
    var seen = 0
    #expect(throws: Stop.self) {
      try database.forEach(NoteRecord.self, "SELECT * FROM notes ORDER BY id") { _ in
        seen += 1
        if seen == 2 { throw Stop() }
      }
    }
    #expect(seen == 2)
  }

  // MARK: Errors while reading

  @Test func aMissingColumnThrowsRangeNamingIt() throws {
    let database = try notesDatabase()
    try database.insert(NoteRecord(id: nil, title: "a"))
    let error = try #require(throws: DatabaseError.self) {
      try database.fetch(NoteRecord.self, "SELECT id FROM notes")
    }
    #expect(error.resultCode == .range)
    #expect(error.message == "no column named \"title\" in the row")
    #expect(error.sql == "SELECT id FROM notes")
  }

  @Test func aTypeMismatchThrowsMismatchNamingTheColumn() throws {
    let database = try notesDatabase()
    try database.execute("INSERT INTO notes(id, title) VALUES (1, 'a')")
    let error = try #require(throws: DatabaseError.self) {
      try database.fetchOne(NoteRecord.self, "SELECT 'abc' AS id, title FROM notes")
    }
    #expect(error.resultCode == .mismatch)
    #expect(error.message == "column \"id\" holds text 'abc', which does not convert to Int64?")
  }

  @Test func argumentAndSQLErrorsThrowBeforeAnyRow() throws {
    let database = try notesDatabase()
    let count = try #require(throws: DatabaseError.self) {
      try database.fetch(NoteRecord.self, "SELECT * FROM notes WHERE id = ?")
    }
    #expect(count.resultCode == .range)
    let trailing = try #require(throws: DatabaseError.self) {
      try database.fetch(NoteRecord.self, "SELECT * FROM notes; SELECT 1")
    }
    #expect(trailing.resultCode == .misuse)
    let missing = try #require(throws: DatabaseError.self) { try database.fetchAll(PairRecord.self) }
    #expect(missing.resultCode == .error && missing.message.contains("pairs"))
  }

  // MARK: Writes

  @Test func insertReturnsTheRowIDAndOnConflictDecides() throws {
    let database = try notesDatabase()
    #expect(try database.insert(NoteRecord(id: nil, title: "a")) == 1)
    #expect(try database.insert(NoteRecord(id: 10, title: "b")) == 10)
    let duplicate = try #require(throws: DatabaseError.self) {
      try database.insert(NoteRecord(id: 11, title: "a"))
    }
    #expect(duplicate.extendedResultCode == .constraintUnique)
    #expect(try database.insert(NoteRecord(id: 11, title: "a"), onConflict: .ignore) == 0)
    #expect(try database.fetchAll(NoteRecord.self).count == 2)
    #expect(try database.insert(NoteRecord(id: 12, title: "a"), onConflict: .replace) == 12)
    #expect(
      try database.fetch(NoteRecord.self, "SELECT * FROM notes ORDER BY id") == [
        NoteRecord(id: 10, title: "b"), NoteRecord(id: 12, title: "a"),
      ])
    // The plain insert after the others still aborts (plans are per conflict).
    #expect(throws: DatabaseError.self) { try database.insert(NoteRecord(id: 13, title: "b")) }
  }

  @Test func updateOfAMissingRowThrowsNotFoundNamingTableAndKey() throws {
    let database = try notesDatabase()
    try database.insert(NoteRecord(id: 1, title: "a"))
    try database.update(NoteRecord(id: 1, title: "renamed"))
    #expect(try database.fetchOne(NoteRecord.self, key: 1)?.title == "renamed")
    let error = try #require(throws: DatabaseError.self) {
      try database.update(NoteRecord(id: 99, title: "x"))
    }
    #expect(error.resultCode == .notFound)
    #expect(error.message == "update of a record of \"notes\": no row has the key \"id\" = integer 99")
    #expect(try database.fetchAll(NoteRecord.self) == [NoteRecord(id: 1, title: "renamed")])
  }

  @Test func saveInsertsThenUpdates() throws {
    let database = try notesDatabase()
    try database.save(NoteRecord(id: 5, title: "new"))
    #expect(try database.fetchAll(NoteRecord.self) == [NoteRecord(id: 5, title: "new")])
    try database.save(NoteRecord(id: 5, title: "changed"))
    #expect(try database.fetchAll(NoteRecord.self) == [NoteRecord(id: 5, title: "changed")])
    // A NULL key matches no row: inserted with a new rowid.
    try database.save(NoteRecord(id: nil, title: "keyless"))
    #expect(try database.fetchOne(NoteRecord.self, key: 6)?.title == "keyless")
  }

  @Test func deleteReturnsWhetherARowWent() throws {
    let database = try notesDatabase()
    try database.insert(NoteRecord(id: 1, title: "a"))
    #expect(try database.delete(NoteRecord(id: 2, title: "a")) == false)
    #expect(try database.fetchAll(NoteRecord.self).count == 1)
    #expect(try database.delete(NoteRecord(id: 1, title: "whatever")) == true)
    #expect(try database.fetchAll(NoteRecord.self).isEmpty)
    #expect(try database.delete(NoteRecord(id: 1, title: "a")) == false)
  }

  @Test func compositePrimaryKeys() throws {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE pairs(a TEXT, b INT, value REAL, PRIMARY KEY(a, b))")
    try database.insert(PairRecord(a: "x", b: 1, value: 1.5))
    try database.insert(PairRecord(a: "x", b: 2, value: 2.5))
    try database.insert(PairRecord(a: "y", b: 1, value: 3.5))
    try database.update(PairRecord(a: "x", b: 2, value: -1))
    #expect(try database.fetchOne(PairRecord.self, keys: ["x", 2]) == PairRecord(a: "x", b: 2, value: -1))
    #expect(try database.fetchOne(PairRecord.self, keys: ["y", 2]) == nil)
    let error = try #require(throws: DatabaseError.self) {
      try database.update(PairRecord(a: "y", b: 2, value: 0))
    }
    #expect(error.resultCode == .notFound)
    #expect(error.message == "update of a record of \"pairs\": no row has the key \"a\" = text 'y', \"b\" = integer 2")
    try database.save(PairRecord(a: "y", b: 2, value: 4.5))
    #expect(try database.delete(PairRecord(a: "x", b: 1, value: 0)))
    #expect(!(try database.delete(PairRecord(a: "x", b: 1, value: 0))))
    #expect(
      try database.fetch(PairRecord.self, "SELECT * FROM pairs ORDER BY a, b") == [
        PairRecord(a: "x", b: 2, value: -1), PairRecord(a: "y", b: 1, value: 3.5), PairRecord(a: "y", b: 2, value: 4.5),
      ])
    // One value for a two-column key does not match its parameters.
    let count = try #require(throws: DatabaseError.self) { try database.fetchOne(PairRecord.self, key: "x") }
    #expect(count.resultCode == .range)
  }

  @Test func aRecordWithoutItsKeyColumnIsMisuse() throws {
    struct Keyless: PersistableRecord {
      static let databaseTableName = "notes"
      var title: String
      func encode(to container: inout PersistenceContainer) { container["title"] = title }
    }
    struct NoKey: PersistableRecord {
      static let databaseTableName = "notes"
      static let primaryKey: [String] = []
      func encode(to container: inout PersistenceContainer) { container["title"] = "t" }
    }
    let database = try notesDatabase()
    // Inserting needs no key.
    #expect(try database.insert(Keyless(title: "a")) == 1)
    for write in [{ try database.update(Keyless(title: "a")) }, { try database.save(Keyless(title: "a")) }] {
      let error = try #require(throws: DatabaseError.self) { try write() }
      #expect(error.resultCode == .misuse)
      #expect(error.message.contains("no value for its primary key column \"id\""))
    }
    let delete = try #require(throws: DatabaseError.self) { try database.delete(Keyless(title: "a")) }
    #expect(delete.resultCode == .misuse && delete.message.hasPrefix("delete of a record of \"notes\""))
    let noKey = try #require(throws: DatabaseError.self) { try database.update(NoKey()) }
    #expect(noKey.resultCode == .misuse && noKey.message.contains("declares no primary key"))
    #expect(try database.fetchAll(NoteRecord.self) == [NoteRecord(id: 1, title: "a")])
  }

  @Test func hostileTableAndColumnNamesStayNames() throws {
    struct Hostile: FetchableRecord, PersistableRecord, Equatable {
      static let databaseTableName = "x\"; DROP TABLE notes; --"
      static let primaryKey = ["k\"ey"]
      var key: Int64
      var value: String
      init(key: Int64, value: String) {
        self.key = key
        self.value = value
      }
      init(row: RowView) throws {
        key = try row.get("k\"ey", as: Int64.self)
        value = try row.get("va'l ue; --", as: String.self)
      }
      func encode(to container: inout PersistenceContainer) {
        container["k\"ey"] = key
        container["va'l ue; --"] = value
      }
    }
    let database = try notesDatabase()
    try database.execute(
      "CREATE TABLE \"x\"\"; DROP TABLE notes; --\"(\"k\"\"ey\" INTEGER PRIMARY KEY, \"va'l ue; --\")")
    try database.insert(Hostile(key: 1, value: "'); DROP TABLE notes; --"))
    try database.update(Hostile(key: 1, value: "b"))
    try database.save(Hostile(key: 2, value: "c"))
    #expect(try database.fetchAll(Hostile.self) == [Hostile(key: 1, value: "b"), Hostile(key: 2, value: "c")])
    #expect(try database.fetchOne(Hostile.self, key: 2) == Hostile(key: 2, value: "c"))
    #expect(try database.delete(Hostile(key: 1, value: "")))
    #expect(try database.tableExists("notes"))

    struct NulName: PersistableRecord {
      static let databaseTableName = "bad\u{0}name"
      func encode(to container: inout PersistenceContainer) { container["id"] = 1 }
    }
    let error = try #require(throws: DatabaseError.self) { try database.insert(NulName()) }
    #expect(error.resultCode == .misuse)
  }

  // MARK: Plans follow the columns

  @Test func recordsOfOneTypeMayWriteDifferentColumns() throws {
    /// Writes its title only when set, so its shape varies.
    struct Sparse: PersistableRecord {
      static let databaseTableName = "sparse"
      var id: Int64
      var title: String?
      var extra: Int64?
      func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        if let title { container["title"] = title }
        if let extra { container["extra"] = extra }
      }
    }
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE sparse(id INTEGER PRIMARY KEY, title TEXT DEFAULT 'default', extra INT)")
    try database.insert(Sparse(id: 1, title: "a", extra: nil))
    try database.insert(Sparse(id: 2, title: nil, extra: 5))
    try database.insert(Sparse(id: 3, title: "c", extra: nil))
    try database.insert(Sparse(id: 4, title: nil, extra: nil))
    try database.insert(Sparse(id: 5, title: "e", extra: 6))
    try database.update(Sparse(id: 1, title: nil, extra: 7))
    try database.update(Sparse(id: 2, title: "b", extra: nil))
    #expect(
      try database.rows("SELECT id, title, extra FROM sparse ORDER BY id").map(\.values) == [
        [1, "a", 7], [2, "b", 5], [3, "c", nil], [4, "default", nil], [5, "e", 6],
      ])
  }

  // MARK: The container

  @Test func containerKeepsOrderReplacesInPlaceAndStoresNullForNil() throws {
    var container = PersistenceContainer()
    container["b"] = 1
    container["a"] = "x"
    container["c"] = .real(2)
    container["B"] = 3  // same column, ASCII case ignored: replaced in place
    container["c"] = nil  // NULL, still a column
    #expect(container.columns == ["b", "a", "c"])
    #expect(container.count == 3)
    #expect(container["b"] == .integer(3))
    #expect(container["A"] == .text("x"))
    #expect(container["c"] == .null)
    #expect(container["missing"] == nil)
    let typed: Int? = container["b"]
    #expect(typed == 3)
    let optional: String? = nil
    container["d"] = optional
    #expect(container["d"] == .null && container.columns.last == "d")

    // What a record's nil writes: NULL, not the column's default.
    struct NilTitle: PersistableRecord {
      static let databaseTableName = "t"
      func encode(to container: inout PersistenceContainer) {
        container["id"] = 1
        container["title"] = nil
      }
    }
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, title TEXT DEFAULT 'default')")
    try database.insert(NilTitle())
    #expect(try database.rows("SELECT title FROM t")[0][0] == .null)
  }

  @Test func aRecordSettingAColumnTwiceWritesItOnce() throws {
    struct Twice: PersistableRecord {
      static let databaseTableName = "notes"
      var title: String
      func encode(to container: inout PersistenceContainer) {
        container["id"] = 1
        container["title"] = "first"
        container["TITLE"] = .text(title)
      }
    }
    let database = try notesDatabase()
    try database.insert(Twice(title: "a"))
    try database.update(Twice(title: "b"))
    try database.update(Twice(title: "c"))
    #expect(try database.fetchAll(NoteRecord.self) == [NoteRecord(id: 1, title: "c")])
  }
}
