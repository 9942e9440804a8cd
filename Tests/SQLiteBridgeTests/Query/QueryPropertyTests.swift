import Foundation
import SQLiteBridge
import Testing

/// Random requests (filters over random expressions, orderings, limits,
/// joins through an association) return the rows, and count, of the same
/// query written by hand. Mirrors QueryProperty in
/// Tests/CxxTests/Query/QueryFetchTests.cpp; seeded, so a failure repeats.
@Suite("Query interface properties")
struct QueryPropertyTests {
  enum P: TableRecord { static let databaseTableName = "p" }
  enum R: TableRecord {
    static let databaseTableName = "r"
    static let parent = belongsTo(P.self, key: "parent")
  }

  /// An expression and the same expression as hand-written SQL.
  typealias Built = (expression: SQLExpression, sql: String)

  static func number(_ random: inout SeededGenerator, _ depth: Int) -> Built {
    switch depth <= 0 ? random.pick(3) : random.pick(5) {
    case 0: return (Column("a").sqlExpression, "r.a")
    case 1: return (Column("b").sqlExpression, "r.b")
    case 2:
      let literal = random.pick(11) - 5
      return (literal.sqlExpression, "(\(literal))")
    case 3:
      let (left, leftSQL) = number(&random, depth - 1)
      let (right, rightSQL) = number(&random, depth - 1)
      switch random.pick(4) {
      case 0: return (left + right, "(\(leftSQL) + \(rightSQL))")
      case 1: return (left - right, "(\(leftSQL) - \(rightSQL))")
      case 2: return (left * right, "(\(leftSQL) * \(rightSQL))")
      default: return (left / right, "(\(leftSQL) / \(rightSQL))")
      }
    default:
      let (operand, operandSQL) = number(&random, depth - 1)
      if random.pick(2) == 0 { return (-operand, "(-\(operandSQL))") }
      return (abs(operand), "abs(\(operandSQL))")
    }
  }

  static func predicate(_ random: inout SeededGenerator, _ depth: Int) -> Built {
    let choice = depth <= 0 ? random.pick(5) : random.pick(8)
    switch choice {
    case 0:
      let (left, leftSQL) = number(&random, depth)
      let (right, rightSQL) = number(&random, depth)
      let ops: [(SQLExpression, String)] = [
        (left == right, "="), (left != right, "<>"), (left < right, "<"), (left <= right, "<="),
        (left > right, ">"), (left >= right, ">="),
      ]
      let (expression, text) = ops[random.pick(ops.count)]
      return (expression, "(\(leftSQL) \(text) \(rightSQL))")
    case 1:
      let (operand, operandSQL) = number(&random, depth)
      if random.pick(2) == 0 { return (operand == nil, "(\(operandSQL) IS NULL)") }
      return (operand != nil, "(\(operandSQL) IS NOT NULL)")
    case 2:
      let pattern = ["x%", "%y", "_", "%", "X_"][random.pick(5)]
      return (Column("c").like(pattern), "(r.c LIKE '\(pattern)')")
    case 3:
      let values = (0..<random.pick(4)).map { _ in random.pick(11) - 5 }
      return (values.contains(Column("a")), "(r.a IN (\(values.map(String.init).joined(separator: ", "))))")
    case 4:
      return (Column("c") == "xy", "(r.c = 'xy')")
    case 5:
      let (operand, operandSQL) = predicate(&random, depth - 1)
      return (!operand, "(NOT \(operandSQL))")
    default:
      let (left, leftSQL) = predicate(&random, depth - 1)
      let (right, rightSQL) = predicate(&random, depth - 1)
      if choice == 6 { return (left && right, "(\(leftSQL) AND \(rightSQL))") }
      return (left || right, "(\(leftSQL) OR \(rightSQL))")
    }
  }

  @Test("300 random requests return the rows and count of the same query written by hand")
  func randomRequests() throws {
    var random = SeededGenerator(seed: 40)
    let db = try Database(path: ":memory:")
    try db.executeScript(
      """
      CREATE TABLE p (id INTEGER PRIMARY KEY, k INTEGER);
      CREATE TABLE r (id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, pid INTEGER REFERENCES p(id));
      """)
    for id in 1...6 { try db.execute("INSERT INTO p VALUES (?, ?)", [.integer(Int64(id)), .integer(Int64(id % 3))]) }
    let texts = ["x", "y", "xy", "", "XY", "yx"]
    for id in 1...60 {
      let a: DatabaseValue = random.pick(5) == 0 ? .null : .integer(Int64(random.pick(11) - 5))
      let b: DatabaseValue = random.pick(5) == 0 ? .null : .real(Double(random.pick(41) - 20) / 4)
      let c: DatabaseValue = random.pick(6) == 0 ? .null : .text(texts[random.pick(6)])
      let pid: DatabaseValue = random.pick(4) == 0 ? .null : .integer(Int64(random.pick(6) + 1))
      try db.execute("INSERT INTO r VALUES (?, ?, ?, ?, ?)", [.integer(Int64(id)), a, b, c, pid])
    }
    for _ in 0..<300 {
      var request = R.all()
      var join = ""
      switch random.pick(3) {
      case 0:
        let k = random.pick(3)
        request = request.joining(required: R.parent.filter(Column("k") >= k))
        join = " JOIN p ON p.id = r.pid AND p.k >= \(k)"
      case 1:
        request = request.joining(optional: R.parent)
        join = " LEFT JOIN p ON p.id = r.pid"
      default:
        break
      }
      var conditions: [String] = []
      for _ in 0..<random.pick(3) {
        let (expression, sql) = Self.predicate(&random, random.pick(4))
        request = request.filter(expression)
        conditions.append(sql)
      }
      // Orderings end with the key, so that the order is total.
      var orderings: [any SQLOrderingTerm] = []
      var orderSQL: [String] = []
      for _ in 0..<random.pick(3) {
        let name = ["a", "b", "c"][random.pick(3)]
        let descending = random.pick(2) == 0
        orderings.append(descending ? Column(name).desc : Column(name).asc)
        orderSQL.append("r.\(name) \(descending ? "DESC" : "ASC")")
      }
      orderings.append(Column("id"))
      orderSQL.append("r.id")
      request = request.order(orderings)
      var limit = ""
      if random.pick(3) == 0 {
        let count = random.pick(20)
        let offset = random.pick(10)
        request = request.limit(count, offset: offset)
        limit = " LIMIT \(count) OFFSET \(offset)"
      }
      let handWritten =
        "SELECT r.* FROM r" + join + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
        + " ORDER BY " + orderSQL.joined(separator: ", ") + limit
      let rendered = try request.makeSQL(db)
      let rows = try request.asRequest(of: Row.self).fetchAll(db)
      #expect(rows == (try db.rows(handWritten)), "rendered: \(rendered)\nby hand: \(handWritten)")
      let counted = try db.rows("SELECT COUNT(*) FROM (\(handWritten))")[0][0]
      #expect(DatabaseValue.integer(Int64(try request.fetchCount(db))) == counted, "\(handWritten)")
    }
  }
}
