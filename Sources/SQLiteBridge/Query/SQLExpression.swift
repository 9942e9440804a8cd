import CxxStdlib
import Foundation
import SQLiteBridgeCore

/// Anything that stands for an SQL expression in a query request: a
/// `Column`, a value (every `DatabaseValueConvertible`, and optionals of
/// them), or an `SQLExpression` built from them with operators and
/// functions. The core renders it (values bound, names quoted).
public protocol SQLExpressible {
  /// The expression `self` stands for.
  var sqlExpression: SQLExpression { get }
}

/// What may stand in a request's selection (`select`, `annotated(with:)`):
/// expressions, `AllColumns()`, and expressions named with `forKey(_:)`.
/// Another type conforming to it makes the request's fetches throw
/// `.misuse` naming the type.
public protocol SQLSelectable {}

/// What may stand in `order(_:)`: an expression (ascending) or an
/// `SQLOrdering` (`Column("date").desc`). Another type conforming to it
/// makes the request's fetches throw `.misuse` naming the type.
public protocol SQLOrderingTerm {}

/// An SQL expression made by the core's query compiler from typed pieces.
/// A value: copies share the core's immutable node, which any thread may
/// read. Building one never touches a database and never fails; a misplaced
/// piece (an aggregate in a filter) fails when the request runs, with
/// SQLite's error.
public struct SQLExpression: SQLExpressible, SQLSelectable, SQLOrderingTerm, @unchecked Sendable {
  /// The core's expression (an immutable, reference-counted node).
  let core: sqlitebridge.Expression

  init(_ core: sqlitebridge.Expression) {
    self.core = core
  }

  /// The expression itself.
  public var sqlExpression: SQLExpression { self }

  /// `value`, bound (NULL renders as the keyword).
  init(value: DatabaseValue) {
    typealias Building = sqlitebridge.interop.QueryBuilding
    switch value {
    case .null: core = Building.null()
    case .integer(let integer): core = Building.integer(integer)
    case .real(let real): core = Building.real(real)
    case .text(var text): core = text.withUTF8 { Building.text($0.baseAddress, $0.count) }
    case .blob(let data): core = data.withUnsafeBytes { Building.blob($0.baseAddress, $0.count) }
    }
  }
}

extension Optional: SQLExpressible where Wrapped: DatabaseValueConvertible {}

extension DatabaseValueConvertible {
  /// The value, bound to a `?` (NULL renders as the keyword, so that
  /// `== nil` becomes IS NULL).
  public var sqlExpression: SQLExpression { SQLExpression(value: databaseValue) }
}

/// A column of the request's table, by name (quoted by the core, so any
/// name is a name). In a request that joins other tables it is qualified
/// with the request's table; in an association's `filter` or `order`, with
/// the association's table.
///
/// `Column("a") == Column("b")` builds SQL, like every operator on columns;
/// Equatable's `==` (returning `Bool`) applies only where a `Bool` is
/// wanted.
public struct Column: SQLExpressible, SQLSelectable, SQLOrderingTerm, Sendable, Hashable {
  /// The column's name as the table declares it.
  public var name: String

  /// The column called `name`.
  public init(_ name: String) {
    self.name = name
  }

  /// `"name"` (qualified where the request qualifies its columns).
  public var sqlExpression: SQLExpression {
    var name = name
    return SQLExpression(name.withUTF8 { sqlitebridge.interop.QueryBuilding.column($0.baseAddress, $0.count) })
  }

  /// Whether both name the same column text (Equatable's meaning; disfavored
  /// so that `Column == Column` in a request builds SQL).
  @_disfavoredOverload
  public static func == (lhs: Column, rhs: Column) -> Bool {
    lhs.name == rhs.name
  }
}

/// Every column of the request's table (`*`, qualified in a joined
/// request), for `select(_:)`.
public struct AllColumns: SQLSelectable, Sendable {
  /// `*`.
  public init() {}

  var sqlExpression: SQLExpression { SQLExpression(sqlitebridge.interop.QueryBuilding.allColumns()) }
}

/// An expression with a direction, for `order(_:)`: made by `asc`, `desc`,
/// `ascNullsLast` and `descNullsFirst`. `reversed()` flips it.
public struct SQLOrdering: SQLOrderingTerm, Sendable {
  let expression: SQLExpression
}

/// An expression named in the result (`expr AS "key"`), from `forKey(_:)`.
struct SQLAliasedExpression: SQLSelectable, Sendable {
  let expression: SQLExpression
}

extension SQLExpressible {
  /// `self LIKE pattern` (ASCII case-insensitive; `%` and `_` wildcards).
  public func like(_ pattern: some SQLExpressible) -> SQLExpression {
    SQLExpression.binary(.Like, self, pattern)
  }

  /// `self ASC`.
  public var asc: SQLOrdering { ordering(.Asc) }
  /// `self DESC`.
  public var desc: SQLOrdering { ordering(.Desc) }
  /// `self ASC NULLS LAST`.
  public var ascNullsLast: SQLOrdering { ordering(.AscNullsLast) }
  /// `self DESC NULLS FIRST`.
  public var descNullsFirst: SQLOrdering { ordering(.DescNullsFirst) }

  /// `self AS "key"`: a result column named `key`, for `select(_:)` and
  /// `annotated(with:)` (read it with `row["key"]` or a property of that
  /// name).
  public func forKey(_ key: String) -> any SQLSelectable {
    SQLAliasedExpression(
      expression: SQLExpression(sqlitebridge.interop.QueryBuilding.aliased(sqlExpression.core, std.string(key))))
  }

  private func ordering(_ kind: sqlitebridge.interop.QueryOrdering) -> SQLOrdering {
    SQLOrdering(expression: SQLExpression(sqlitebridge.interop.QueryBuilding.ordering(kind, sqlExpression.core)))
  }
}

extension Sequence where Element: SQLExpressible {
  /// `expression IN (…)`, each element bound (or rendered, for columns and
  /// expressions); an empty sequence matches nothing.
  public func contains(_ expression: some SQLExpressible) -> SQLExpression {
    var list = sqlitebridge.interop.ExpressionList()
    for element in self {
      _ = sqlitebridge.interop.QueryBuilding.append(&list, element.sqlExpression.core)
    }
    return SQLExpression(sqlitebridge.interop.QueryBuilding.isIn(expression.sqlExpression.core, list))
  }
}

extension SQLSelectable {
  /// The core's expression for a selection term.
  var selectionCore: sqlitebridge.Expression {
    switch self {
    case let expression as SQLExpressible: return expression.sqlExpression.core
    case let aliased as SQLAliasedExpression: return aliased.expression.core
    case let all as AllColumns: return all.sqlExpression.core
    default:
      return sqlitebridge.interop.QueryBuilding.unsupported(
        std.string("\(type(of: self)) is not a selection the query interface can render (use SQLExpressible)"))
    }
  }
}

extension SQLOrderingTerm {
  /// The core's expression for an ordering term.
  var orderingCore: sqlitebridge.Expression {
    switch self {
    case let ordering as SQLOrdering: return ordering.expression.core
    case let expression as SQLExpressible: return expression.sqlExpression.core
    default:
      return sqlitebridge.interop.QueryBuilding.unsupported(
        std.string("\(type(of: self)) is not an ordering the query interface can render (use SQLExpressible)"))
    }
  }
}
