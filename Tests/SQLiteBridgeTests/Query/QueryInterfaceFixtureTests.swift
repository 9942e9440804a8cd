import Foundation
import SQLiteBridge
import Testing

/// The shared fixture `Tests/Fixtures/query-interface.json`, written by the
/// C++ suite (`QueryFixtureTests.cpp`): query requests described
/// neutrally, with the SQL text and arguments the core renders. Each case is
/// built here through the Swift face; a select must render exactly the
/// fixture's text and arguments, and every case (count, delete, update,
/// first row too) must do what the fixture's SQL does.
@Suite("Query interface fixture")
struct QueryInterfaceFixtureTests {
  /// A case the Swift face cannot build yet, and why.
  struct Pending: Error { let reason: String }

  static func file() -> [String: Any] {
    let data = FileManager.default.contents(atPath: fixturePath("query-interface.json")) ?? Data()
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
  }

  static var cases: [[String: Any]] { file()["cases"] as? [[String: Any]] ?? [] }

  // The fixture's tables, as the record types associations are declared on.
  enum Authors: TableRecord { static let databaseTableName = "authors" }
  enum Books: TableRecord { static let databaseTableName = "books" }
  enum Reviews: TableRecord { static let databaseTableName = "reviews" }
  enum Translations: TableRecord { static let databaseTableName = "translations" }
  enum Loose: TableRecord { static let databaseTableName = "loose" }
  enum Docs: TableRecord { static let databaseTableName = "docs" }
  enum Hostile: TableRecord { static let databaseTableName = #"odd"; DROP TABLE books; --"# }

  static func tableType(_ name: String) throws -> any TableRecord.Type {
    let types: [any TableRecord.Type] = [
      Authors.self, Books.self, Reviews.self, Translations.self, Loose.self, Docs.self, Hostile.self,
    ]
    guard let type = types.first(where: { $0.databaseTableName == name }) else {
      throw Pending(reason: "no record type for table \(name)")
    }
    return type
  }

  /// The association `spec` describes, from `O` to `D`, applied as its kind
  /// says.
  static func associate<O: TableRecord, D: TableRecord>(
    _ request: QueryInterfaceRequest<O>, _ destination: D.Type, _ spec: [String: Any]
  ) throws -> QueryInterfaceRequest<O> {
    let foreignKey = (spec["origin"] as? [String]).map { origin in
      ForeignKey(origin, to: (spec["destination"] as? [String]).flatMap { $0.isEmpty ? nil : $0 })
    }
    let key = spec["key"] as? String
    func apply<A: Association>(_ association: A) throws -> QueryInterfaceRequest<O> where A.Origin == O {
      switch spec["kind"] as? String {
      case "joiningRequired": return request.joining(required: association)
      case "joiningOptional": return request.joining(optional: association)
      case "includingRequired": return request.including(required: association)
      case "includingOptional": return request.including(optional: association)
      default: throw Pending(reason: "join kind \(spec["kind"] ?? "none")")
      }
    }
    switch spec["association"] as? String {
    case "belongsTo": return try apply(O.belongsTo(D.self, key: key, using: foreignKey))
    case "hasOne": return try apply(O.hasOne(D.self, key: key, using: foreignKey))
    case "hasMany": return try apply(O.hasMany(D.self, key: key, using: foreignKey))
    default: throw Pending(reason: "association \(spec["association"] ?? "none")")
    }
  }

  /// The count of the hasMany association `spec` describes, from `O`.
  static func associationCount<O: TableRecord>(_ origin: O.Type, _ spec: [String: Any]) throws -> SQLExpression {
    func count<D: TableRecord>(_ destination: D.Type) -> SQLExpression {
      let foreignKey = (spec["origin"] as? [String]).map { ForeignKey($0) }
      return O.hasMany(D.self, key: spec["key"] as? String, using: foreignKey).count
    }
    return count(try tableType(spec["table"] as? String ?? ""))
  }

  /// The request's own table, while its expressions are built.
  @TaskLocal static var origin: (any TableRecord.Type)?

  static func value(_ json: Any) -> DatabaseValue {
    guard let object = json as? [String: Any] else { return .null }
    if let integer = object["integer"] as? NSNumber { return .integer(integer.int64Value) }
    if let real = object["real"] as? NSNumber { return .real(real.doubleValue) }
    if let text = object["text"] as? String { return .text(text) }
    if let hex = object["blob"] as? String {
      var bytes: [UInt8] = []
      var index = hex.startIndex
      while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
      }
      return .blob(Data(bytes))
    }
    return .null
  }

