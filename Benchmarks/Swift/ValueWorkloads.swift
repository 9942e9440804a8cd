import SQLiteBridge
import SQLiteBridgeCore

extension Workloads {
  /// 7. Rows inserted with `execute(sql, values: ...)`: ten Int64 bound where
  /// they stand, no array per row (raw: the same ten sqlite3_bind_int64).
  func insertValues(rows: Int) throws -> Workload {
    try insertWorkload(
      name: "insert_values", rows: rows,
      raw: { raw, rows in
        let statement = raw.prepare(Self.insertPositional)
        defer { sqlite3_finalize(statement) }
        for row in 1...rows {
          let r = Int64(row)
          for column in 0..<Int32(10) { sqlite3_bind_int64(statement, column + 1, r + Int64(column)) }
          guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("insert failed") }
          sqlite3_reset(statement)
        }
      },
      ours: { database, row in
        let r = Int64(row)
        try database.execute(
          Self.insertPositional, values: r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6, r + 7, r + 8, r + 9)
      })
  }
}
