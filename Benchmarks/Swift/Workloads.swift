import SQLiteBridge
import SQLiteBridgeCore

/// The standard workloads of this field, on a table `item(i0..i9 INT)` in a
/// file on disk: row r (1-based) holds i_k = r + k.
struct Workloads {
  static let columns = (0..<10).map { "i\($0)" }
  static let selectAll = "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM item"

  let path: String

  /// Sum of every value of `rows` rows.
  static func checksum(rows: Int) -> Int64 {
    let n = Int64(rows)
    return 10 * n * (n + 1) / 2 + 45 * n
  }

  /// Creates the fetch table with `rows` rows.
  static func makeFetchDatabase(path: String, rows: Int) {
    let raw = RawConnection(path: path)
    raw.exec("DROP TABLE IF EXISTS item")
    raw.exec("CREATE TABLE item(" + columns.map { "\($0) INT" }.joined(separator: ", ") + ")")
    raw.exec(
      "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < \(rows)) "
        + "INSERT INTO item SELECT " + (0..<10).map { "x + \($0)" }.joined(separator: ", ") + " FROM r")
  }

  // MARK: Fetching

  /// 1. Every value read by column index.
  func fetchIndex(rows: Int) throws -> Workload {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    return Workload(
      name: "fetch_index", rows: rows,
      raw: {
        let statement = raw.prepare(Self.selectAll)
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
          for column in 0..<Int32(10) { sum &+= sqlite3_column_int64(statement, column) }
        }
        return { sum }
      },
      ours: {
        var sum: Int64 = 0
        try database.forEachRow(Self.selectAll) { row in
          for column in 0..<10 { sum &+= try row.get(column, as: Int64.self) }
        }
        return { sum }
      },
      expected: Self.checksum(rows: rows))
  }

  /// 2. Every value read by column name. The raw baseline looks names up
  /// in a dictionary built once per query, as hand-written code does.
  func fetchName(rows: Int) throws -> Workload {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    let names = Self.columns
    return Workload(
      name: "fetch_name", rows: rows,
      raw: {
        let statement = raw.prepare(Self.selectAll)
        defer { sqlite3_finalize(statement) }
        var indexes: [String: Int32] = [:]
        for column in 0..<sqlite3_column_count(statement) {
          indexes[String(cString: sqlite3_column_name(statement, column))] = column
        }
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
          for name in names { sum &+= sqlite3_column_int64(statement, indexes[name]!) }
        }
        return { sum }
      },
      ours: {
        var sum: Int64 = 0
        try database.forEachRow(Self.selectAll) { row in
          for name in names { sum &+= try row.get(name, as: Int64.self) }
        }
        return { sum }
      },
      expected: Self.checksum(rows: rows))
  }

  /// 3. Every row into a dictionary.
  func fetchDictionaries(rows: Int) throws -> Workload {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    return Workload(
      name: "fetch_dictionaries", rows: rows,
      raw: {
        let statement = raw.prepare(Self.selectAll)
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        let names = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var result: [[String: Int64]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
          var row = [String: Int64](minimumCapacity: Int(count))
          for column in 0..<count { row[names[Int(column)]] = sqlite3_column_int64(statement, column) }
          result.append(row)
        }
        return { result.reduce(0) { $0 &+ $1.values.reduce(0, &+) } }
      },
      ours: {
        let result = try database.execute(Self.selectAll)
        return {
          try result.reduce(0) { sum, row in
            try row.values.reduce(sum) { partial, value in
              guard case .integer(let integer) = value else { throw BenchmarkFailure.notAnInteger }
              return partial &+ integer
            }
          }
        }
      },
      expected: Self.checksum(rows: rows))
  }

  struct Item: Decodable {
    let i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64
    var sum: Int64 { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
  }

  /// The raw side of the struct fetches (fetch_decodable, fetch_record):
  /// every row built by hand into an `[Item]`.
  static func rawItems(_ raw: RawConnection) -> Check {
    let statement = raw.prepare(selectAll)
    defer { sqlite3_finalize(statement) }
    var result: [Item] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      result.append(
        Item(
          i0: sqlite3_column_int64(statement, 0), i1: sqlite3_column_int64(statement, 1),
          i2: sqlite3_column_int64(statement, 2), i3: sqlite3_column_int64(statement, 3),
          i4: sqlite3_column_int64(statement, 4), i5: sqlite3_column_int64(statement, 5),
          i6: sqlite3_column_int64(statement, 6), i7: sqlite3_column_int64(statement, 7),
          i8: sqlite3_column_int64(statement, 8), i9: sqlite3_column_int64(statement, 9)))
    }
    return { result.reduce(0) { $0 &+ $1.sum } }
  }

  /// 4. Every row decoded into a struct (raw: built by hand).
  func fetchDecodable(rows: Int) throws -> Workload {
    let raw = RawConnection(path: path)
    let database = try Database(path: path)
    return Workload(
      name: "fetch_decodable", rows: rows,
      raw: { Self.rawItems(raw) },
      ours: {
        let result = try database.fetch(Item.self, Self.selectAll)
        return { result.reduce(0) { $0 &+ $1.sum } }
      },
      expected: Self.checksum(rows: rows))
  }

  // MARK: Inserting

  static let insertPositional =
    "INSERT INTO item(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
  static let insertNamed =
    "INSERT INTO item(i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) "
    + "VALUES (:i0, :i1, :i2, :i3, :i4, :i5, :i6, :i7, :i8, :i9)"

  /// A workload that inserts `rows` rows in one transaction into an empty
  /// table of its own database file.
  func insertWorkload(
    name: String, rows: Int, raw rawInsert: @escaping (RawConnection, Int) -> Void,
    ours oursInsert: @escaping (Database, Int) throws -> Void
  ) throws -> Workload {
    let insertPath = path + "-" + name
    let raw = RawConnection(path: insertPath)
    raw.exec("DROP TABLE IF EXISTS item")
    raw.exec("CREATE TABLE item(" + Self.columns.map { "\($0) INT" }.joined(separator: ", ") + ")")
    let database = try Database(path: insertPath)
    let check: Check = {
      let statement = raw.prepare("SELECT count(*), total(i0+i1+i2+i3+i4+i5+i6+i7+i8+i9) FROM item")
      defer { sqlite3_finalize(statement) }
      guard sqlite3_step(statement) == SQLITE_ROW, sqlite3_column_int64(statement, 0) == Int64(rows) else { return -1 }
      return Int64(sqlite3_column_double(statement, 1))
    }
    return Workload(
      name: name, rows: rows,
      prepare: { raw.exec("DELETE FROM item") },
      raw: {
        raw.exec("BEGIN")
        rawInsert(raw, rows)
        raw.exec("COMMIT")
        return check
      },
      ours: {
        try database.execute("BEGIN")
        for row in 1...rows { try oursInsert(database, row) }
        try database.execute("COMMIT")
        return check
      },
      expected: Self.checksum(rows: rows))
  }

  /// The raw side of every positional insert workload: one prepared
  /// statement, ten sqlite3_bind_int64 per row.
  static func rawInsertPositional(_ raw: RawConnection, rows: Int) {
    let statement = raw.prepare(insertPositional)
    defer { sqlite3_finalize(statement) }
    for row in 1...rows {
      let r = Int64(row)
      for column in 0..<Int32(10) { sqlite3_bind_int64(statement, column + 1, r + Int64(column)) }
      guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("insert failed") }
      sqlite3_reset(statement)
    }
  }

  /// 5. Rows inserted with positional arguments.
  func insertPositional(rows: Int) throws -> Workload {
    try insertWorkload(
      name: "insert_positional", rows: rows,
      raw: Self.rawInsertPositional,
      ours: { database, row in
        let r = Int64(row)
        try database.execute(
          Self.insertPositional,
          [
            .integer(r), .integer(r + 1), .integer(r + 2), .integer(r + 3), .integer(r + 4), .integer(r + 5),
            .integer(r + 6), .integer(r + 7), .integer(r + 8), .integer(r + 9),
          ])
      })
  }

  /// 6. Rows inserted with named arguments (ours: a NamedArguments literal
  /// per row; raw: each name looked up with sqlite3_bind_parameter_index).
  func insertNamed(rows: Int) throws -> Workload {
    let names = Self.columns.map { ":" + $0 }
    return try insertWorkload(
      name: "insert_named", rows: rows,
      raw: { raw, rows in
        let statement = raw.prepare(Self.insertNamed)
        defer { sqlite3_finalize(statement) }
        for row in 1...rows {
          let r = Int64(row)
          for (offset, name) in names.enumerated() {
            sqlite3_bind_int64(statement, sqlite3_bind_parameter_index(statement, name), r + Int64(offset))
          }
          guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("insert failed") }
          sqlite3_reset(statement)
        }
      },
      ours: { database, row in
        let r = Int64(row)
        try database.execute(
          Self.insertNamed,
          [
            "i0": .integer(r), "i1": .integer(r + 1), "i2": .integer(r + 2), "i3": .integer(r + 3),
            "i4": .integer(r + 4), "i5": .integer(r + 5), "i6": .integer(r + 6), "i7": .integer(r + 7),
            "i8": .integer(r + 8), "i9": .integer(r + 9),
          ] as NamedArguments)
      })
  }
}
