import Foundation

// `DatabaseValue`'s case names where a `DatabaseValueConvertible` is
// expected: an element of a `StatementArguments` literal is
// `(any DatabaseValueConvertible)?`, whose implicit members are the
// protocol's static members for a `Self` named here (SE-0299). They are
// declared for `StatementArguments.Argument`, not for `DatabaseValue`, so that
// `.integer(1)` where a `DatabaseValue` is expected stays the enum case,
// without ambiguity.

extension StatementArguments {
  /// One value written with `DatabaseValue`'s case names in an arguments
  /// literal (`[.integer(r), .text(s), .null]`); it binds its
  /// `databaseValue`. Only made by those names.
  public struct Argument: DatabaseValueConvertible, Sendable {
    /// The value bound.
    public let databaseValue: DatabaseValue

    /// The value it holds, whatever `value` is.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Argument? { Argument(databaseValue: value) }
  }
}

extension DatabaseValueConvertible where Self == StatementArguments.Argument {
  /// `DatabaseValue.null` in an arguments literal.
  public static var null: StatementArguments.Argument { .init(databaseValue: .null) }

  /// `DatabaseValue.integer(value)` in an arguments literal.
  public static func integer(_ value: Int64) -> StatementArguments.Argument { .init(databaseValue: .integer(value)) }

  /// `DatabaseValue.real(value)` in an arguments literal.
  public static func real(_ value: Double) -> StatementArguments.Argument { .init(databaseValue: .real(value)) }

  /// `DatabaseValue.text(value)` in an arguments literal.
  public static func text(_ value: String) -> StatementArguments.Argument { .init(databaseValue: .text(value)) }

  /// `DatabaseValue.blob(value)` in an arguments literal.
  public static func blob(_ value: Data) -> StatementArguments.Argument { .init(databaseValue: .blob(value)) }
}
