import SQLiteBridge

/// `tables DB [--format json|table]`
enum TablesCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let format = try OutputFormat(&arguments)
    let path = try arguments.positional("DB")
    try arguments.finish()
    let database = try opener.open(path, mode: .readWrite)
    print(render(try database.tableNames(), format))
  }

  /// Table names as a JSON array or a one-column table.
  static func render(_ names: [String], _ format: OutputFormat) -> String {
    switch format {
    case .json: return JSONValue.array(names.map(JSONValue.string)).rendered()
    case .table: return RowPrinting.table(header: ["name"], cells: names.map { [$0] })
    }
  }
}

/// `schema DB [TABLE] [--format json|table]`
enum SchemaCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let format = try OutputFormat(&arguments)
    let path = try arguments.positional("DB")
    let given = try arguments.rest()
    guard given.count <= 1 else { throw UsageError("unexpected argument '\(given[1])'") }
    let database = try opener.open(path, mode: .readWrite)
    print(render(try schemas(of: database, given.first), format))
  }

  /// The schema of `table`, or of every table `tables` lists when nil.
  ///
  /// - Throws: `DatabaseError` (SQLite error 1) when `table` does not exist.
  static func schemas(of database: Database, _ table: String?) throws -> [TableSchema] {
    let tables = try table.map { [$0] } ?? database.tableNames()
    return try tables.map { try TableSchema(database, $0) }
  }

  /// Schemas as a JSON array or as text tables, one block per table.
  static func render(_ schemas: [TableSchema], _ format: OutputFormat) -> String {
    switch format {
    case .json: return JSONValue.array(schemas.map(\.json)).rendered()
    case .table: return schemas.map(\.text).joined(separator: "\n\n")
    }
  }
}

/// `--format json|table` (JSON when absent).
enum OutputFormat {
  case json
  case table

  init(_ arguments: inout Arguments) throws {
    switch try arguments.option("format") ?? "json" {
    case "json": self = .json
    case "table": self = .table
    case let other: throw UsageError("--format must be json or table, not '\(other)'")
    }
  }
}

/// What `schema` prints for one table.
struct TableSchema {
  let table: String
  let columns: [ColumnInfo]
  let primaryKey: [String]
  let indexes: [IndexInfo]
  let foreignKeys: [ForeignKeyInfo]

  init(_ database: Database, _ table: String) throws {
    self.table = table
    columns = try database.columns(in: table)
    primaryKey = try database.primaryKey(of: table)
    indexes = try database.indexes(on: table)
    foreignKeys = try database.foreignKeys(of: table)
  }

  var json: JSONValue {
    .object([
      ("table", .string(table)),
      (
        "columns",
        .array(
          columns.map { column in
            .object([
              ("name", .string(column.name)), ("type", .string(column.declaredType)),
              ("notNull", .bool(column.isNotNull)), ("default", column.defaultValueSQL.map(JSONValue.string) ?? .null),
              ("primaryKeyIndex", .integer(column.primaryKeyIndex)), ("hidden", .bool(column.isHidden)),
            ])
          })
      ),
      ("primaryKey", .array(primaryKey.map(JSONValue.string))),
      (
        "indexes",
        .array(
          indexes.map { index in
            .object([
              ("name", .string(index.name)), ("columns", .array(index.columns.map(JSONValue.string))),
              ("unique", .bool(index.isUnique)), ("origin", .string(Self.originName(index.origin))),
            ])
          })
      ),
      (
        "foreignKeys",
        .array(
          foreignKeys.map { key in
            .object([
              ("table", .string(key.destinationTable)), ("columns", .array(key.columns.map(JSONValue.string))),
              ("destinationColumns", .array(key.destinationColumns.map(JSONValue.string))),
              ("onUpdate", .string(key.onUpdate)), ("onDelete", .string(key.onDelete)),
            ])
          })
      ),
    ])
  }

  var text: String {
    let columnCells = columns.map { column in
      [
        column.name, column.declaredType, column.isNotNull ? "yes" : "no", column.defaultValueSQL ?? "",
        column.primaryKeyIndex == 0 ? "" : String(column.primaryKeyIndex), column.isHidden ? "yes" : "no",
      ]
    }
    let indexCells = indexes.map { index in
      [index.name, index.columns.joined(separator: ", "), index.isUnique ? "yes" : "no", Self.originName(index.origin)]
    }
    let keyCells = foreignKeys.map { key in
      [
        key.columns.joined(separator: ", "), key.destinationTable, key.destinationColumns.joined(separator: ", "),
        key.onUpdate, key.onDelete,
      ]
    }
    return [
      "table \(table)",
      "primary key: \(primaryKey.joined(separator: ", "))",
      "columns:",
      RowPrinting.table(
        header: ["name", "type", "not null", "default", "pk", "hidden"], cells: columnCells),
      "indexes:",
      RowPrinting.table(header: ["name", "columns", "unique", "origin"], cells: indexCells),
      "foreign keys:",
      RowPrinting.table(header: ["columns", "table", "to", "on update", "on delete"], cells: keyCells),
    ].joined(separator: "\n")
  }

  static func originName(_ origin: IndexOrigin) -> String {
    switch origin {
    case .createIndex: return "createIndex"
    case .uniqueConstraint: return "uniqueConstraint"
    case .primaryKey: return "primaryKey"
    }
  }
}

/// A JSON value whose object members keep their order.
indirect enum JSONValue {
  case string(String)
  case integer(Int)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// Arrays of scalars on one line; arrays of objects one element per line;
  /// objects holding arrays of objects one member per line.
  func rendered(indent: String = "") -> String {
    switch self {
    case .string(let text): return RowPrinting.jsonString(text)
    case .integer(let value): return String(value)
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    case .array(let elements):
      if elements.isEmpty { return "[]" }
      guard elements.contains(where: \.isContainer) else {
        return "[" + elements.map { $0.rendered() }.joined(separator: ", ") + "]"
      }
      let inner = indent + "  "
      return "[\n" + elements.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
    case .object(let members):
      if members.isEmpty { return "{}" }
      let member = { (pair: (String, JSONValue), indent: String) in
        RowPrinting.jsonString(pair.0) + ": " + pair.1.rendered(indent: indent)
      }
      guard members.contains(where: { $0.1.holdsObjects }) else {
        return "{" + members.map { member($0, indent) }.joined(separator: ", ") + "}"
      }
      let inner = indent + "  "
      return "{\n" + members.map { inner + member($0, inner) }.joined(separator: ",\n") + "\n" + indent + "}"
    }
  }

  private var isContainer: Bool {
    switch self {
    case .array, .object: return true
    default: return false
    }
  }

  private var holdsObjects: Bool {
    guard case .array(let elements) = self else { return false }
    return elements.contains(where: \.isContainer)
  }
}
