import CxxStdlib
import SQLiteBridgeCore

// Fetching a request with associations: the core says where each included
// scope's columns are and renders each `including(all:)` association's one
// prefetch query; Swift steps them, groups the prefetched rows by their
// origin's key, and hands each row its scopes and prefetched rows.

extension QueryInterfaceRequest {
  /// One `including(all:)` association's fetched rows, grouped by the
  /// values of the origin columns (`keyColumns`) they belong to.
  struct PrefetchedGroups {
    let key: String
    let keyColumns: [String]
    var rows: [[DatabaseValue]: [Row]] = [:]
    var values: [[DatabaseValue]: [Any]] = [:]
  }

  @usableFromInline
  var hasAssociations: Bool { scoped || !prefetches.isEmpty }

  /// The scopes of this request's rows, from the core.
  func makeScoping(_ db: Database) throws -> RowScoping {
    var spans: [RowScoping.Span] = []
    if scoped {
      var list = sqlitebridge.interop.ScopeSpanList()
      guard Building.scopes(&db.core, core, &list) else { throw db.lastError }
      for index in 0..<list.size() {
        let span = list[index]
        spans.append(
          RowScoping.Span(
            key: String(span.key), start: Int(span.start), count: Int(span.count), parent: Int(span.parent)))
      }
    }
    return RowScoping(spans: spans, prefetchKeys: prefetches.map(\.key))
  }

  /// Runs every prefetch query (one per `including(all:)` association).
  func prefetchAll(_ db: Database, _ kind: sqlitebridge.interop.RequestStatement) throws -> [PrefetchedGroups] {
    try prefetches.enumerated().map { index, prefetch in
      var statement = sqlitebridge.Statement()
      var keyColumns = sqlitebridge.interop.StringList()
      guard Building.lendPrefetch(&db.core, core, kind, index, &statement, &keyColumns) else { throw db.lastError }
      var groups = PrefetchedGroups(
        key: prefetch.key, keyColumns: (0..<keyColumns.size()).map { String(keyColumns[$0]) })
      let keyCount = groups.keyColumns.count
      try db.forEachRow(of: &statement) { row in
        let own = row.count - keyCount
        let key = (own..<row.count).map { row[$0] }
        groups.rows[key, default: []].append(
          Row(columnNames: Array(row.columns.names.prefix(own)), values: (0..<own).map { row[$0] }))
        if let decode = prefetch.decode { groups.values[key, default: []].append(try decode(row)) }
      }
      return groups
    }
  }

  /// Every row of `kind` built by `build`, each with its scopes and
  /// prefetched rows.
  @usableFromInline
  func fetchWithAssociations<T>(
    _ db: Database, _ kind: sqlitebridge.interop.RequestStatement, _ build: (RowView) throws -> T
  ) throws -> [T] {
    // Lent first: the core opens the read transaction the prefetches and
    // this statement then share (one snapshot), ended by its release.
    var statement = try lend(db, kind)
    let scoping = try makeScoping(db)
    defer { scoping.endFetch() }
    let groups = try prefetchAll(db, kind)
    var result: [T] = []
    try withUnsafeMutablePointer(to: &statement) { pointer in
      guard try db.step(&pointer.pointee) else { return }
      // The prefetches' keys the request's selection lacks are trailing
      // columns the core adds (named for the purpose): read here, hidden
      // from the rows.
      let all = ColumnTable(pointer.pointee)
      let hidden = groups.reduce(0) { $0 + $1.keyColumns.filter { Building.isAddedKeyColumn(std.string($0)) }.count }
      let columns = hidden == 0 ? all : ColumnTable(names: Array(all.names.dropLast(hidden)))
      columns.scoping = scoping
      scoping.names = columns.names
      let row = RowView(statement: UnsafePointer(pointer), columns: columns)
      let keyIndexes = try groups.map { group in
        try group.keyColumns.map { name in
          guard let index = all.index(of: name) else {
            throw DatabaseError(
              code: ResultCode.misuse.rawValue,
              message: "including(all:) of \"\(group.key)\" found no column \"\(name)\" in the request's rows")
          }
          return Int32(index)
        }
      }
      repeat {
        for (group, indexes) in zip(groups, keyIndexes) {
          let key = indexes.map { DatabaseValue(pointer.pointee.column($0)) }
          scoping.prefetchedRows[group.key] = group.rows[key] ?? []
          scoping.prefetchedValues[group.key] = group.values[key] ?? []
        }
        result.append(try build(row))
      } while try db.step(&pointer.pointee)
    }
    return result
  }
}
