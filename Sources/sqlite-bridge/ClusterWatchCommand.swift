import Foundation
import SQLiteBridge
import SQLiteBridgeCluster

/// `watch NAME SQL [ARG...] --cluster ADDR,… [--format json|table|csv]
/// [--external-interval MS] [--count N]`: `watch` on a dqlite cluster.
///
/// A cluster tells its clients nothing of others' commits, so the
/// statement runs again every MS milliseconds (1000 by default) on the
/// leader and its rows print when they differ from the last ones printed
/// (the first time always). Ends as `watch` does: SIGINT or SIGTERM (exit
/// 0), N prints, or an error (exit 1; a statement that fails the first time
/// fails at once).
enum ClusterWatchCommand {
  static func run(_ arguments: inout Arguments, _ cluster: ClusterTarget) throws {
    let format = try RowFormat(named: arguments.option("format") ?? "json", for: "--format")
    let interval = try WatchCommand.positiveInteger(
      arguments.option("external-interval") ?? "1000", for: "--external-interval")
    var remaining = try arguments.option("count").map { try WatchCommand.positiveInteger($0, for: "--count") }
    let name = try arguments.positional("DB")
    let sql = try arguments.positional("SQL")
    let values = try arguments.rest().map(QueryCommand.argumentValue)
    let database = try cluster.open(name)
    defer { database.close() }
    signal(SIGINT) { _ in clusterWatchInterrupted = 1 }
    signal(SIGTERM) { _ in clusterWatchInterrupted = 1 }
    var last: String?
    while clusterWatchInterrupted == 0 {
      let rows = try database.rows(sql, values)
      let text = format.renderForWatch(columns: database.lastColumnNames, rows: rows)
      if text != last {
        FileHandle.standardOutput.write(Data(text.utf8))
        last = text
        if let left = remaining {
          if left <= 1 { return }
          remaining = left - 1
        }
      }
      // Waits in short steps, so that an interrupt ends it promptly.
      let until = Date().addingTimeInterval(Double(interval) / 1000)
      while clusterWatchInterrupted == 0 && Date() < until { usleep(10_000) }
    }
  }
}

/// Set by the SIGINT and SIGTERM handlers of `watch --cluster`.
nonisolated(unsafe) private var clusterWatchInterrupted: sig_atomic_t = 0
