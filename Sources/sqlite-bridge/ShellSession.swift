import SQLiteBridge
import SQLiteBridgeCluster

/// What the shell runs its statements and dot commands on: a database file
/// (`LocalShellSession`) or a dqlite cluster's database
/// (`ClusterShellSession`).
protocol ShellSession {
  /// Runs `piece` (one statement at most, or only filler such as ";") and
  /// returns the result of each statement that has columns.
  func run(_ piece: String) throws -> [(columns: [String], rows: [Row])]
  /// The main schema's table names, sorted, without SQLite's own.
  func tableNames() throws -> [String]
  /// What `.schema [TABLE]` prints in `format`.
  func schema(_ table: String?, _ format: OutputFormat) throws -> String
}

/// A database file: statements prepared one after another, `.schema` as the
/// `schema` command prints it.
struct LocalShellSession: ShellSession {
  let database: Database

  func run(_ piece: String) throws -> [(columns: [String], rows: [Row])] {
    var results: [(columns: [String], rows: [Row])] = []
    for statement in try database.makeStatements(piece) {
      let columns = statement.columnNames
      let rows = try statement.rows()
      if !columns.isEmpty { results.append((columns, rows)) }
    }
    return results
  }

  func tableNames() throws -> [String] { try database.tableNames() }

  func schema(_ table: String?, _ format: OutputFormat) throws -> String {
    SchemaCommand.render(try SchemaCommand.schemas(of: database, table), format)
  }
}

/// A cluster's database: each statement runs on the leader; `.schema`
/// prints the tables' CREATE statements (the cluster answers SQL only).
struct ClusterShellSession: ShellSession {
  let database: ClusterDatabase

  func run(_ piece: String) throws -> [(columns: [String], rows: [Row])] {
    let rows: [Row]
    do {
      rows = try database.rows(piece)
    } catch let error as DatabaseError where error.resultCode == .misuse && error.message == "no SQL statement to run" {
      return []  // only filler: whitespace, comments, ";"
    }
    let columns = database.lastColumnNames
    return columns.isEmpty ? [] : [(columns, rows)]
  }

  func tableNames() throws -> [String] {
    try database.rows(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    ).map { try $0.get(0, as: String.self) }
  }

  func schema(_ table: String?, _ format: OutputFormat) throws -> String {
    let rows =
      try table.map {
        try database.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text($0)])
      }
      ?? database.rows(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
          + "ORDER BY name")
    if let table, rows.isEmpty {
      throw UsageError("no such table: \(table)")
    }
    switch format {
    case .json: return RowPrinting.json(rows)
    case .table: return try rows.map { try $0.get(1, as: String.self) + ";" }.joined(separator: "\n")
    }
  }
}
