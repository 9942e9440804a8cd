import CxxStdlib
import SQLiteBridgeCore

/// The result columns of one run of a statement, read once after its first
/// step (when a statement re-prepared after a schema change knows its real
/// columns) and shared by every row of that run.
@usableFromInline
package final class ColumnTable {
  @usableFromInline let names: [String]
  @usableFromInline let count: Int32
  /// Whether column i is the leftmost of the columns named like it (equal
  /// but for ASCII case): only those can answer a lookup by name.
  @usableFromInline let isLeftmost: [Bool]
  /// Where the next lookup by name starts: callers usually read columns in
  /// order, so the column after the last one found is most often the one
  /// asked for next. (Unchecked: a table serves one statement on one thread.)
  @exclusivity(unchecked) @usableFromInline var hint = 0
  /// The JSON decoders this run's rows were decoded with (see
  /// `JSONDecoderCache`): one set per query even where a record's
  /// `init(row:)` decodes each row with a context of its own.
  @exclusivity(unchecked) var jsonDecoders: JSONDecoderCache?
  /// For the rows of a request with associations: where the included
  /// scopes are, and the current row's prefetched rows (nil otherwise).
  /// Kept here rather than in `RowView`, which stays three words (passed in
  /// registers to every `init(row:)`).
  @usableFromInline var scoping: RowScoping?
  /// The span of `scoping` this table's columns are (a scope's view), -1
  /// for the request's row.
  var spanIndex = -1

  convenience init(_ statement: borrowing sqlitebridge.Statement) {
    self.init(names: (0..<statement.columnCount()).map { String(statement.columnName($0)) })
  }

  /// The table of columns named `names`, in order (for rows that come from
  /// elsewhere than a statement: a `ClusterDatabase` result).
  package init(names: [String]) {
    count = Int32(names.count)
    self.names = names
    isLeftmost = names.indices.map { index in !names[..<index].contains { Identifier.same($0, names[index]) } }
  }

  /// Index of the leftmost column named `name` (ASCII case-insensitive), or
  /// nil. Exact names are matched first (comparing small strings is a few
  /// instructions), starting at the hint.
  @inlinable @inline(__always)
  func index(of name: String) -> Int? {
    let hint = self.hint
    if hint < names.count, isLeftmost[hint], names[hint] == name {
      self.hint = hint + 1
      return hint
    }
    return search(name)
  }

  @usableFromInline
  func search(_ name: String) -> Int? {
    for index in names.indices where isLeftmost[index] && names[index] == name {
      hint = index + 1
      return index
    }
    // Not spelled as SQL spelled it: compare ignoring ASCII case.
    guard let index = names.firstIndex(where: { Identifier.same($0, name) }) else { return nil }
    hint = index + 1
    return index
  }

  /// Keys for a row dictionary: each name to the index of its leftmost
  /// column. Per-row dictionaries are made with `mapValues` over it, so keys
  /// are hashed once per query, not once per row.
  package lazy var dictionaryTemplate: [String: Int] = {
    var template = [String: Int](minimumCapacity: names.count)
    for (index, name) in names.enumerated() where template[name] == nil {
      template[name] = index
    }
    return template
  }()
}
