import SQLiteBridge
import SQLiteBridgeCore

// Records (issue 14): rows built by `FetchableRecord.init(row:)` and written
// by `insert(record)`, against the raw C API doing the same by hand.

extension Workloads {
  /// A row of `item` as a record read by column index.
  struct RecordItem: FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64
    var sum: Int64 { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }

    init(i0: Int64, i1: Int64, i2: Int64, i3: Int64, i4: Int64, i5: Int64, i6: Int64, i7: Int64, i8: Int64, i9: Int64) {
      (self.i0, self.i1, self.i2, self.i3, self.i4) = (i0, i1, i2, i3, i4)
      (self.i5, self.i6, self.i7, self.i8, self.i9) = (i5, i6, i7, i8, i9)
    }

    init(row: RowView) throws {
      i0 = try row.get(0, as: Int64.self)
      i1 = try row.get(1, as: Int64.self)
      i2 = try row.get(2, as: Int64.self)
      i3 = try row.get(3, as: Int64.self)
      i4 = try row.get(4, as: Int64.self)
      i5 = try row.get(5, as: Int64.self)
      i6 = try row.get(6, as: Int64.self)
      i7 = try row.get(7, as: Int64.self)
      i8 = try row.get(8, as: Int64.self)
      i9 = try row.get(9, as: Int64.self)
    }

    func encode(to container: inout PersistenceContainer) {
      container["i0"] = i0
      container["i1"] = i1
      container["i2"] = i2
      container["i3"] = i3
      container["i4"] = i4
      container["i5"] = i5
      container["i6"] = i6
      container["i7"] = i7
      container["i8"] = i8
      container["i9"] = i9
    }
  }

  /// The same ten columns written by the `PersistableRecord` conformance
  /// that `Encodable` gives (no hand-written `encode(to:)`): the insert
  /// most Swift users run.
  struct CodableItem: Codable, PersistableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64
  }

  /// The same record read by column name.
  struct NamedRecordItem: FetchableRecord {
    var item: RecordItem

    init(row: RowView) throws {
      item = RecordItem(
        i0: try row.get("i0", as: Int64.self), i1: try row.get("i1", as: Int64.self),
        i2: try row.get("i2", as: Int64.self), i3: try row.get("i3", as: Int64.self),
        i4: try row.get("i4", as: Int64.self), i5: try row.get("i5", as: Int64.self),
        i6: try row.get("i6", as: Int64.self), i7: try row.get("i7", as: Int64.self),
        i8: try row.get("i8", as: Int64.self), i9: try row.get("i9", as: Int64.self))
    }
  }

  /// A workload that fetches every row as `T` (raw: `rawItems`, the same
  /// ten integers per row built by hand).
  private func recordFetch<T: FetchableRecord>(
    name: String, rows: Int, _ type: T.Type, sum: @escaping (T) -> Int64
  ) throws -> Workload {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    return Workload(
      name: name, rows: rows,
      raw: { Self.rawItems(raw) },
      ours: {
        let result = try database.fetch(T.self, Self.selectAll)
        return { result.reduce(0) { $0 &+ sum($1) } }
      },
      expected: Self.checksum(rows: rows))
  }

  /// 7. Every row built as a `FetchableRecord` (by column index).
  func fetchRecord(rows: Int) throws -> Workload {
    try recordFetch(name: "fetch_record", rows: rows, RecordItem.self) { $0.sum }
  }

  /// 7b. The same, each column read by name (no target: for comparison).
  func fetchRecordByName(rows: Int) throws -> Workload {
    try recordFetch(name: "fetch_record_name", rows: rows, NamedRecordItem.self) { $0.item.sum }
  }

  /// A workload that inserts every row as the record `make` builds from
  /// the row's first value, `insert(record)` per row (raw: one prepared
  /// statement, 10 ints bound per row).
  private func recordInsert<T: PersistableRecord>(
    name: String, rows: Int, _ make: @escaping (Int64) -> T
  ) throws -> Workload {
    try insertWorkload(
      name: name, rows: rows, raw: Self.rawInsertPositional,
      ours: { database, row in try database.insert(make(Int64(row))) })
  }

  /// 8. Rows inserted as records with a hand-written `encode(to:)`.
  func insertRecord(rows: Int) throws -> Workload {
    try recordInsert(name: "insert_record", rows: rows) { r in
      RecordItem(
        i0: r, i1: r + 1, i2: r + 2, i3: r + 3, i4: r + 4, i5: r + 5, i6: r + 6, i7: r + 7, i8: r + 8, i9: r + 9)
    }
  }

  /// 8b. The same rows as `Codable` records: the `PersistableRecord`
  /// conformance `Encodable` gives.
  func insertCodable(rows: Int) throws -> Workload {
    try recordInsert(name: "insert_codable", rows: rows) { r in
      CodableItem(
        i0: r, i1: r + 1, i2: r + 2, i3: r + 3, i4: r + 4, i5: r + 5, i6: r + 6, i7: r + 7, i8: r + 8, i9: r + 9)
    }
  }
}
