import CxxStdlib
import SQLiteBridgeCore

/// A request for rows of one table, built from typed pieces and rendered by
/// the core's query compiler (the same one C++ callers use), whose rows
/// decode as `RowDecoder`: a record type, `Row`, or a value type (the first
/// column).
///
/// ```swift
/// let notes = try Note.filter(Column("pinned") == true)
///   .order(Column("date").desc)
///   .limit(20)
///   .fetchAll(db)
/// ```
///
/// Requests are values: each method returns a new request and leaves this
/// one as it was. Building one never touches a database and never fails;
/// every value is bound and every name quoted by the core. Running one
/// (`fetchAll`, `fetchOne`, `fetchCount`, `deleteAll`, `updateAll`,
/// `makeSQL`) reads the schema only for what it decides (the primary key of
/// `filter(key:)`, `reversed()` or a limited delete) and throws
/// `DatabaseError`: SQLite's "no such table: T" for a table that does not
/// exist, `.misuse` for a piece out of place (naming it), SQLite's own
/// errors for SQL it refuses (an aggregate in a filter, an unknown
/// function).
public struct QueryInterfaceRequest<RowDecoder>: @unchecked Sendable {
  /// The core's request (immutable; copies share it).
  let core: sqlitebridge.QueryRequest
  /// Whether the request includes an association's columns (its rows have
  /// scopes).
  let scoped: Bool
  /// Its `including(all:)` associations, in order.
  let prefetches: [RequestPrefetch]

  init(core: sqlitebridge.QueryRequest, scoped: Bool = false, prefetches: [RequestPrefetch] = []) {
    self.core = core
    self.scoped = scoped
    self.prefetches = prefetches
  }

  init(table: String) {
    self.init(core: sqlitebridge.QueryRequest.table(std.string(table)))
  }

  /// This request with `core` (its associations kept).
  func with(_ core: sqlitebridge.QueryRequest) -> Self {
    Self(core: core, scoped: scoped, prefetches: prefetches)
  }

  typealias Building = sqlitebridge.interop.QueryBuilding

  /// Keeps the rows where `predicate` holds; successive filters are joined
  /// with AND.
  public func filter(_ predicate: some SQLExpressible) -> Self {
    with(core.filter(predicate.sqlExpression.core))
  }

  /// Keeps the row whose primary key is `key` (the key column read from the
  /// schema when the request runs; `rowid` for a table without one). A nil
  /// key matches no row.
  public func filter(key: some DatabaseValueConvertible) -> Self {
    filter(keys: CollectionOfOne(key))
  }

  /// Keeps the rows whose primary key is one of `keys` (none for an empty
  /// sequence). A table whose primary key has several columns makes the
  /// request throw `.misuse` naming them when it runs.
  public func filter(keys: some Sequence<some DatabaseValueConvertible>) -> Self {
    var values = sqlitebridge.interop.ValueList()
    for key in keys {
      _ = Building.appendKey(&values, SQLExpression(value: key.databaseValue).core)
    }
    return with(Building.filterKeys(core, values))
  }

  /// Sorts by `orderings` (`Column("date").desc`, or an expression for
  /// ascending), replacing any earlier order; none removes it.
  public func order(_ orderings: any SQLOrderingTerm...) -> Self {
    order(orderings)
  }

