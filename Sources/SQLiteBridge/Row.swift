/// One result row: every column in SQL order, duplicates kept, each named as
/// the SQL names it (the alias if there is one).
public struct Row: Sendable, Hashable {
  /// Column names in order (rows of one query share the array's storage).
  public let columnNames: [String]
  /// Values in column order.
  public let values: [DatabaseValue]

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

/// SQL identifier comparison: equal but for ASCII case.
enum Identifier {
  static func same(_ a: String, _ b: String) -> Bool {
    let x = a.utf8
    let y = b.utf8
    guard x.count == y.count else { return false }
    return zip(x, y).allSatisfy { lower($0) == lower($1) }
  }

  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= 65 && byte <= 90 ? byte + 32 : byte
  }
}
