/// The type of a value left out of a call to `execute(_:values:)` with up to
/// 12 values: each of the values after the first defaults to one, and it
/// binds nothing (the statement's parameters are checked against the values
/// written). Only that default makes one; its `databaseValue` is `.null`
/// and it is never read from a database (`fromDatabaseValue` returns nil).
public struct OmittedValue: DatabaseValueConvertible, Sendable {
  /// Made by `execute(_:values:)`'s defaults only.
  @usableFromInline init() {}

  /// `.null`: an omitted value is never bound.
  public var databaseValue: DatabaseValue { .null }

  /// Always nil: no value read from a database is an omitted one.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> OmittedValue? { nil }
}
