import CxxStdlib
import SQLiteBridgeCore

/// The result columns of one run of a statement, read once after its first
/// step (when a statement re-prepared after a schema change knows its real
/// columns) and shared by every row of that run.
final class ColumnTable {
  let names: [String]
  let count: Int32

  init(_ statement: borrowing sqlitebridge.Statement) {
    count = statement.columnCount()
    names = (0..<count).map { String(statement.columnName($0)) }
  }

  /// Index of the leftmost column named `name` (ASCII case-insensitive).
  func index(of name: String) -> Int? {
    names.firstIndex { Identifier.same($0, name) }
  }

  /// Keys for a row dictionary: each name to the index of its leftmost
  /// column. Per-row dictionaries are made with `mapValues` over it, so keys
  /// are hashed once per query, not once per row.
  lazy var dictionaryTemplate: [String: Int] = {
    var template = [String: Int](minimumCapacity: names.count)
    for (index, name) in names.enumerated() where template[name] == nil {
      template[name] = index
    }
    return template
  }()
}
