import Foundation
import SQLiteBridge

/// `shell DB [--mode json|table|csv]`: statements and dot commands typed at
/// a prompt, or read from a pipe or file as a script (see `Shell`).
enum ShellCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let mode = try RowFormat(named: arguments.option("mode") ?? "table", for: "--mode")
    let path = try arguments.positional("DB")
    try arguments.finish()
    let database = try opener.open(path, mode: .readWriteCreate)
    let interactive = isatty(STDIN_FILENO) != 0
    let shell = Shell(database: database, mode: mode, interactive: interactive)
    if interactive {
      shell.write(
        "sqlite-bridge shell on \(path) (SQLite \(Database.sqliteVersion)). "
          + "End statements with ';'; .help lists the dot commands.\n")
    }
    shell.run()
    // At a terminal every error was seen as it happened; a script says
    // through its exit status that something in it failed.
    if !interactive && shell.failures > 0 { throw ReportedFailure() }
  }
}
