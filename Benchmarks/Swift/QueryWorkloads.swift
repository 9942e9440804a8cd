import SQLiteBridge
import SQLiteBridgeCore

// The query interface (issue 40): records fetched through a request, each
// against the same fetch by SQL text, both measured against the raw C API
// doing the job by hand. The table `keyed(id INTEGER PRIMARY KEY, i0..i9
// INT)` (row r: id = r, i_k = r + k) lives in the fetch database beside
// `item`, so that `filter(key:)` has a declared primary key to find.

extension Workloads {
  static let keyedTable = "keyed"
  static let selectKeyed = "SELECT * FROM keyed"
  static let selectKeyedByID = "SELECT * FROM keyed WHERE id = ?"

  /// Creates the table `keyed` with `rows` rows.
  static func makeKeyedTable(path: String, rows: Int) {
    let raw = RawConnection(path: path)
    raw.exec("DROP TABLE IF EXISTS keyed")
    raw.exec("CREATE TABLE keyed(id INTEGER PRIMARY KEY, " + columns.map { "\($0) INT" }.joined(separator: ", ") + ")")
    raw.exec(
      "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < \(rows)) "
        + "INSERT INTO keyed SELECT x, " + (0..<10).map { "x + \($0)" }.joined(separator: ", ") + " FROM r")
  }

  /// A row of `keyed` as a record read by column index (`SELECT *`: the
  /// key first).
  struct KeyedItem: FetchableRecord, TableRecord {
    static let databaseTableName = "keyed"
    var id, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64
    var sum: Int64 { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }

    init(
      id: Int64, i0: Int64, i1: Int64, i2: Int64, i3: Int64, i4: Int64, i5: Int64, i6: Int64, i7: Int64, i8: Int64,
      i9: Int64
    ) {
      (self.id, self.i0, self.i1, self.i2, self.i3, self.i4) = (id, i0, i1, i2, i3, i4)
      (self.i5, self.i6, self.i7, self.i8, self.i9) = (i5, i6, i7, i8, i9)
    }

    init(row: RowView) throws {
      id = try row.get(0, as: Int64.self)
      i0 = try row.get(1, as: Int64.self)
      i1 = try row.get(2, as: Int64.self)
      i2 = try row.get(3, as: Int64.self)
      i3 = try row.get(4, as: Int64.self)
      i4 = try row.get(5, as: Int64.self)
      i5 = try row.get(6, as: Int64.self)
      i6 = try row.get(7, as: Int64.self)
      i7 = try row.get(8, as: Int64.self)
      i8 = try row.get(9, as: Int64.self)
      i9 = try row.get(10, as: Int64.self)
    }

    /// Built by hand from the current row of `statement` (the raw side).
    init(raw statement: OpaquePointer) {
      self.init(
        id: sqlite3_column_int64(statement, 0), i0: sqlite3_column_int64(statement, 1),
        i1: sqlite3_column_int64(statement, 2), i2: sqlite3_column_int64(statement, 3),
        i3: sqlite3_column_int64(statement, 4), i4: sqlite3_column_int64(statement, 5),
        i5: sqlite3_column_int64(statement, 6), i6: sqlite3_column_int64(statement, 7),
        i7: sqlite3_column_int64(statement, 8), i8: sqlite3_column_int64(statement, 9),
        i9: sqlite3_column_int64(statement, 10))
    }
  }

