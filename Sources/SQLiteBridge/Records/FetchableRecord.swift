/// A type built straight from a row, without Codable: the fast way to map
/// rows (`Database.fetch`, `fetchOne`, `forEach`).
///
/// ```swift
/// struct Note: FetchableRecord {
///   var id: Int64
///   var title: String
///   init(row: RowView) throws {
///     id = try row.get("id", as: Int64.self)   // or by index: row.get(0, as: Int64.self)
///     title = try row.get("title", as: String.self)
///   }
/// }
/// ```
///
/// A `Decodable` type adopts it with no code (its `init(row:)` then decodes
/// the row as `fetch` decodes a `Decodable` type); a type that is both uses
/// its `init(row:)` at every call.
public protocol FetchableRecord {
  /// Builds a value from the current row. `row` is valid only during the
  /// call (`row.copy()` keeps it).
  ///
  /// - Throws: whatever fails; `row.get` throws `DatabaseError` with
  ///   `.range` for a missing column (the message names it) and `.mismatch`
  ///   for a value that does not convert (the message names the column, the
  ///   value and the type). The error ends the fetch.
  init(row: RowView) throws
}

extension FetchableRecord where Self: Decodable {
  /// Decodes the row through the `Decodable` row decoder (coding keys
  /// matched to column names, ASCII case-insensitive, leftmost column
  /// wins), as `fetch` of a `Decodable` type does.
  ///
  /// - Throws: `DecodingError`, as `Database.fetch(_:_:_:)` of a
  ///   `Decodable` type does (`.keyNotFound` for a missing column,
  ///   `.typeMismatch` with a `.mismatch` `DatabaseError` underneath).
  public init(row: RowView) throws {
    let context = RowDecodingContext(row: row, keyDecoding: .useDefaultKeys, decoding: Self.self)
    defer { context.endQuery() }
    self = try context.decodeRow(Self.self)
  }
}
