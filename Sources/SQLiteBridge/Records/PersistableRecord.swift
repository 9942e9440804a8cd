import Foundation

/// A type that writes itself as the columns of one row of its table
/// (`Database.insert`, `update`, `save`, `delete`).
///
/// ```swift
/// struct Note: PersistableRecord {
///   static let databaseTableName = "notes"
///   var id: Int64
///   var title: String
///   func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container["title"] = title
///   }
/// }
/// ```
///
/// An `Encodable` type adopts it with only `databaseTableName`: its
/// properties become the columns (as `insert(_:into:)` encodes them). A
/// property that is not a database value (a nested struct, an array, a
/// dictionary) is stored as JSON text, written by the `JSONEncoder` that
/// `databaseJSONEncoder(for:)` returns for its column.
///
/// The table and the key are read when a `Database` first writes a record
/// of the type (and again only when its columns change): give each type
/// one table and one key.
public protocol PersistableRecord: TableRecord {
  /// The columns of the primary key, in key order: `update`, `save` and
  /// `delete` find the row by them, and `encode(to:)` must set each of
  /// them (or those calls throw `.misuse`). Default: `["id"]`.
  static var primaryKey: [String] { get }
  /// Sets every column to write, in the order the INSERT lists them
  /// (`container["title"] = title`); the key columns among them. Cannot
  /// throw: a default `encode(to:)` that fails leaves its error in the
  /// container, and the write throws it.
  func encode(to container: inout PersistenceContainer)

  /// The encoder of the JSON text stored in column `column` (the column's
  /// name), for an `Encodable` record's property that is not a database
  /// value (a nested struct, an array, a dictionary): give it the
  /// strategies the JSON should be written with (dates, key order,
  /// formatting).
  ///
  /// Asked once per JSON column, the first time it is needed: by a
  /// `Database`, once for each kind of write (insert with each conflict
  /// resolution, update, save, delete) of the type, which keeps the encoder
  /// for every later record (asked again only when the record's columns
  /// change); by `insert(_:into:)`, on each call. Only for the record type
  /// itself (not for the nested types), and never for a type whose own
  /// `encode(to:)` fills the container. Default: a `JSONEncoder()` with `.sortedKeys`, so that
  /// equal values are stored as equal text.
  ///
  /// Cannot fail; a value the encoder cannot encode (a non-finite Double
  /// with the default strategy, say) fails the write with the encoder's
  /// `EncodingError`, before anything runs.
  static func databaseJSONEncoder(for column: String) -> JSONEncoder
}

extension PersistableRecord {
  /// `["id"]`.
  public static var primaryKey: [String] { ["id"] }

  /// A `JSONEncoder()` with `outputFormatting` `.sortedKeys`, for every
  /// column.
  public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
    JSONColumns.defaultEncoder()
  }
}

extension PersistableRecord where Self: Encodable {
  /// Each key of the value's keyed container becomes a column (in the
  /// order it encodes them), as `Database.insert(_:into:)` encodes it: a
  /// nil optional is NULL, another `Encodable` property its single value
  /// or JSON text (written by `Self.databaseJSONEncoder(for:)`).
  ///
  /// An encoding failure (an unkeyed or single-value top level, a nested
  /// container, an unsigned integer above Int64.max, a value the JSON
  /// encoder rejects, a throwing `encode(to:)`) is kept in the container: the write then throws that
  /// `EncodingError` (or the thrown error) and runs nothing.
  public func encode(to container: inout PersistenceContainer) {
    // The storage the writing Database lends, when it is this type's (a
    // record's own encode(to:) may call another type's default one) and
    // free (not encoding a value already: a write inside an encode(to:)).
    if let lent = container.lentEncoding,
      lent._withUnsafeGuaranteedRef({ $0.recordID == ObjectIdentifier(Self.self) && !$0.isEncoding })
    {
      lent._withUnsafeGuaranteedRef { $0.encode(self, into: &container) }
      return
    }
    let storage = RowEncodingStorage(keyEncoding: .useDefaultKeys, record: Self.self)
    storage.encode(self, into: &container)
    container.madeEncoding = storage
  }
}
