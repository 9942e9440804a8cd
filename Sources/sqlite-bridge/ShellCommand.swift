import Foundation
import SQLiteBridge

/// `shell DB [--mode json|table|csv] [--cluster ADDR,…]`: statements and dot
/// commands typed at a prompt, or read from a pipe or file as a script (see
/// `Shell`), on a database file or (with `--cluster`) a cluster's database.
enum ShellCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener, _ cluster: ClusterTarget?) throws {
    let mode = try RowFormat(named: arguments.option("mode") ?? "table", for: "--mode")
    let path = try arguments.positional("DB")
    try arguments.finish()
    let session: any ShellSession
    let place: String
    if let cluster {
      session = ClusterShellSession(database: try cluster.open(path))
      place = "\(path) on the cluster \(cluster.configuration.servers.joined(separator: ","))"
    } else {
      session = LocalShellSession(database: try opener.open(path, mode: .readWriteCreate))
      place = path
    }
    let interactive = isatty(STDIN_FILENO) != 0
    let shell = Shell(session: session, mode: mode, interactive: interactive)
    if interactive {
      shell.write(
        "sqlite-bridge shell on \(place) (SQLite \(Database.sqliteVersion)). "
          + "End statements with ';'; .help lists the dot commands.\n")
    }
    shell.run()
    // At a terminal every error was seen as it happened; a script says
    // through its exit status that something in it failed.
    if !interactive && shell.failures > 0 { throw ReportedFailure() }
  }
}
