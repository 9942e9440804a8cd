import Foundation

/// A `DatabaseValue` is `Codable`, so that a `Codable` record can hold a
/// column of any type as it is (`sqlite-bridge generate swift` gives columns
/// declared without a type a `DatabaseValue` property).
///
/// In a record, the value is the column itself: `FetchableRecord` and
/// `PersistableRecord` read and write a `DatabaseValue` property as a
/// database value (it is `DatabaseValueConvertible`), never through the
/// methods below, so every storage class round-trips exactly. Elsewhere (in
/// JSON, say) it is a single value: NULL as nil, an integer as `Int64`, a
/// real as `Double`, text as `String`, a blob as `Data` (base64 text with
/// `JSONEncoder`'s default strategy). JSON cannot tell those apart again:
/// decoding takes nil as `.null`, then the first of `Int64`, `Double`,
/// `String` and `Data` that the value decodes as, so a blob written to JSON
/// reads back as its base64 text and a real holding a whole number (`2.0`)
/// as an integer.
extension DatabaseValue: Codable {
  /// Encodes the value as a single value (see above).
  ///
  /// - Throws: what the encoder throws (`EncodingError.invalidValue` for a
  ///   non-finite real with `JSONEncoder`'s default strategy).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .integer(let value): try container.encode(value)
    case .real(let value): try container.encode(value)
    case .text(let value): try container.encode(value)
    case .blob(let value): try container.encode(value)
    }
  }

  /// Decodes a single value (see above).
  ///
  /// - Throws: `DecodingError` when the value is none of those (a nested
  ///   array or object in JSON).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .real(value)
    } else if let value = try? container.decode(String.self) {
      self = .text(value)
    } else {
      self = .blob(try container.decode(Data.self))
    }
  }
}
