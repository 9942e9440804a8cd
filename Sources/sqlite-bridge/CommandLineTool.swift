import Foundation
import SQLiteBridge

/// Dispatches a command line to its command and turns failures into exit
/// statuses: 0 success, 1 a database error, 2 a usage error.
enum CommandLineTool {
  static let usage = """
    usage: sqlite-bridge <command> [options]

    commands:
      demo [--dir DIR]
          Open the notes database by name (copied from the bundled seed on first
          use), insert, query, change the table with updateTable, print the rows.
          DIR defaults to a new temporary directory.
      query DB SQL [ARG...] [--format json|table]
          Run one statement on the database file DB (created if missing) with
          ARGs bound to its parameters, and print the rows (JSON by default).
          An ARG that reads as an integer or a decimal number is bound as one;
          NULL binds NULL; anything else binds as text. Arguments after a
          lone -- are taken as they are (e.g. text starting with --).
      columns DB TABLE
          Print TABLE's column names, one per line.
      tables DB [--format json|table]
          Print the names of DB's tables (the main schema's, without SQLite's
          own sqlite_* tables), sorted; a JSON array by default.
      schema DB [TABLE] [--format json|table]
          Print the columns, primary key, indexes and foreign keys of TABLE, or
          of every table that `tables` lists (JSON by default). TABLE may be
          qualified (main.t, temp.t).
      update-table DB TABLE --create SQL [--insert SQL]
          Rebuild TABLE with a new schema (see Database.updateTable).

    Errors go to stderr with the SQLite result code. Exit status: 0 success,
    1 database error, 2 usage error.
    """

  static func run(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
      printError(usage)
      return 2
    }
    var options = Arguments(Array(arguments.dropFirst()))
    do {
      switch command {
      case "demo": try DemoCommand.run(&options)
      case "query": try QueryCommand.run(&options)
      case "columns": try ColumnsCommand.run(&options)
      case "tables": try TablesCommand.run(&options)
      case "schema": try SchemaCommand.run(&options)
      case "update-table": try UpdateTableCommand.run(&options)
      case "help", "--help", "-h": print(usage)
      default: throw UsageError("unknown command '\(command)'")
      }
      return 0
    } catch let error as UsageError {
      printError("error: \(error.message)\n\n\(usage)")
      return 2
    } catch let error as DatabaseError {
      printError("error: \(error)")
      return 1
    } catch {
      printError("error: \(error)")
      return 1
    }
  }

  static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
