import Foundation

/// One SQLite value: NULL, a 64-bit integer, a double, UTF-8 text or a blob.
///
/// Literals make values: `nil`, `42`, `1.5`, `"text"`. A zero-length blob is
/// `.blob(Data())`, distinct from `.null`; empty text is `.text("")`.
public enum DatabaseValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)

  /// True for `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension DatabaseValue: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension DatabaseValue: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .real(value) }
}

extension DatabaseValue: ExpressibleByStringLiteral {
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
