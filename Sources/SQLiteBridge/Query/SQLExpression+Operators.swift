import SQLiteBridgeCore

// The operators of the query interface. Each side is any SQLExpressible
// (columns, values, expressions); each call makes one core node, and the
// core renders it with SQLite's precedence. The generic forms are
// disfavored so that Swift's own operators keep winning on plain values
// (`1 + 2` stays an Int, `optional == 5` a Bool); the concrete forms on
// `SQLExpression` and `Column` keep type checking fast and make
// `Column == Column` build SQL.

extension SQLExpression {
  typealias Operator = sqlitebridge.interop.QueryOperator

  /// `lhs op rhs` as one core node.
  static func binary(_ op: Operator, _ lhs: some SQLExpressible, _ rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(sqlitebridge.interop.QueryBuilding.binary(op, lhs.sqlExpression.core, rhs.sqlExpression.core))
  }
}

/// `lhs = rhs`; with NULL on a side (`== nil`), `lhs IS NULL`.
@_disfavoredOverload
public func == (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Equal, lhs, rhs)
}

/// `lhs = rhs`; with NULL on a side (`== nil`), `lhs IS NULL`.
public func == (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Equal, lhs, rhs)
}

/// `lhs = rhs`; with NULL on a side (`== nil`), `lhs IS NULL`.
public func == (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Equal, lhs, rhs)
}

/// `lhs IS NULL`.
public func == (lhs: some SQLExpressible, rhs: _OptionalNilComparisonType) -> SQLExpression {
  SQLExpression.binary(.Equal, lhs, DatabaseValue.null)
}

/// `rhs IS NULL`.
public func == (lhs: _OptionalNilComparisonType, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Equal, DatabaseValue.null, rhs)
}

/// `lhs <> rhs`; with NULL on a side (`!= nil`), `lhs IS NOT NULL`.
@_disfavoredOverload
public func != (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.NotEqual, lhs, rhs)
}

/// `lhs <> rhs`; with NULL on a side (`!= nil`), `lhs IS NOT NULL`.
public func != (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.NotEqual, lhs, rhs)
}

/// `lhs <> rhs`; with NULL on a side (`!= nil`), `lhs IS NOT NULL`.
public func != (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.NotEqual, lhs, rhs)
}

/// `lhs IS NOT NULL`.
public func != (lhs: some SQLExpressible, rhs: _OptionalNilComparisonType) -> SQLExpression {
  SQLExpression.binary(.NotEqual, lhs, DatabaseValue.null)
}

/// `rhs IS NOT NULL`.
public func != (lhs: _OptionalNilComparisonType, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.NotEqual, DatabaseValue.null, rhs)
}

/// `lhs < rhs`.
@_disfavoredOverload
public func < (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Less, lhs, rhs)
}

/// `lhs < rhs`.
public func < (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Less, lhs, rhs)
}

/// `lhs < rhs`.
public func < (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Less, lhs, rhs)
}

/// `lhs <= rhs`.
@_disfavoredOverload
public func <= (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.LessEqual, lhs, rhs)
}

/// `lhs <= rhs`.
public func <= (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.LessEqual, lhs, rhs)
}

/// `lhs <= rhs`.
public func <= (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.LessEqual, lhs, rhs)
}

/// `lhs > rhs`.
@_disfavoredOverload
public func > (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Greater, lhs, rhs)
}

/// `lhs > rhs`.
public func > (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Greater, lhs, rhs)
}

/// `lhs > rhs`.
public func > (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Greater, lhs, rhs)
}

/// `lhs >= rhs`.
@_disfavoredOverload
public func >= (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.GreaterEqual, lhs, rhs)
}

/// `lhs >= rhs`.
public func >= (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.GreaterEqual, lhs, rhs)
}

/// `lhs >= rhs`.
public func >= (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.GreaterEqual, lhs, rhs)
}

/// `lhs AND rhs` (SQL's three-valued logic; both sides always rendered).
@_disfavoredOverload
public func && (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.And, lhs, rhs)
}

/// `lhs AND rhs` (SQL's three-valued logic; both sides always rendered).
public func && (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.And, lhs, rhs)
}

/// `lhs OR rhs` (SQL's three-valued logic).
@_disfavoredOverload
public func || (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Or, lhs, rhs)
}

/// `lhs OR rhs` (SQL's three-valued logic).
public func || (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Or, lhs, rhs)
}

/// `lhs + rhs`.
@_disfavoredOverload
public func + (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Add, lhs, rhs)
}

/// `lhs + rhs`.
public func + (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Add, lhs, rhs)
}

/// `lhs + rhs`.
public func + (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Add, lhs, rhs)
}

/// `lhs - rhs`.
@_disfavoredOverload
public func - (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Subtract, lhs, rhs)
}

/// `lhs - rhs`.
public func - (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Subtract, lhs, rhs)
}

/// `lhs - rhs`.
public func - (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Subtract, lhs, rhs)
}

/// `lhs * rhs`.
@_disfavoredOverload
public func * (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Multiply, lhs, rhs)
}

/// `lhs * rhs`.
public func * (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Multiply, lhs, rhs)
}

/// `lhs * rhs`.
public func * (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Multiply, lhs, rhs)
}

/// `lhs / rhs` (SQLite's: integer division of integers; NULL on division by zero).
@_disfavoredOverload
public func / (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  SQLExpression.binary(.Divide, lhs, rhs)
}

/// `lhs / rhs` (SQLite's: integer division of integers; NULL on division by zero).
public func / (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression.binary(.Divide, lhs, rhs)
}

/// `lhs / rhs` (SQLite's: integer division of integers; NULL on division by zero).
public func / (lhs: Column, rhs: Column) -> SQLExpression {
  SQLExpression.binary(.Divide, lhs, rhs)
}

/// `NOT operand`.
@_disfavoredOverload
public prefix func ! (operand: some SQLExpressible) -> SQLExpression {
  SQLExpression(sqlitebridge.interop.QueryBuilding.logicalNot(operand.sqlExpression.core))
}

/// `-operand` (rendered `-(…)` around anything but an atom, never `--`).
@_disfavoredOverload
public prefix func - (operand: some SQLExpressible) -> SQLExpression {
  SQLExpression(sqlitebridge.interop.QueryBuilding.negated(operand.sqlExpression.core))
}
