import Foundation

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
///
/// A `Decodable` record's property that is not a database value (a nested
/// struct, an array, a dictionary) is read from JSON text in its column,
/// with the `JSONDecoder` that `databaseJSONDecoder(for:)` returns for that
/// column.
public protocol FetchableRecord {
  /// Builds a value from the current row. `row` is valid only during the
  /// call (`row.copy()` keeps it).
  ///
  /// - Throws: whatever fails; `row.get` throws `DatabaseError` with
  ///   `.range` for a missing column (the message names it) and `.mismatch`
  ///   for a value that does not convert (the message names the column, the
  ///   value and the type). The error ends the fetch.
  init(row: RowView) throws

  /// The decoder of the JSON text in column `column` (the column's name as
  /// the query names it), for a `Decodable` record's property that is
  /// stored as JSON (a nested struct, an array, a dictionary): give it the
  /// strategies the JSON was written with (dates, keys inside the JSON).
  ///
  /// Asked when a query first decodes such a column, once per column per
  /// query (not per row), and only for the record type being fetched (not
  /// for the nested types). Unused by a type whose own `init(row:)` reads
  /// the row. Default: a plain `JSONDecoder()`.
  ///
  /// Cannot fail; text the decoder cannot decode fails the fetch with a
  /// `.mismatch` `DatabaseError` naming the column (inside a
  /// `DecodingError.typeMismatch`).
  static func databaseJSONDecoder(for column: String) -> JSONDecoder
}

extension FetchableRecord {
  /// A plain `JSONDecoder()`, for every column.
  public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
    JSONColumns.defaultDecoder()
  }
}

extension FetchableRecord where Self: Decodable {
  /// Decodes the row through the `Decodable` row decoder (coding keys
  /// matched to column names, ASCII case-insensitive, leftmost column
  /// wins), as `fetch` of a `Decodable` type does; a property stored as
  /// JSON text is decoded with `Self.databaseJSONDecoder(for:)`.
  ///
  /// - Throws: `DecodingError`, as `Database.fetch(_:_:_:)` of a
  ///   `Decodable` type does (`.keyNotFound` for a missing column,
  ///   `.valueNotFound` for NULL in a non-optional property,
  ///   `.typeMismatch` with a `.mismatch` `DatabaseError` underneath for a
  ///   value that does not convert or text that is not JSON for the
  ///   property's type).
  public init(row: RowView) throws {
    let context = RowDecodingContext(row: row, keyDecoding: .useDefaultKeys, decoding: Self.self, record: Self.self)
    defer { context.endQuery() }
    self = try context.decodeRow(Self.self)
  }
}
