import SQLiteBridgeCore

/// A Swift type that can be stored in, and read back from, one SQLite value.
///
/// Conversions are exact or fail: `fromDatabaseValue` returns nil when the
/// value does not convert without loss (text is never parsed as a number, a
/// real with a fractional part is not an integer, NULL is not a
/// non-optional value). The typed readers (`Row.get`, `RowView.get`) turn
/// that nil into a `DatabaseError` with `.mismatch`, and
/// `fetch` into a `DecodingError`. The rules match the C++ core's
/// `ColumnDecoder`.
///
/// Conform your own types to read and bind them directly; a type that is
/// `DatabaseValueConvertible` and `Decodable` is decoded through this
/// protocol, from one column.
public protocol DatabaseValueConvertible {
  /// The value to store (bind) for `self`.
  var databaseValue: DatabaseValue { get }
  /// `value` as `Self`, or nil when it does not convert exactly.
  static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
  /// The value itself.
  public var databaseValue: DatabaseValue { self }

  /// Any value, as it is; never nil.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  /// `nil` stores NULL; a wrapped value stores what it stores.
  public var databaseValue: DatabaseValue {
    switch self {
    case .none: return .null
    case .some(let wrapped): return wrapped.databaseValue
    }
  }

  /// NULL reads as `.some(nil)` (a successful read of an absent value);
  /// anything else reads as `Wrapped` does, and is nil (a failure) when
  /// `Wrapped` rejects it.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
    if case .null = value { return .some(.none) }
    guard let wrapped = Wrapped.fromDatabaseValue(value) else { return nil }
    return .some(.some(wrapped))
  }
}

extension DatabaseValue {
  /// The value as an exact 64-bit integer: an integer, or a real with no
  /// fractional part inside Int64's range. Nil for anything else (text is
  /// never parsed).
  @inlinable
  var exactInteger: Int64? {
    switch self {
    case .integer(let integer):
      return integer
    case .real(let real):
      return ExactConversion.integer(real)
    default:
      return nil
    }
  }

  /// How conversion errors show the value: `NULL`, `integer 42`,
  /// `real 2.5`, `text 'abc'` (cut after 40 characters), `a blob of 3
  /// byte(s)` — the wording of the C++ core's `Statement::failConversion`.
  var conversionDescription: String {
    switch self {
    case .null:
      return "NULL"
    case .integer(let integer):
      return "integer \(integer)"
    case .real(let real):
      return "real \(real)"
    case .text(let text):
      return text.count > 40 ? "text '\(text.prefix(40))...'" : "text '\(text)'"
    case .blob(let data):
      return "a blob of \(data.count) byte(s)"
    }
  }
}

/// The conversion rules shared by `DatabaseValue` conversions and by
/// decoding straight from a statement's columns, so both agree.
@usableFromInline
enum ExactConversion {
  /// `real` as an Int64 when it has no fractional part and fits.
  @inlinable @inline(__always)
  static func integer(_ real: Double) -> Int64? {
    // 2^63 is exactly representable; Int64.max is not, hence `<`.
    guard real.rounded(.towardZero) == real, real >= -9_223_372_036_854_775_808.0, real < 9_223_372_036_854_775_808.0
    else { return nil }
    return Int64(real)
  }

  /// `double` as the nearest Float; nil when a finite value would become
  /// infinity.
  @inlinable @inline(__always)
  static func float(_ double: Double) -> Float? {
    let float = Float(double)
    return float.isFinite == double.isFinite ? float : nil
  }
}

/// How conversion errors name a Swift type: `Int`, `String`, `Int?`.
func conversionTypeName<T>(_ type: T.Type) -> String {
  var name = String(describing: type)
  var suffix = ""
  while name.hasPrefix("Optional<"), name.hasSuffix(">") {
    name = String(name.dropFirst("Optional<".count).dropLast())
    suffix += "?"
  }
  return name + suffix
}

extension DatabaseError {
  /// `.mismatch`: column `column` holds `value`, which does not
  /// convert to `type`. Reading as a string a blob whose bytes are not valid
  /// UTF-8 adds that such text reads as a blob (a copied `Row` no longer
  /// knows whether the column held text or a blob).
  @usableFromInline
  static func conversion<T>(column: String, value: DatabaseValue, type: T.Type, sql: String?) -> DatabaseError {
    var shown = value.conversionDescription
    if case .blob(let bytes) = value, T.self == String.self || T.self == String?.self,
      bytes.withUnsafeBytes({ String._tryFromUTF8($0.bindMemory(to: UInt8.self)) }) == nil
    {
      shown += " that is not valid UTF-8 (text that is not valid UTF-8 reads as a blob)"
    }
    return conversion(column: column, shown: shown, type: type, sql: sql)
  }

  /// The conversion error for a column read straight from a statement,
  /// whose storage class is known: a text column that is not valid UTF-8
  /// (read as a blob) is named as such.
  @usableFromInline
  static func conversion<T>(
    column: String, value: DatabaseValue, storageClass: sqlitebridge.ValueType, type: T.Type, sql: String?
  ) -> DatabaseError {
    if storageClass == .Text, case .blob(let bytes) = value {
      return conversion(
        column: column, shown: ColumnText.invalidDescription(byteCount: bytes.count), type: type, sql: sql)
    }
    return conversion(column: column, value: value, type: type, sql: sql)
  }

  /// `.mismatch` with the value already described.
  static func conversion<T>(column: String, shown: String, type: T.Type, sql: String?) -> DatabaseError {
    DatabaseError(
      code: 20,
      message: "column \"\(column)\" holds \(shown), which does not convert to " + conversionTypeName(type),
      sql: sql)
  }

  /// `.range`: no column is named `name`.
  @usableFromInline
  static func missingColumn(_ name: String, sql: String?) -> DatabaseError {
    DatabaseError(code: 25, message: "no column named \"\(name)\" in the row", sql: sql)
  }

  /// `.range`: column `index` does not exist.
  @usableFromInline
  static func columnIndexOutOfRange(_ index: Int, count: Int, sql: String?) -> DatabaseError {
    DatabaseError(
      code: 25, message: "column index \(index) is out of range: the row has \(count) column(s)", sql: sql)
  }
}
