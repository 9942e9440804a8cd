import CxxStdlib
import SQLiteBridgeCore

// Typed reads of one column, with the exact conversions of
// `DatabaseValueConvertible`. A failed read throws; it never returns a
// default or a silently converted value.
//
// The readers are inlinable so that a client specializes them for the type
// it reads: unspecialized, each call pays for generic metadata lookups that
// cost more than reading the column.

extension Row {
  /// The value of column `index` as `T`.
  ///
  /// - Throws: `DatabaseError` with `.mismatch` when the
  ///   value does not convert to `T` — the message names the column, the
  ///   value and the type, e.g. `column "id" holds text 'abc', which does
  ///   not convert to Int`; `.range` when `index` is out of
  ///   range.
  @inlinable @inline(__always)
  public func get<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type) throws -> T {
    guard index >= 0, index < count else { throw DatabaseError.columnIndexOutOfRange(index, count: count, sql: nil) }
    let value = values[index]
    guard let converted = T.fromDatabaseValue(value) else {
      throw DatabaseError.conversion(column: columnNames[index], value: value, type: T.self, sql: nil)
    }
    return converted
  }

  /// The value of the leftmost column named `name` (ASCII
  /// case-insensitive) as `T`. NULL reads only as an `Optional`.
  ///
  /// - Throws: `DatabaseError` with `.range`, message
  ///   `no column named "x" in the row`, when no column has that name; code
  ///   `.mismatch` when the value does not convert, as
  ///   `get(_:as:)` by index.
  @inlinable @inline(__always)
  public func get<T: DatabaseValueConvertible>(_ name: String, as type: T.Type) throws -> T {
    guard let index = columnIndex(of: name) else { throw DatabaseError.missingColumn(name, sql: nil) }
    return try get(index, as: type)
  }

  /// `get(name, as: type)` as a subscript: `try row["id", as: Int.self]`.
  ///
  /// - Throws: `DatabaseError`, as `get(_:as:)`.
  @inlinable
  public subscript<T: DatabaseValueConvertible>(name: String, as type: T.Type) -> T {
    get throws { try get(name, as: type) }
  }
}

extension RowView {
  /// The SQL of the statement being stepped, for errors.
  @usableFromInline
  var sql: String { String(statement.pointee.sql()) }

  /// Index of the leftmost column named `name` (ASCII case-insensitive).
  @usableFromInline
  func columnIndex(named name: String) -> Int? { columns.index(of: name) }

  /// The value of column `index` as `T`, read straight from the statement.
  ///
  /// - Throws: `DatabaseError` with `.mismatch` when the
  ///   value does not convert to `T` — the message names the column, the
  ///   value and the type, e.g. `column "id" holds text 'abc', which does
  ///   not convert to Int` — and `.range` when `index` is out
  ///   of range; both carry the statement's SQL.
  @inlinable @inline(__always)
  public func get<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type) throws -> T {
    guard index >= 0, index < count else { throw DatabaseError.columnIndexOutOfRange(index, count: count, sql: sql) }
    let column = statement.pointee.column(offset &+ Int32(truncatingIfNeeded: index))
    // An integer column read as Int64 (or a 64-bit Int) is itself: the
    // commonest read skips building and dropping a DatabaseValue. The
    // type tests fold away once `T` is known.
    if column.type == .Integer {
      if T.self == Int64.self { return unsafeBitCast(column.integer, to: T.self) }
      if T.self == Int.self, MemoryLayout<Int>.size == 8 { return unsafeBitCast(Int(column.integer), to: T.self) }
    }
    let value = DatabaseValue(column)
    guard let converted = T.fromDatabaseValue(value) else {
      throw DatabaseError.conversion(
        column: columnName(index), value: value, storageClass: column.type, type: T.self, sql: sql)
    }
    return converted
  }

  /// The value of the leftmost column named `name` (ASCII
  /// case-insensitive) as `T`. NULL reads only as an `Optional`.
  ///
  /// - Throws: `DatabaseError` with `.range`, message
  ///   `no column named "x" in the row`, when no column has that name; code
  ///   `.mismatch` when the value does not convert, as
  ///   `get(_:as:)` by index.
  @inlinable @inline(__always)
  public func get<T: DatabaseValueConvertible>(_ name: String, as type: T.Type) throws -> T {
    guard let index = columnIndex(named: name) else { throw DatabaseError.missingColumn(name, sql: sql) }
    return try get(index, as: type)
  }

  /// `get(name, as: type)` as a subscript: `try row["id", as: Int.self]`.
  ///
  /// - Throws: `DatabaseError`, as `get(_:as:)`.
  @inlinable
  public subscript<T: DatabaseValueConvertible>(name: String, as type: T.Type) -> T {
    get throws { try get(name, as: type) }
  }
}
