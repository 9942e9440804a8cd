import Foundation

/// One SQLite value: NULL, a 64-bit integer, a double, UTF-8 text or a blob.
///
/// Literals make values: `nil`, `42`, `1.5`, `"text"`. A zero-length blob is
/// `.blob(Data())`, distinct from `.null`; empty text is `.text("")`.
///
/// Text that is not valid UTF-8 (SQLite stores whatever bytes it is given,
/// and C callers or `CAST(x'ff' AS TEXT)` can put them there) is read as
/// `.blob` holding its exact bytes: a Swift `String` cannot hold them, and
/// decoding would silently replace them with U+FFFD. Read such a column as
/// `Data` to get the bytes; reading it as `String` (`get(_:as:)`, `fetch`)
/// throws the conversion error (`.mismatch`) saying the text is
/// not valid UTF-8. Valid text, embedded NUL characters included, is
/// `.text`. Column names, table names and error messages are `String`s and
/// do replace invalid UTF-8 with U+FFFD.
public enum DatabaseValue: Hashable, Sendable {
  /// SQL NULL.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// A 64-bit floating-point number.
  case real(Double)
  /// Text (UTF-8 in the database).
  case text(String)
  /// Bytes, as they are; a zero-length blob is not NULL.
  case blob(Data)

  /// True for `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension DatabaseValue: ExpressibleByNilLiteral {
  /// `.null`, written `nil`.
  public init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue: ExpressibleByIntegerLiteral {
  /// `.integer(value)`, written as an integer literal (`42`).
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension DatabaseValue: ExpressibleByFloatLiteral {
  /// `.real(value)`, written as a floating-point literal (`1.5`).
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension DatabaseValue: ExpressibleByStringLiteral {
  /// `.text(value)`, written as a string literal (`"text"`).
  public init(stringLiteral value: String) { self = .text(value) }
}

extension DatabaseValue: CustomStringConvertible {
  /// SQL-literal-like text: `NULL`, `42`, `1.5`, `'text'`, `x'0102'`.
  public var description: String {
    switch self {
    case .null: return "NULL"
    case .integer(let value): return String(value)
    case .real(let value): return String(value)
    case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let value): return "x'" + value.map { String(format: "%02x", $0) }.joined() + "'"
    }
  }
}
