import SQLiteBridgeCore

/// What a request with associations adds to its rows: where each included
/// association's columns are (from the core), and the prefetched rows of
/// the row being read. One per fetch; rows of the fetch share it.
@usableFromInline
final class RowScoping {
  /// One included association's columns in the row.
  struct Span {
    let key: String
    let start: Int
    let count: Int
  }

  let spans: [Span]
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

  func span(named key: String) -> Span? { spans.first { $0.key == key } }

  /// The column table of `span`'s columns (made once per scope and fetch).
  func columnTable(_ span: Span, names: [String]) -> ColumnTable {
    if let table = tables[span.key] { return table }
    let table = ColumnTable(names: Array(names[span.start..<span.start + span.count]))
    tables[span.key] = table
    return table
  }
  private var tables: [String: ColumnTable] = [:]

  /// Whether `span` found nothing in the current row of `statement` (whose
  /// column `offset` is the row's first): every one of its columns is NULL,
  /// as an optional association that matched no row leaves them. The one
  /// test `scopes`, `RowView.scope(_:)` and the `Decodable` decoder apply.
  static func isEmpty(_ span: Span, in statement: UnsafePointer<sqlitebridge.Statement>, offset: Int32 = 0) -> Bool {
    let start = offset &+ Int32(span.start)
    return (0..<Int32(span.count)).allSatisfy { statement.pointee.column(start &+ $0).type == .Null }
  }

  /// The scopes of the current row of `statement` (named by `names`), each
  /// a copied `Row`; a scope that found nothing (`isEmpty`) is left out.
  func scopes(_ statement: UnsafePointer<sqlitebridge.Statement>, names: [String]) -> [String: Row] {
    var result: [String: Row] = [:]
    for span in spans where !Self.isEmpty(span, in: statement) {
      let values = (span.start..<span.start + span.count).map { DatabaseValue(statement.pointee.column(Int32($0))) }
      result[span.key] = Row(columnNames: Array(names[span.start..<span.start + span.count]), values: values)
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
    return scoping.scopes(statement, names: columns.names)
  }

  /// The columns of the included association `key`, as a view of the same
  /// row, for a record's `init(row:)` to build the included record:
  /// `author = try row.scope("author").map(Author.init(row:))`. Nil when
  /// the request included no association under `key`, or when an optional
  /// one found nothing (every column NULL). Valid as long as this view.
  public func scope(_ key: String) -> RowView? {
    guard offset == 0, let scoping, let span = scoping.span(named: key) else { return nil }
    if RowScoping.isEmpty(span, in: statement) { return nil }
    return RowView(
      statement: statement, columns: scoping.columnTable(span, names: columns.names), offset: Int32(span.start))
  }

  /// The rows each `including(all:)` association prefetched for this row,
  /// by key (an empty array for a row that has none).
  public var prefetchedRows: [String: [Row]] { scoping?.prefetchedRows ?? [:] }
}
