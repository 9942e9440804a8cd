import Foundation

extension Database {
  /// Inserts `value` as one row of `table`: each key of its keyed container
  /// becomes a column (named by `keyEncoding`), running
  /// `INSERT INTO "table" ("column", ...) VALUES (?, ...)` with every
  /// identifier quoted, so a hostile table or key name stays a name. A
  /// `DatabaseValueConvertible` property binds its `databaseValue` (a nil
  /// optional binds NULL, not the column's default); a property of another
  /// `Encodable` type binds the single value it encodes (an enum's raw
  /// value) or its JSON text (a nested struct, an array, a dictionary),
  /// written by `T.databaseJSONEncoder(for:)` when `T` is a
  /// `PersistableRecord`, otherwise by a `JSONEncoder` with `.sortedKeys`.
  /// A value with no properties inserts `DEFAULT VALUES`.
  /// `lastInsertRowID` gives the new row's rowid.
  ///
  /// - Parameters:
  ///   - value: the row: one column per property.
  ///   - table: one identifier (a name containing `.` is a table of that
  ///     name, not a schema and a table).
  ///   - keyEncoding: how property names become column names
  ///     (`.convertToSnakeCase`: `dueDate` is the column `due_date`).
  /// - Throws: `EncodingError.invalidValue` when `value` does not encode as
  ///   a keyed container, asks for a nested container, or holds an unsigned
  ///   integer above Int64.max; the JSON encoder's `EncodingError` for a
  ///   value it cannot encode; `DatabaseError` with `.error`
  ///   when the table or a column name holds a NUL character, and SQLite's
  ///   error for a missing table or column or a failed constraint (e.g.
  ///   `.constraintUnique` for a UNIQUE violation).
  public func insert<T: Encodable>(
    _ value: T, into table: String, keyEncoding: KeyEncodingStrategy = .useDefaultKeys
  ) throws {
    var container = PersistenceContainer()
    RowEncodingStorage(keyEncoding: keyEncoding, record: T.self as? any PersistableRecord.Type)
      .encode(value, into: &container)
    if let error = container.error { throw error }
    let columns = container.columns
    var sql = "INSERT INTO " + (try Identifier.quoted(table))
    if columns.isEmpty {
      sql += " DEFAULT VALUES"
    } else {
      sql += " (" + (try columns.map(Identifier.quoted).joined(separator: ", ")) + ") VALUES ("
      sql += repeatElement("?", count: columns.count).joined(separator: ", ") + ")"
    }
    try execute(sql, container.values)
  }
}
