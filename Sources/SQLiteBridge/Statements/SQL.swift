import CxxStdlib
import Foundation
import SQLiteBridgeCore

/// A statement written as a string literal whose interpolations are values,
/// names or lists, never SQL text by accident:
///
/// ```swift
/// let rows = try db.rows(literal: """
///   SELECT * FROM \(identifier: table)
///   WHERE title = \(title) AND id IN \(ids)
///   """)
/// ```
///
/// - `\(value)`: any `DatabaseValueConvertible` (an optional's `nil` is
///   NULL), bound as an argument to a `?`: a text, blob or number is never
///   spliced into the SQL.
/// - `\(identifier: name)`: a double-quoted identifier with every `"`
///   doubled, so any name stays a name. A name holding NUL (no SQL name can)
///   makes the literal fail, with `.misuse` naming it, when it is run.
/// - `\(list)`: a sequence of values becomes `(?, ?, ?)`, each bound; an
///   empty one becomes `()`, a list SQLite reads as matching nothing
///   (`x IN ()` is false, `x NOT IN ()` true).
/// - `\(literal: other)`: another `SQL`, its arguments kept in order.
/// - `\(sql: raw)`: raw text, unchecked: the one way to put text in as SQL.
///   Never give it what a user typed.
///
/// The text of the literal itself is SQL. A `String` variable never becomes
/// an `SQL` by itself: it is a value when interpolated, and SQL only through
/// `SQL(sql:arguments:)` or `\(sql:)`. Raw text may hold plain `?`
/// placeholders (with `init(sql:arguments:)`'s arguments); numbered and named
/// parameters are not renumbered when literals are joined, so keep to `?`.
///
/// The quoting and list rules are the core's (`sqlitebridge::SQL`, which C++
/// callers use directly); `Database.execute(literal:)`, `rows(literal:)`,
/// `firstRow(literal:)`, `makeStatement(literal:)`, `fetch(_:literal:)`,
/// `fetchOne(_:literal:)` and `ClusterDatabase` run it.
public struct SQL: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
  /// The text SQLite prepares: values appear only as `?`.
  public private(set) var sql: String
  /// The values bound to the text's parameters, in order.
  public private(set) var arguments: [DatabaseValue]
  /// Why the literal cannot run (an identifier held a NUL byte), from the
  /// core; nil when it can.
  private(set) var failure: DatabaseError?

  /// Raw SQL text, unchecked, with `arguments` bound to the plain `?`
  /// placeholders it holds, in order. Never give it what a user typed.
  public init(sql: String, arguments: [DatabaseValue] = []) {
    self.sql = sql
    self.arguments = arguments
    failure = nil
  }

  /// A literal without interpolations: its text is SQL.
  public init(stringLiteral value: String) {
    self.init(sql: value)
  }

  /// A literal with interpolations (see the type's documentation).
  public init(stringInterpolation: StringInterpolation) {
    sql = stringInterpolation.sql
    arguments = stringInterpolation.arguments
    failure = stringInterpolation.failure
  }

  /// The SQL text, followed by its arguments when it has any:
  /// `SELECT * FROM "notes" WHERE id = ? [1]`.
  public var description: String {
    arguments.isEmpty ? sql : "\(sql) [\(arguments.map(\.description).joined(separator: ", "))]"
  }

  /// The text to run, after checking the literal can run.
  ///
  /// - Throws: the core's `.misuse` error when an identifier held a NUL byte.
  @usableFromInline
  package func checkedSQL() throws -> String {
    if let failure {
      throw DatabaseError(
        code: failure.code, extendedCode: failure.extendedCode, message: failure.message, sql: sql)
    }
    return sql
  }

  /// Builds an `SQL` from a string literal's pieces.
  public struct StringInterpolation: StringInterpolationProtocol {
    var sql = ""
    var arguments: [DatabaseValue] = []
    var failure: DatabaseError?

    /// Room for the literal's text and about one argument per interpolation.
    public init(literalCapacity: Int, interpolationCount: Int) {
      sql.reserveCapacity(literalCapacity + interpolationCount)
      arguments.reserveCapacity(interpolationCount)
    }

    /// The literal's own text, taken as SQL.
    public mutating func appendLiteral(_ literal: String) {
      sql += literal
    }

    /// A `?` bound to `value` (NULL for an optional's `nil`).
    public mutating func appendInterpolation<Value: DatabaseValueConvertible>(_ value: Value) {
      sql += "?"
      arguments.append(value.databaseValue)
    }

    /// A `?` bound to `value`, or to NULL when it is nil (an overload of its
    /// own, so that interpolating an optional is not taken for a mistake).
    public mutating func appendInterpolation<Value: DatabaseValueConvertible>(_ value: Value?) {
      sql += "?"
      arguments.append(value?.databaseValue ?? .null)
    }

    /// A `?` bound to `data` as a blob (a `Data` is a value, not a list of
    /// bytes).
    public mutating func appendInterpolation(_ data: Data) {
      sql += "?"
      arguments.append(data.databaseValue)
    }

    /// `(?, ?, …)` with one `?` bound to each value, in order; `()` for an
    /// empty sequence.
    public mutating func appendInterpolation<Values: Sequence>(_ list: Values)
    where Values.Element: DatabaseValueConvertible {
      let values = list.map(\.databaseValue)
      sql += String(sqlitebridge.SQL.placeholderList(values.count))
      arguments += values
    }

    /// `name` as a double-quoted identifier, every `"` doubled. A name
    /// holding NUL makes the literal fail with `.misuse` when it is run.
    public mutating func appendInterpolation(identifier name: String) {
      var quoted = std.string()
      var error = sqlitebridge.Error()
      if !sqlitebridge.SQL.quoteIdentifier(std.string(name), &quoted, &error), failure == nil {
        failure = DatabaseError(error)
      }
      sql += String(quoted)
    }

    /// Another literal's text and arguments (after the ones so far).
    public mutating func appendInterpolation(literal: SQL) {
      sql += literal.sql
      arguments += literal.arguments
      if failure == nil { failure = literal.failure }
    }

    /// `raw` as SQL text, unchecked: the one way to put text in. Never give
    /// it what a user typed.
    public mutating func appendInterpolation(sql raw: String) {
      sql += raw
    }
  }
}
