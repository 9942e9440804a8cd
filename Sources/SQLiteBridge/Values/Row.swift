import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One result row: every column in SQL order, duplicates kept, each named as
/// the SQL names it (the alias if there is one).
public struct Row: Sendable, Hashable {
  /// Column names in order (rows of one query share the array's storage).
  public let columnNames: [String]
  /// Values in column order.
  public let values: [DatabaseValue]
  /// For a row of a request with associations, each included
  /// association's columns by key (an optional association that found
  /// nothing has no entry); empty otherwise.
  public internal(set) var scopes: [String: Row] = [:]
  /// For a row of a request with `including(all:)`, each association's
  /// prefetched rows by key; empty otherwise.
  public internal(set) var prefetchedRows: [String: [Row]] = [:]

  /// A row of `values` named by `columnNames` (which must be as long).
  public init(columnNames: [String], values: [DatabaseValue]) {
    precondition(columnNames.count == values.count, "a Row needs one name per value")
    self.columnNames = columnNames
    self.values = values
  }

  /// Number of columns.
  public var count: Int { values.count }

  /// The value of column `index`. Traps when `index` is out of range, as an
  /// array does.
  public subscript(index: Int) -> DatabaseValue { values[index] }

  /// The value of the leftmost column named `name`, compared ASCII
  /// case-insensitively as SQLite compares identifiers; nil when no column
  /// has that name (a NULL value is `.null`, not nil).
  public subscript(name: String) -> DatabaseValue? {
    columnIndex(of: name).map { values[$0] }
  }

  /// Index of the leftmost column named `name` (case-insensitive), or nil.
  public func columnIndex(of name: String) -> Int? {
    columnNames.firstIndex { Identifier.same($0, name) }
  }

  /// The row as a dictionary keyed by the exact column names; when names
  /// repeat, the leftmost column wins.
  public var dictionary: [String: DatabaseValue] {
    var result = [String: DatabaseValue](minimumCapacity: count)
    for (name, value) in zip(columnNames, values) where result[name] == nil {
      result[name] = value
    }
    return result
  }
}

/// SQL identifiers, compared and quoted by the core's rules.
enum Identifier {
  /// Whether `a` and `b` name the same column or table: equal but for ASCII
  /// case (the core's `sameIdentifier`).
  static func same(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
      b.withUTF8 { y in sqlitebridge.interop.Identifiers.same(x.baseAddress, x.count, y.baseAddress, y.count) }
    }
  }

  /// `name` as a quoted SQL identifier: `"name"`, with `"` doubled.
  ///
  /// - Throws: `DatabaseError` with `.error` when `name` holds NUL, which
  ///   would end the SQL text early.
  static func quoted(_ name: String) throws -> String {
    var quoted = std.string()
    var problem = std.string()
    guard sqlitebridge.interop.Identifiers.quote(std.string(name), &quoted, &problem) else {
      throw DatabaseError(code: ResultCode.error.rawValue, message: String(problem))
    }
    return String(quoted)
  }
}