  /// `order(_:)` with the orderings in an array.
  public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
    with(core.order(Self.list(orderings.map(\.orderingCore))))
  }

  /// The same rows in the opposite order: each ordering flipped; a request
  /// without an order is ordered by its primary key, descending.
  public func reversed() -> Self {
    with(core.reversed())
  }

  /// At most `limit` rows (a negative limit: no limit), after skipping
  /// `offset`; replaces an earlier limit.
  public func limit(_ limit: Int, offset: Int? = nil) -> Self {
    with(Building.limit(core, Int64(limit), offset != nil, Int64(offset ?? 0)))
  }

  /// The result columns (`Column`s, expressions, `forKey` names,
  /// `AllColumns()`), replacing the selection and annotations.
  public func select(_ selection: any SQLSelectable...) -> Self {
    select(selection)
  }

  /// `select(_:)` with the selection in an array.
  public func select(_ selection: [any SQLSelectable]) -> Self {
    with(core.select(Self.list(selection.map(\.selectionCore))))
  }

  /// `select(selection…)`, decoding rows as `type`: `Note.select(Column("title"),
  /// as: String.self)`. Keeps the request's other parts and replaces its
  /// selection and annotations.
  public func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
    QueryInterfaceRequest<T>(core: select(selection).core, scoped: scoped, prefetches: prefetches)
  }

  /// SELECT DISTINCT.
  public func distinct() -> Self {
    with(core.distinct())
  }

  /// GROUP BY `expressions`, replacing an earlier grouping.
  public func group(_ expressions: any SQLExpressible...) -> Self {
    group(expressions)
  }

  /// `group(_:)` with the expressions in an array.
  public func group(_ expressions: [any SQLExpressible]) -> Self {
    with(core.group(Self.list(expressions.map(\.sqlExpression.core))))
  }

  /// HAVING `predicate`; successive calls are joined with AND.
  public func having(_ predicate: some SQLExpressible) -> Self {
    with(core.having(predicate.sqlExpression.core))
  }

  /// Keeps the rows of the (FTS5) table that match `pattern` (bound); nil
  /// matches no row. SQLite reports a table that is not full-text when the
  /// request runs.
  public func matching(_ pattern: FTS5Pattern?) -> Self {
    with(Building.matching(core, pattern != nil, std.string(pattern?.rawPattern ?? "")))
  }

  /// Adds `selection` after the request's own columns (every column of its
  /// table unless it selects some): `annotated(with: (Column("score") *
  /// 2).forKey("double"))`.
  public func annotated(with selection: any SQLSelectable...) -> Self {
    annotated(with: selection)
  }

  /// `annotated(with:)` with the selection in an array.
  public func annotated(with selection: [any SQLSelectable]) -> Self {
    with(core.annotated(Self.list(selection.map(\.selectionCore))))
  }

  /// The same request (same SQL) decoding its rows as `type`.
  public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
    QueryInterfaceRequest<T>(core: core, scoped: scoped, prefetches: prefetches)
  }

  // MARK: Associations

  /// Joins `association` (INNER JOIN) and selects its columns after the
  /// request's, as the row's scope `association.key`: rows without a match
  /// are left out.
  public func including<A: Association>(required association: A) -> Self where A.Origin == RowDecoder {
    Self(
      core: core.including(association.associationCore.core, .IncludingRequired), scoped: true, prefetches: prefetches)
  }

  /// Joins `association` (LEFT JOIN) and selects its columns: rows without
  /// a match are kept (their scope is absent; an optional property is nil).
  public func including<A: Association>(optional association: A) -> Self where A.Origin == RowDecoder {
    Self(
      core: core.including(association.associationCore.core, .IncludingOptional), scoped: true, prefetches: prefetches)
  }

  /// Fetches the rows of the to-many `association` for every row of the
  /// request with one more query (not one per row), as the row's prefetched
  /// rows `association.key` (an array property of a `Decodable` record);
  /// `fetchOne` fetches them for its one row. The request's rows and the
  /// prefetched ones are one snapshot. The key they match on need not be
  /// selected: the request then selects it after every other column, and
  /// its rows do not show it. An association that is not `hasMany` throws
  /// `.misuse` when the request runs.
  public func including<A: Association>(all association: A) -> Self where A.Origin == RowDecoder {
    let decode: ((RowView) throws -> Any)? = (A.Destination.self as? any FetchableRecord.Type).map { type in
      { row in try type.init(row: row) }
    }
    return Self(
      core: core.including(association.associationCore.core, .IncludingAll), scoped: scoped,
      prefetches: prefetches + [RequestPrefetch(key: association.key, decode: decode)])
  }

  /// Joins `association` (INNER JOIN) without selecting it: a filter on the
  /// associated table.
  public func joining<A: Association>(required association: A) -> Self where A.Origin == RowDecoder {
    Self(
      core: core.including(association.associationCore.core, .JoiningRequired),
      scoped: scoped || association.associationCore.selectsNested, prefetches: prefetches)
  }

  /// Joins `association` (LEFT JOIN) without selecting it.
  public func joining<A: Association>(optional association: A) -> Self where A.Origin == RowDecoder {
    Self(
      core: core.including(association.associationCore.core, .JoiningOptional),
      scoped: scoped || association.associationCore.selectsNested, prefetches: prefetches)
  }

  static func list(_ expressions: [sqlitebridge.Expression]) -> sqlitebridge.interop.ExpressionList {
    var list = sqlitebridge.interop.ExpressionList()
    list.reserve(expressions.count)
    for expression in expressions { _ = Building.append(&list, expression) }
    return list
  }
}

/// An `including(all:)` association of a request: its key, and how its
/// rows decode (nil when its destination is not a `FetchableRecord`).
struct RequestPrefetch: @unchecked Sendable {
  let key: String
  let decode: ((RowView) throws -> Any)?
}