  static func isNullValue(_ json: Any) -> Bool {
    guard let object = json as? [String: Any], let value = object["value"] else { return false }
    return value is NSNull
  }

  static func expression(_ json: Any) throws -> SQLExpression {
    guard let node = json as? [String: Any] else { throw Pending(reason: "not an object") }
    if let name = node["column"] as? String {
      if let table = node["table"] as? String { return TableAlias(name: table)[Column(name)] }
      return Column(name).sqlExpression
    }
    if let spec = node["associationCount"] as? [String: Any] {
      guard let origin else { throw Pending(reason: "a count outside a request") }
      return try associationCount(origin, spec)
    }
    if let bound = node["value"] { return value(bound).sqlExpression }
    if let symbol = node["op"] as? String {
      let args = node["args"] as? [Any] ?? []
      if symbol == "!" { return !(try expression(args[0])) }
      if symbol == "negate" { return -(try expression(args[0])) }
      // `== nil` and `!= nil`, as a Swift user writes them.
      if symbol == "==" || symbol == "!=", isNullValue(args[1]) || isNullValue(args[0]) {
        let subject = try expression(isNullValue(args[1]) ? args[0] : args[1])
        return symbol == "==" ? subject == nil : subject != nil
      }
      let lhs = try expression(args[0])
      let rhs = try expression(args[1])
      switch symbol {
      case "==": return lhs == rhs
      case "!=": return lhs != rhs
      case "<": return lhs < rhs
      case "<=": return lhs <= rhs
      case ">": return lhs > rhs
      case ">=": return lhs >= rhs
      case "&&": return lhs && rhs
      case "||": return lhs || rhs
      case "+": return lhs + rhs
      case "-": return lhs - rhs
      case "*": return lhs * rhs
      case "/": return lhs / rhs
      default: throw Pending(reason: "operator \(symbol)")
      }
    }
    if let subject = node["isNull"] { return try expression(subject) == nil }
    if let subject = node["isNotNull"] { return try expression(subject) != nil }
    if let pair = node["like"] as? [Any] { return try expression(pair[0]).like(try expression(pair[1])) }
    if let subject = node["in"] {
      let values = (node["values"] as? [Any] ?? []).map(value)
      return values.contains(try expression(subject))
    }
    if let function = node["function"] as? String {
      if function == "countAll" { return count(AllColumns()) }
      let argument = try expression((node["args"] as? [Any] ?? [])[0])
      switch function {
      case "count": return count(argument)
      case "countDistinct": return count(distinct: argument)
      case "sum": return sum(argument)
      case "total": return total(argument)
      case "min": return min(argument)
      case "max": return max(argument)
      case "average": return average(argument)
      case "length": return length(argument)
      case "abs": return abs(argument)
      default: throw Pending(reason: "function \(function)")
      }
    }
    throw Pending(reason: "expression \(node.keys.sorted())")
  }

  static func ordering(_ json: Any) throws -> any SQLOrderingTerm {
    let node = json as? [String: Any] ?? [:]
    if let e = node["asc"] { return try expression(e).asc }
    if let e = node["desc"] { return try expression(e).desc }
    if let e = node["ascNullsLast"] { return try expression(e).ascNullsLast }
    if let e = node["descNullsFirst"] { return try expression(e).descNullsFirst }
    return try expression(json)
  }

  static func selectable(_ json: Any) throws -> any SQLSelectable {
    let node = json as? [String: Any] ?? [:]
    if node["allColumns"] != nil { return AllColumns() }
    if let name = node["alias"] as? String, let of = node["of"] { return try expression(of).forKey(name) }
    return try expression(json)
  }

  /// The case's request, built in the fixture's key order.
  static func request(_ json: [String: Any]) throws -> QueryInterfaceRequest<Row> {
    let origin = try tableType(json["table"] as? String ?? "")
    return try $origin.withValue(origin) { try request(origin, json) }
  }

