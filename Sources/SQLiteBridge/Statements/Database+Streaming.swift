extension Database {
  /// Runs exactly one statement and hands `body` each row as it is stepped,
  /// as a `RowView` read straight from the statement, so a result of any
  /// size is scanned in constant memory. The view is valid only during the
  /// call; `copy()` it to keep a row.
  ///
  /// - Throws: `DatabaseError` as `execute(_:_:)` does, or whatever `body`
  ///   throws (which stops the scan).
  public func forEachRow(
    _ sql: String, _ arguments: [DatabaseValue] = [], _ body: (RowView) throws -> Void
  ) throws {
    var statement = try prepared(sql, arguments)
    try forEachRow(of: &statement, body)
  }
}
