import SQLiteBridge
import SQLiteBridgeCore

extension Workloads {
  /// 7. Rows inserted with `execute(sql, values: ...)`: ten Int64 bound where
  /// they stand, no array per row (raw: the same ten sqlite3_bind_int64).
  func insertValues(rows: Int) throws -> Workload {
    try insertWorkload(
      name: "insert_values", rows: rows,
      raw: Self.rawInsertPositional,
      ours: { database, row in
        let r = Int64(row)
        try database.execute(
          Self.insertPositional, values: r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6, r + 7, r + 8, r + 9)
      })
  }
}
