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

  init(core: sqlitebridge.QueryRequest) {
    self.core = core
  }

  init(table: String) {
    core = sqlitebridge.QueryRequest.table(std.string(table))
  }

  typealias Building = sqlitebridge.interop.QueryBuilding

  /// Keeps the rows where `predicate` holds; successive filters are joined
  /// with AND.
  public func filter(_ predicate: some SQLExpressible) -> Self {
    Self(core: core.filter(predicate.sqlExpression.core))
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
    return Self(core: Building.filterKeys(core, values))
  }

  /// Sorts by `orderings` (`Column("date").desc`, or an expression for
  /// ascending), replacing any earlier order; none removes it.
  public func order(_ orderings: any SQLOrderingTerm...) -> Self {
    order(orderings)
  }

  /// `order(_:)` with the orderings in an array.
  public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
    Self(core: core.order(Self.list(orderings.map(\.orderingCore))))
  }

  /// The same rows in the opposite order: each ordering flipped; a request
  /// without an order is ordered by its primary key, descending.
  public func reversed() -> Self {
    Self(core: core.reversed())
  }

  /// At most `limit` rows (a negative limit: no limit), after skipping
  /// `offset`; replaces an earlier limit.
  public func limit(_ limit: Int, offset: Int? = nil) -> Self {
    Self(core: Building.limit(core, Int64(limit), offset != nil, Int64(offset ?? 0)))
  }

  /// The result columns (`Column`s, expressions, `forKey` names,
  /// `AllColumns()`), replacing the selection and annotations.
  public func select(_ selection: any SQLSelectable...) -> Self {
    select(selection)
  }

  /// `select(_:)` with the selection in an array.
  public func select(_ selection: [any SQLSelectable]) -> Self {
    Self(core: core.select(Self.list(selection.map(\.selectionCore))))
  }

  /// `select(selection…)`, decoding rows as `type`: `Note.select(Column("title"),
  /// as: String.self)`. Keeps the request's other parts and replaces its
  /// selection and annotations.
  public func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
    QueryInterfaceRequest<T>(core: select(selection).core)
  }

  /// SELECT DISTINCT.
  public func distinct() -> Self {
    Self(core: core.distinct())
  }

  /// GROUP BY `expressions`, replacing an earlier grouping.
  public func group(_ expressions: any SQLExpressible...) -> Self {
    group(expressions)
  }

  /// `group(_:)` with the expressions in an array.
  public func group(_ expressions: [any SQLExpressible]) -> Self {
    Self(core: core.group(Self.list(expressions.map(\.sqlExpression.core))))
  }

  /// HAVING `predicate`; successive calls are joined with AND.
  public func having(_ predicate: some SQLExpressible) -> Self {
    Self(core: core.having(predicate.sqlExpression.core))
  }

  /// Keeps the rows of the (FTS5) table that match `pattern` (bound); nil
  /// matches no row. SQLite reports a table that is not full-text when the
  /// request runs.
  public func matching(_ pattern: FTS5Pattern?) -> Self {
    Self(core: Building.matching(core, pattern != nil, std.string(pattern?.rawPattern ?? "")))
  }

  /// Adds `selection` after the request's own columns (every column of its
  /// table unless it selects some): `annotated(with: (Column("score") *
  /// 2).forKey("double"))`.
  public func annotated(with selection: any SQLSelectable...) -> Self {
    annotated(with: selection)
  }

  /// `annotated(with:)` with the selection in an array.
  public func annotated(with selection: [any SQLSelectable]) -> Self {
    Self(core: core.annotated(Self.list(selection.map(\.selectionCore))))
  }

  /// The same request (same SQL) decoding its rows as `type`.
  public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
    QueryInterfaceRequest<T>(core: core)
  }

  static func list(_ expressions: [sqlitebridge.Expression]) -> sqlitebridge.interop.ExpressionList {
    var list = sqlitebridge.interop.ExpressionList()
    list.reserve(expressions.count)
    for expression in expressions { _ = Building.append(&list, expression) }
    return list
  }
}
