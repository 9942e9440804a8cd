import SQLiteBridgeCore

// SQLite's aggregate and scalar functions for requests. An aggregate where
// SQLite allows none (a filter) fails when the request runs ("misuse of
// aggregate"). `min`, `max` and `abs` are disfavored so that Swift's own
// keep winning on plain numbers.

private func call(_ function: sqlitebridge.interop.QueryFunction, _ argument: some SQLExpressible) -> SQLExpression {
  SQLExpression(sqlitebridge.interop.QueryBuilding.function(function, argument.sqlExpression.core))
}

/// `COUNT(expression)`: the rows where it is not NULL.
public func count(_ expression: some SQLExpressible) -> SQLExpression { call(.Count, expression) }

/// `COUNT(DISTINCT expression)`.
public func count(distinct expression: some SQLExpressible) -> SQLExpression { call(.CountDistinct, expression) }

/// `SUM(e)`: NULL over no row or only NULLs; fails on integer overflow
/// when the request runs.
public func sum(_ e: some SQLExpressible) -> SQLExpression { call(.Sum, e) }

/// `TOTAL(e)`: a real, 0.0 over no row.
public func total(_ e: some SQLExpressible) -> SQLExpression { call(.Total, e) }

/// `MIN(e)` (the aggregate).
@_disfavoredOverload
public func min(_ e: some SQLExpressible) -> SQLExpression { call(.Min, e) }

/// `MAX(e)` (the aggregate).
@_disfavoredOverload
public func max(_ e: some SQLExpressible) -> SQLExpression { call(.Max, e) }

/// `AVG(e)`: a real, NULL over no row.
public func average(_ e: some SQLExpressible) -> SQLExpression { call(.Average, e) }

/// `LENGTH(e)`: characters of text, bytes of a blob.
public func length(_ e: some SQLExpressible) -> SQLExpression { call(.Length, e) }

/// `ABS(e)`: fails when the request runs for the smallest integer.
@_disfavoredOverload
public func abs(_ e: some SQLExpressible) -> SQLExpression { call(.Abs, e) }

/// `COUNT(*)`: every row (`count(AllColumns())`).
public func count(_ all: AllColumns) -> SQLExpression {
  SQLExpression(sqlitebridge.interop.QueryBuilding.countAll())
}

/// One `SET "column" = value` of `updateAll(_:_:)`, made by
/// `Column.set(to:)`.
public struct ColumnAssignment: Sendable {
  let column: String
  let value: SQLExpression
}

extension Column {
  /// `SET "name" = value` for `updateAll(_:_:)`: `Column("score").set(to:
  /// Column("score") + 1)`.
  public func set(to value: some SQLExpressible) -> ColumnAssignment {
    ColumnAssignment(column: name, value: value.sqlExpression)
  }
}
