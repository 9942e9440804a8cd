import Foundation

// Conformances of the standard scalar types. Integers read exactly: an
// integer that fits the type, or a real with no fractional part that does;
// anything else (text, a blob, NULL, a fraction, a value out of range) is
// nil. UInt and UInt64 do not conform: their upper half has no SQLite
// integer to be stored as.

extension Int: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `Int`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
    value.exactInteger.flatMap { Int(exactly: $0) }
  }
}

extension Int8: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `Int8`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int8? {
    value.exactInteger.flatMap { Int8(exactly: $0) }
  }
}

extension Int16: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `Int16`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int16? {
    value.exactInteger.flatMap { Int16(exactly: $0) }
  }
}

extension Int32: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `Int32`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
    value.exactInteger.flatMap { Int32(exactly: $0) }
  }
}

extension Int64: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(self) }

  /// An integer, or a real with no fractional part, inside `Int64`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
    value.exactInteger
  }
}

extension UInt8: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `UInt8`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> UInt8? {
    value.exactInteger.flatMap { UInt8(exactly: $0) }
  }
}

extension UInt16: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `UInt16`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> UInt16? {
    value.exactInteger.flatMap { UInt16(exactly: $0) }
  }
}

extension UInt32: DatabaseValueConvertible {
  /// Stores an integer.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }

  /// An integer, or a real with no fractional part, inside `UInt32`'s range;
  /// nil otherwise (text is never parsed).
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> UInt32? {
    value.exactInteger.flatMap { UInt32(exactly: $0) }
  }
}

extension Bool: DatabaseValueConvertible {
  /// Stores 1 for true, 0 for false.
  @inlinable
  public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

  /// True for any non-zero integer (or real with no fractional part, as
  /// C++ reads it), false for zero; nil for a fraction, text, a blob or NULL.
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
    value.exactInteger.map { $0 != 0 }
  }
}

extension Double: DatabaseValueConvertible {
  /// Stores a real (NaN is stored as NULL, as SQLite does).
  @inlinable
  public var databaseValue: DatabaseValue { .real(self) }

  /// A real, or an integer (beyond 2^53 in magnitude it becomes the nearest
  /// Double, as in C++); nil for text, a blob or NULL.
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
    switch value {
    case .real(let real): return real
    case .integer(let integer): return Double(integer)
    default: return nil
    }
  }
}

extension Float: DatabaseValueConvertible {
  /// Stores a real (exactly: every Float is a Double).
  @inlinable
  public var databaseValue: DatabaseValue { .real(Double(self)) }

  /// A real or an integer, as the nearest Float (so most reals lose
  /// precision); an infinite real reads as infinity. Nil for a finite value
  /// beyond Float's range (it would become infinity), text, a blob or NULL.
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Float? {
    switch value {
    case .real(let real): return ExactConversion.float(real)
    case .integer(let integer): return Float(integer)
    default: return nil
    }
  }
}

extension String: DatabaseValueConvertible {
  /// Stores text.
  @inlinable
  public var databaseValue: DatabaseValue { .text(self) }

  /// Text only: nil for a number (never formatted), a blob or NULL.
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
    if case .text(let text) = value { return text }
    return nil
  }
}

extension Data: DatabaseValueConvertible {
  /// Stores a blob (an empty `Data` is a zero-length blob, not NULL).
  @inlinable
  public var databaseValue: DatabaseValue { .blob(self) }

  /// Blobs only: nil for text (text is not a blob), a number or NULL.
  @inlinable
  public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
    if case .blob(let data) = value { return data }
    return nil
  }
}