  static func request<O: TableRecord>(_ origin: O.Type, _ json: [String: Any]) throws -> QueryInterfaceRequest<Row> {
    var typed = O.all()
    for spec in json["joins"] as? [[String: Any]] ?? [] {
      typed = try associate(typed, try tableType(spec["table"] as? String ?? ""), spec)
    }
    var request = typed.asRequest(of: Row.self)
    if let keys = json["keys"] as? [Any] { request = request.filter(keys: keys.map(value)) }
    for filter in json["filters"] as? [Any] ?? [] { request = request.filter(try expression(filter)) }
    if let pattern = json["matching"] {
      request = request.matching((pattern as? String).map { FTS5Pattern(rawPattern: $0) })
    }
    if let selection = json["select"] as? [Any] { request = request.select(try selection.map(selectable)) }
    if let annotations = json["annotated"] as? [Any] {
      request = request.annotated(with: try annotations.map(selectable))
    }
    if json["distinct"] as? Bool == true { request = request.distinct() }
    if let group = json["group"] as? [Any] { request = request.group(try group.map(expression)) }
    for predicate in json["having"] as? [Any] ?? [] { request = request.having(try expression(predicate)) }
    if let order = json["order"] as? [Any] { request = request.order(try order.map(ordering)) }
    if json["reversed"] as? Bool == true { request = request.reversed() }
    if let limit = json["limit"] as? Int { request = request.limit(limit, offset: json["offset"] as? Int) }
    return request
  }

  /// What a case leaves behind or returns, to compare the Swift run with
  /// the fixture's SQL run on a fresh copy of the schema.
  static func outcome(_ db: Database, _ run: (Database) throws -> [Row]) throws -> [Row] {
    // Scopes aside: the fixture's SQL run by hand has none.
    let returned = try run(db).map { Row(columnNames: $0.columnNames, values: $0.values) }
    return returned + (try db.rows("SELECT id, title, year, authorId FROM books ORDER BY id"))
      + (try db.rows("SELECT id, bookId, stars FROM reviews ORDER BY id"))
  }

  static func fresh() throws -> Database {
    let db = try Database(path: ":memory:")
    try db.executeScript(file()["schema"] as? String ?? "")
    return db
  }

  @Test("the fixture is there and holds cases")
  func fixtureIsThere() {
    #expect(Self.cases.count >= 40)
  }

  @Test("every case builds through the Swift face and renders or runs as the core does")
  func everyCase() throws {
    var pending: Set<String> = []
    for fixture in Self.cases {
      let name = fixture["name"] as? String ?? ""
      let request: QueryInterfaceRequest<Row>
      do {
        request = try Self.request(fixture["request"] as? [String: Any] ?? [:])
      } catch is Pending {
        pending.insert(name)
        continue
      }
      let sql = fixture["sql"] as? String ?? ""
      let arguments = (fixture["arguments"] as? [Any] ?? []).map(Self.value)
      let statement = fixture["statement"] as? String ?? "select"
      let assignments = try (fixture["assignments"] as? [[String: Any]] ?? []).map {
        Column($0["column"] as? String ?? "").set(to: try Self.expression($0["value"] as Any))
      }
      let swift = try Self.outcome(try Self.fresh()) { db in
        switch statement {
        case "count": return [Row(columnNames: ["n"], values: [.integer(Int64(try request.fetchCount(db)))])]
        case "delete": return [Row(columnNames: ["n"], values: [.integer(Int64(try request.deleteAll(db)))])]
        case "update":
          return [Row(columnNames: ["n"], values: [.integer(Int64(try request.updateAll(db, assignments)))])]
        case "selectOne": return try request.fetchOne(db).map { [$0] } ?? []
        default:
          let rendered = try request.makeSQL(db)
          #expect(rendered.sql == sql, "\(name)")
          #expect(rendered.arguments == arguments, "\(name)")
          return try request.fetchAll(db)
        }
      }
      let core = try Self.outcome(try Self.fresh()) { db in
        switch statement {
        case "count", "delete", "update":
          let rows = try db.rows(sql, arguments)
          let n = statement == "count" ? rows[0][0] : .integer(Int64(db.changes))
          return [Row(columnNames: ["n"], values: [n])]
        case "selectOne": return Array(try db.rows(sql, arguments).prefix(1))
        default: return try db.rows(sql, arguments)
        }
      }
      #expect(swift == core, "\(name)")
    }
    #expect(pending.isEmpty, "cases the Swift face did not build: \(pending.sorted())")
  }
}