  /// `lookups` ids of `keyed`, spread at random over its `rows` rows (a
  /// fixed sequence: every run and both sides look up the same ids).
  static func randomIDs(lookups: Int, rows: Int) -> [Int64] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<lookups).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int64((state >> 33) % UInt64(rows)) + 1
    }
  }

  /// What the point fetches read: each looked-up row's ten values (and its
  /// id, which must be the one asked for).
  static func pointChecksum(_ ids: [Int64]) -> Int64 {
    ids.reduce(0) { $0 &+ 10 &* $1 &+ 45 }
  }

  /// The raw side of the point fetches: one statement prepared per run,
  /// then bind, step, the row built by hand, reset, per id.
  static func rawPointFetch(_ raw: RawConnection, _ ids: [Int64]) -> Check {
    let statement = raw.prepare(selectKeyedByID)
    defer { sqlite3_finalize(statement) }
    var result: [KeyedItem] = []
    result.reserveCapacity(ids.count)
    for id in ids {
      sqlite3_bind_int64(statement, 1, id)
      guard sqlite3_step(statement) == SQLITE_ROW else { fatalError("no row \(id)") }
      result.append(KeyedItem(raw: statement))
      sqlite3_reset(statement)
    }
    return { pointCheck(result, ids) }
  }

  /// The checksum of point-fetched records; -1 when one is missing or not
  /// the row asked for.
  static func pointCheck(_ records: [KeyedItem?], _ ids: [Int64]) -> Int64 {
    guard records.count == ids.count else { return -1 }
    var sum: Int64 = 0
    for (record, id) in zip(records, ids) {
      guard let record, record.id == id else { return -1 }
      sum &+= record.sum
    }
    return sum
  }

  /// A point-fetch workload: `lookups` random ids of `keyed`, each fetched
  /// as a `KeyedItem` by `fetch`.
  private func pointFetch(
    name: String, rows: Int, lookups: Int, _ fetch: @escaping (Database, Int64) throws -> KeyedItem?
  ) throws -> Workload {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    let ids = Self.randomIDs(lookups: lookups, rows: rows)
    return Workload(
      name: name, rows: lookups,
      raw: { Self.rawPointFetch(raw, ids) },
      ours: {
        var result: [KeyedItem?] = []
        result.reserveCapacity(ids.count)
        for id in ids { result.append(try fetch(database, id)) }
        return { Self.pointCheck(result, ids) }
      },
      expected: Self.pointChecksum(ids))
  }

  /// 9. Point fetch by primary key through a request:
  /// `KeyedItem.filter(key: id).fetchOne(db)`.
  func pointFetchRequest(rows: Int, lookups: Int) throws -> Workload {
    try pointFetch(name: "point_fetch_request", rows: rows, lookups: lookups) { database, id in
      try KeyedItem.filter(key: id).fetchOne(database)
    }
  }

  /// 9b. Its SQL-text twin: `db.fetchOne(KeyedItem.self, "SELECT * FROM
  /// keyed WHERE id = ?", [id])`.
  func pointFetchSQL(rows: Int, lookups: Int) throws -> Workload {
    try pointFetch(name: "point_fetch_sql", rows: rows, lookups: lookups) { database, id in
      try database.fetchOne(KeyedItem.self, Self.selectKeyedByID, [.integer(id)])
    }
  }

  /// The raw side of the all-rows fetches: every row of `keyed` built by hand.
  static func rawKeyedItems(_ raw: RawConnection) -> Check {
    let statement = raw.prepare(selectKeyed)
    defer { sqlite3_finalize(statement) }
    var result: [KeyedItem] = []
    while sqlite3_step(statement) == SQLITE_ROW { result.append(KeyedItem(raw: statement)) }
    return { result.reduce(0) { $0 &+ $1.sum } }
  }

  /// An all-rows workload: every row of `keyed` as a `KeyedItem`, by `fetch`.
  private func keyedFetchAll(name: String, rows: Int, _ fetch: @escaping (Database) throws -> [KeyedItem]) throws
    -> Workload
  {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    return Workload(
      name: name, rows: rows,
      raw: { Self.rawKeyedItems(raw) },
      ours: {
        let result = try fetch(database)
        return { result.reduce(0) { $0 &+ $1.sum } }
      },
      expected: Self.checksum(rows: rows))
  }

  /// 10. Every row through a request: `KeyedItem.all().fetchAll(db)`.
  func fetchAllRequest(rows: Int) throws -> Workload {
    try keyedFetchAll(name: "fetch_all_request", rows: rows) { database in try KeyedItem.all().fetchAll(database) }
  }

  /// 10b. Its SQL-text twin: `db.fetch(KeyedItem.self, "SELECT * FROM keyed")`.
  func fetchAllSQL(rows: Int) throws -> Workload {
    try keyedFetchAll(name: "fetch_all_sql", rows: rows) { database in
      try database.fetch(KeyedItem.self, Self.selectKeyed)
    }
  }

  /// The request workload measured against its SQL-text twin instead of raw
  /// C: the harness's "raw" side runs the SQL text, "ours" the request, so
  /// the ratio is request/SQL text, paired per repetition. Named after the
  /// request, with `_vs_sql`.
  static func requestAgainstSQL(request: Workload, sql: Workload) -> Workload {
    Workload(
      name: request.name + "_vs_sql", rows: request.rows, raw: sql.ours, ours: request.ours, expected: request.expected)
  }
}
