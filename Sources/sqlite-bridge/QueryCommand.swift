import SQLiteBridge

/// `query DB SQL [ARG...] [--format json|table|csv] [--cluster ADDR,…]`
enum QueryCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener, _ cluster: ClusterTarget?) throws {
    let format = try RowFormat(named: arguments.option("format") ?? "json", for: "--format")
    let path = try arguments.positional("DB")
    let sql = try arguments.positional("SQL")
    let values = try arguments.rest().map(argumentValue)
    if let cluster {
      // DB names the cluster's database; the statement runs on its leader.
      let database = try cluster.open(path)
      let rows = try database.rows(sql, values)
      let text = format.render(columns: database.lastColumnNames, rows: rows)
      print(text, terminator: format == .csv ? "" : "\n")
      return
    }
    let database = try opener.open(path, mode: .readWriteCreate)
    let statement = try database.makeStatement(sql)
    let rows = try statement.rows(values)
    let text = format.render(columns: statement.columnNames, rows: rows)
    // CSV records carry their own CRLF; the other formats end with a line break.
    print(text, terminator: format == .csv ? "" : "\n")
  }

  /// An integer or decimal number binds as one, `NULL` binds NULL, anything
  /// else binds as text.
  static func argumentValue(_ text: String) -> DatabaseValue {
    if text == "NULL" { return .null }
    if let integer = Int64(text) { return .integer(integer) }
    if text.contains(where: \.isNumber), let real = Double(text), real.isFinite { return .real(real) }
    return .text(text)
  }
}

/// `columns DB TABLE`
enum ColumnsCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let path = try arguments.positional("DB")
    let table = try arguments.positional("TABLE")
    try arguments.finish()
    let database = try opener.open(path, mode: .readWrite)
    for column in try database.tableColumns(table) { print(column) }
  }
}

/// `update-table DB TABLE --create SQL [--insert SQL]`
enum UpdateTableCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    guard let create = try arguments.option("create") else { throw UsageError("update-table needs --create SQL") }
    let insert = try arguments.option("insert") ?? ""
    let path = try arguments.positional("DB")
    let table = try arguments.positional("TABLE")
    try arguments.finish()
    let database = try opener.open(path, mode: .readWrite)
    try database.updateTable(create: create, insert: insert, name: table)
    print("updated table \(table); columns: \(try database.tableColumns(table).joined(separator: ", "))")
  }
}
