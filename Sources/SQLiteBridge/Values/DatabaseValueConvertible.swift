import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

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
public protocol DatabaseValueConvertible: SQLExpressible {
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

  /// How conversion errors show the value (`NULL`, `integer 42`,
  /// `real 2.5`, `text 'abc'`, `a blob of 3 byte(s)`): the core's wording.
  var conversionDescription: String {
    withColumnView { view in
      var shown = std.string()
      return sqlitebridge.interop.Conversions.describeValue(view, &shown) ? String(shown) : "a value"
    }
  }

  /// The value as the core reads a column (`storageClass` overrides the
  /// value's own, for a text column that Swift read as a blob), for `body`
  /// only: text and blob bytes are lent, not copied.
  func withColumnView<Result>(
    storageClass: sqlitebridge.ValueType? = nil, _ body: (sqlitebridge.ColumnView) -> Result
  ) -> Result {
    func view(_ type: sqlitebridge.ValueType, _ bytes: UnsafeRawPointer?, _ size: Int) -> sqlitebridge.ColumnView {
      sqlitebridge.ColumnView(type: type, integer: 0, real: 0, bytes: bytes, size: size)
    }
    switch self {
    case .null:
      return body(view(.Null, nil, 0))
    case .integer(let integer):
      return body(sqlitebridge.ColumnView(type: .Integer, integer: integer, real: 0, bytes: nil, size: 0))
    case .real(let real):
      return body(sqlitebridge.ColumnView(type: .Real, integer: 0, real: real, bytes: nil, size: 0))
    case .text(var text):
      return text.withUTF8 { body(view(storageClass ?? .Text, UnsafeRawPointer($0.baseAddress), $0.count)) }
    case .blob(let data):
      return data.withUnsafeBytes { body(view(storageClass ?? .Blob, $0.baseAddress, $0.count)) }
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
  /// convert to `type`, in the core's words. Reading as a string a blob
  /// whose bytes are not valid UTF-8 adds that such text reads as a blob (a
  /// copied `Row` no longer knows whether the column held text or a blob).
  @usableFromInline
  static func conversion<T>(column: String, value: DatabaseValue, type: T.Type, sql: String?) -> DatabaseError {
    var note = ""
    if case .blob(let bytes) = value, T.self == String.self || T.self == String?.self,
      bytes.withUnsafeBytes({ String._tryFromUTF8($0.bindMemory(to: UInt8.self)) }) == nil
    {
      note = "that is not valid UTF-8 (text that is not valid UTF-8 reads as a blob)"
    }
    return conversion(column: column, value: value, storageClass: nil, note: note, type: type, sql: sql)
  }

  /// The conversion error for a column read straight from a statement,
  /// whose storage class is known: a text column that is not valid UTF-8
  /// (read as a blob) is named as such.
  @usableFromInline
  static func conversion<T>(
    column: String, value: DatabaseValue, storageClass: sqlitebridge.ValueType, type: T.Type, sql: String?
  ) -> DatabaseError {
    switch (storageClass, value) {
    case (.Text, .blob), (.Blob, .blob):
      // Known: text that is not valid UTF-8 (read as a blob), or a real
      // blob; either way the core names it, and no note is needed.
      return conversion(column: column, value: value, storageClass: storageClass, note: "", type: type, sql: sql)
    default:
      return conversion(column: column, value: value, type: type, sql: sql)
    }
  }

  /// `.mismatch`: column `column` holds text `value` that is not JSON for
  /// `type` (a `Codable` property stored as JSON), in the core's words:
  /// `column "tags" holds text 'oops' that is not JSON for Array<String>,
  /// which does not convert to Array<String>`.
  static func notJSON<T>(column: String, value: DatabaseValue, type: T.Type, sql: String?) -> DatabaseError {
    conversion(
      column: column, value: value, storageClass: nil, note: "that is not JSON for \(conversionTypeName(type))",
      type: type, sql: sql)
  }

  /// `.mismatch` with the core's message.
  private static func conversion<T>(
    column: String, value: DatabaseValue, storageClass: sqlitebridge.ValueType?, note: String, type: T.Type,
    sql: String?
  ) -> DatabaseError {
    let message = value.withColumnView(storageClass: storageClass) { view in
      var message = std.string()
      guard
        sqlitebridge.interop.Conversions.failureMessage(
          std.string(column), view, std.string(conversionTypeName(type)), std.string(note), &message)
      else { return "column \"\(column)\" does not convert to \(conversionTypeName(type))" }
      return String(message)
    }
    return DatabaseError(code: ResultCode.mismatch.rawValue, message: message, sql: sql)
  }

  /// `.range`: no column is named `name`.
  @usableFromInline
  static func missingColumn(_ name: String, sql: String?) -> DatabaseError {
    var message = std.string()
    _ = sqlitebridge.interop.Conversions.missingColumnMessage(std.string(name), &message)
    return DatabaseError(code: ResultCode.range.rawValue, message: String(message), sql: sql)
  }

  /// `.range`: column `index` does not exist.
  @usableFromInline
  static func columnIndexOutOfRange(_ index: Int, count: Int, sql: String?) -> DatabaseError {
    var message = std.string()
    _ = sqlitebridge.interop.Conversions.columnIndexOutOfRangeMessage(Int64(index), Int64(count), &message)
    return DatabaseError(code: ResultCode.range.rawValue, message: String(message), sql: sql)
  }
}
