/// A value that binds nothing and takes no parameter: each value after the
/// first of `execute(_:values:)` with up to 12 values defaults to one, so
/// that one overload serves every count. Written explicitly among values,
/// it is skipped (`values: a, OmittedValue(), b` binds `a` and `b` to
/// parameters 1 and 2). Its `databaseValue` is `.null`, and it is never
/// read from a database (`fromDatabaseValue` returns nil).
public struct OmittedValue: DatabaseValueConvertible, Sendable {
  /// An omitted value.
  public init() {}

  /// `.null` (an omitted value is never bound).
  public var databaseValue: DatabaseValue { .null }

  /// Always nil: no value read from a database is an omitted one.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> OmittedValue? { nil }
}
