import SQLiteBridgeCore

/// What a request with associations adds to its rows: where each included
/// association's columns are (from the core), and the prefetched rows of
/// the row being read. One per fetch; rows of the fetch share it.
@usableFromInline
final class RowScoping {
  /// One included association's columns in the row (`start`: the
  /// statement's column), and the span it was included under (an index
  /// into `spans`; -1: the request's own row).
  struct Span {
    let key: String
    let start: Int
    let count: Int
    let parent: Int
  }

  let spans: [Span]
  /// The names of the row's columns (set when the first row is read).
  var names: [String] = []
  /// The prefetched rows of the current row, by association key.
  var prefetchedRows: [String: [Row]] = [:]
  /// The same rows decoded as the association's destination type (when it
  /// is a `FetchableRecord`), by key.
  var prefetchedValues: [String: [Any]] = [:]
  /// The keys of the request's `including(all:)` associations.
  let prefetchKeys: [String]

  init(spans: [Span], prefetchKeys: [String]) {
    self.spans = spans
    self.prefetchKeys = prefetchKeys
  }

  /// The index of the span `key` included under the span `parent` (-1: the
  /// request's row).
  func span(named key: String, under parent: Int) -> Int? {
    spans.indices.first { spans[$0].parent == parent && spans[$0].key == key }
  }

  /// The column table of span `index`'s columns, scoped by this scoping at
  /// that span (made once per span and fetch).
  func columnTable(_ index: Int) -> ColumnTable {
    if let table = tables[index] { return table }
    let span = spans[index]
    let table = ColumnTable(names: Array(names[span.start..<span.start + span.count]))
    table.scoping = self
    table.spanIndex = index
    tables[index] = table
    return table
  }
  private var tables: [Int: ColumnTable] = [:]

  /// Drops the scopes' column tables when the fetch ends: each refers back
  /// to this scoping (a cycle that would otherwise leak both).
  func endFetch() { tables.removeAll() }

  /// Whether `span` found nothing in the current row of `statement`: every
  /// one of its columns is NULL,
  /// as an optional association that matched no row leaves them. The one
  /// test `scopes`, `RowView.scope(_:)` and the `Decodable` decoder apply.
  static func isEmpty(_ span: Span, in statement: UnsafePointer<sqlitebridge.Statement>) -> Bool {
    let start = Int32(span.start)
    return (0..<Int32(span.count)).allSatisfy { statement.pointee.column(start &+ $0).type == .Null }
  }

  /// The scopes included under span `parent` (-1: the request's row) in the
  /// current row of `statement`, each a copied `Row` with its own scopes; a
  /// scope that found nothing (`isEmpty`) is left out.
  func scopes(_ statement: UnsafePointer<sqlitebridge.Statement>, under parent: Int) -> [String: Row] {
    var result: [String: Row] = [:]
    for (index, span) in spans.enumerated() where span.parent == parent && !Self.isEmpty(span, in: statement) {
      let values = (span.start..<span.start + span.count).map { DatabaseValue(statement.pointee.column(Int32($0))) }
      var row = Row(columnNames: Array(names[span.start..<span.start + span.count]), values: values)
      row.scopes = scopes(statement, under: index)
      result[span.key] = row
    }
    return result
  }
}

extension RowView {
  /// The columns of each association the request included
  /// (`including(required:)`, `including(optional:)`), by key, copied: read
  /// an included record with `Author(row:)` on… or by name. An optional
  /// association that found nothing (every column NULL) has no entry.
  /// Empty for a row of a request without associations.
  public var scopes: [String: Row] {
    guard let scoping else { return [:] }
    return scoping.scopes(statement, under: columns.spanIndex)
  }

  /// The columns of the included association `key`, as a view of the same
  /// row, for a record's `init(row:)` to build the included record:
  /// `author = try row.scope("author").map(Author.init(row:))`. Nil when
  /// the request included no association under `key`, or when an optional
  /// one found nothing (every column NULL). Valid as long as this view.
  public func scope(_ key: String) -> RowView? {
    guard let scoping, let index = scoping.span(named: key, under: columns.spanIndex) else { return nil }
    let span = scoping.spans[index]
    if RowScoping.isEmpty(span, in: statement) { return nil }
    return RowView(statement: statement, columns: scoping.columnTable(index), offset: Int32(span.start))
  }

  /// The rows each `including(all:)` association prefetched for this row,
  /// by key (an empty array for a row that has none, and for a scope's view).
  public var prefetchedRows: [String: [Row]] {
    columns.spanIndex < 0 ? scoping?.prefetchedRows ?? [:] : [:]
  }
}
