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
/// properties become the columns (as `insert(_:into:)` encodes them).
///
/// The table and the key are read when a `Database` first writes a record
/// of the type (and again only when its columns change): give each type
/// one table and one key.
public protocol PersistableRecord {
  /// The table the record is a row of (any name: it is quoted).
  static var databaseTableName: String { get }
  /// The columns of the primary key, in key order: `update`, `save` and
  /// `delete` find the row by them, and `encode(to:)` must set each of
  /// them (or those calls throw `.misuse`). Default: `["id"]`.
  static var primaryKey: [String] { get }
  /// Sets every column to write, in the order the INSERT lists them
  /// (`container["title"] = title`); the key columns among them. Cannot
  /// throw: a default `encode(to:)` that fails leaves its error in the
  /// container, and the write throws it.
  func encode(to container: inout PersistenceContainer)
}

extension PersistableRecord {
  /// `["id"]`.
  public static var primaryKey: [String] { ["id"] }
}

extension PersistableRecord where Self: Encodable {
  /// Each key of the value's keyed container becomes a column (in the
  /// order it encodes them), as `Database.insert(_:into:)` encodes it: a
  /// nil optional is NULL, another `Encodable` property its single value
  /// or JSON text.
  ///
  /// An encoding failure (an unkeyed or single-value top level, a nested
  /// container, an unsigned integer above Int64.max, a throwing
  /// `encode(to:)`) is kept in the container: the write then throws that
  /// `EncodingError` (or the thrown error) and runs nothing.
  public func encode(to container: inout PersistenceContainer) {
    let storage = RowEncodingStorage(keyEncoding: .useDefaultKeys)
    do {
      try encode(to: RowEncoder(storage: storage, codingPath: []))
    } catch {
      container.error = container.error ?? error
    }
    if let error = storage.error { container.error = container.error ?? error }
    for (column, value) in zip(storage.columns, storage.values) { container[column] = value }
  }
}
