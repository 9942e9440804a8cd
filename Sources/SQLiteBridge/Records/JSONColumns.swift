import Foundation

// JSON columns: a `Codable` record's property that is not a database value
// (a nested struct, an array, a dictionary) is stored as JSON text in its
// column, with the coders the record type's hooks give
// (`FetchableRecord.databaseJSONDecoder(for:)`,
// `PersistableRecord.databaseJSONEncoder(for:)`); other types use the
// defaults. The coders are asked for lazily, once per column per query
// (when writing, once per column for each record plan a `Database` keeps),
// never for columns that are not JSON.

/// The default JSON coders and the wording of a JSON failure.
enum JSONColumns {
  /// A plain `JSONDecoder()`.
  static func defaultDecoder() -> JSONDecoder { JSONDecoder() }

  /// A `JSONEncoder()` with `.sortedKeys`: equal values give equal text
  /// (what every JSON column held before the hooks existed).
  static func defaultEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// Why `JSONDecoder` rejected a column's text, for a `DecodingError`'s
  /// description: its own description, after the place inside the JSON
  /// written as SQLite's JSON paths are (`$.origin.x`, `$[2]`), when it
  /// names one.
  static func reason(_ error: any Error) -> String {
    let context: DecodingError.Context
    switch error as? DecodingError {
    case .dataCorrupted(let found)?, .keyNotFound(_, let found)?, .typeMismatch(_, let found)?,
      .valueNotFound(_, let found)?:
      context = found
    default:
      return String(describing: error)
    }
    guard !context.codingPath.isEmpty else { return context.debugDescription }
    let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    return "at $\(path): \(context.debugDescription)"
  }
}

/// The JSON decoders of one query's columns, asked of the fetched record
/// type's hook (or made plain, for a type that is not a `FetchableRecord`)
/// the first time each column is decoded from JSON. Kept by the query's
/// `ColumnTable` when there is one, so that a record type whose
/// `init(row:)` makes a decoding context per row still asks once per query.
final class JSONDecoderCache {
  /// The record type whose hook is asked (nil: plain decoders).
  let record: (any FetchableRecord.Type)?
  /// `record`'s identity, or nil.
  let recordID: ObjectIdentifier?
  /// The decoder of each column, once asked for.
  private var decoders: [JSONDecoder?]

  init(record: (any FetchableRecord.Type)?, columnCount: Int) {
    self.record = record
    recordID = record.map { ObjectIdentifier($0) }
    decoders = Array(repeating: nil, count: columnCount)
  }

  /// The decoder of column `column`, named `name`.
  func decoder(column: Int, name: String) -> JSONDecoder {
    if let decoder = decoders[column] { return decoder }
    let decoder = record?.databaseJSONDecoder(for: name) ?? JSONColumns.defaultDecoder()
    decoders[column] = decoder
    return decoder
  }
}
