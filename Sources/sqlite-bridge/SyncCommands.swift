import Dispatch
import Foundation
import SQLiteBridge
import SQLiteBridgeCluster

/// `sync DB --hub HUB | --cluster HOST:PORT,... [--hub-database NAME]
/// --tables T1,T2 --device NAME [--record-existing-rows] [--execute SQL]...`:
/// with `--record-existing-rows`, first records every row the tables hold
/// as a pending change (`SyncEngine.recordExistingRows()`, printing
/// "recorded N existing rows"); runs each SQL in a
/// write transaction of its own while the engine records (a change made by
/// another tool while no engine is open is never synced), then one sync of
/// the device database DB
/// (`SyncEngine.sync()`) through a SQLite-file hub or a hub on a dqlite
/// cluster (the cluster database NAME, `sync-hub` by default, its table
/// `sync_log`), printing the report: what was pushed and pulled, the rounds,
/// each conflict settled (the later change in the hub's order wins). A
/// failed sync exits 1 with DB as before the round and its pending changes
/// kept.
enum SyncCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener, _ cluster: ClusterTarget?) throws {
    let path = try arguments.positional("DB")
    let hubPath = try arguments.option("hub")
    let hubDatabase = try arguments.option("hub-database") ?? "sync-hub"
    guard let tableList = try arguments.option("tables") else { throw UsageError("sync needs --tables T1,T2") }
    guard let device = try arguments.option("device") else { throw UsageError("sync needs --device NAME") }
    let recordExisting = try arguments.flag("record-existing-rows")
    var statements: [String] = []
    while let sql = try arguments.option("execute") { statements.append(sql) }
    try arguments.finish()
    let tables = tableList.split(separator: ",").map { String($0) }.filter { !$0.isEmpty }
    guard !tables.isEmpty else { throw UsageError("--tables needs at least one table") }
    let hub: any SyncHub
    switch (hubPath, cluster) {
    case (let file?, nil): hub = try DatabaseSyncHub(path: file)
    case (nil, let cluster?): hub = try ClusterSyncHub(try cluster.open(hubDatabase))
    default: throw UsageError("sync needs one hub: --hub HUB (a SQLite file) or --cluster HOST:PORT,...")
    }
    let queue = try opener.openQueue(path, configuration: Configuration())
    let engine = try SyncEngine(queue, tables: tables, device: device, hub: hub)
    if recordExisting { print("recorded \(try engine.recordExistingRows()) existing rows") }
    for sql in statements {
      try queue.write { db in try db.execute(sql) }
    }
    let report = try waitFor { try await engine.sync() }
    print(
      "pushed \(report.pushed), pulled \(report.pulled), rounds \(report.rounds), conflicts \(report.conflicts.count)")
    for conflict in report.conflicts { print("  \(ChangesetText.describe(conflict))") }
  }

  /// Runs `body` on a task and blocks this thread until it ends.
  static func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
      do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
      done.signal()
    }
    done.wait()
    return try outcome.get()
  }

  /// What a task ended with, handed to the thread that waits for it.
  final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
    func get() throws -> T { try lock.withLock { result! }.get() }
  }
}

/// `hub log HUB [--after N]`: the entries of a hub's log after position N
/// (0: all), as a JSON array of {position, device, sequence, changes (how
/// many operations), bytes, changeset (hex)}. HUB is a SQLite-file hub, or
/// with `--cluster` the name of the cluster database holding the log.
enum HubCommand {
  static func run(_ arguments: inout Arguments, _ cluster: ClusterTarget?) throws {
    let action = try arguments.positional("log")
    guard action == "log" else { throw UsageError("hub takes log, not \(action)") }
    let name = try arguments.positional("HUB")
    let afterText = try arguments.option("after") ?? "0"
    try arguments.finish()
    guard let after = Int64(afterText), after >= 0 else {
      throw UsageError("--after must be a position (0 or more), not '\(afterText)'")
    }
    let hub: any SyncHub
    if let cluster {
      hub = try ClusterSyncHub(try cluster.open(name))
    } else {
      guard FileManager.default.fileExists(atPath: name) else {
        throw DatabaseError(code: ResultCode.cantOpen.rawValue, message: "no hub file at \(name)")
      }
      hub = try DatabaseSyncHub(path: name)
    }
    var lines: [String] = []
    var position = after
    while true {
      let from = position
      let page = try SyncCommand.waitFor { try await hub.entries(after: from, limit: 500) }
      for entry in page {
        let hex = entry.changeset.data.map { String(format: "%02x", $0) }.joined()
        lines.append(
          "{\"position\": \(entry.position), \"device\": \(RowPrinting.jsonString(entry.device)), "
            + "\"sequence\": \(entry.sequence), \"changes\": \(try entry.changeset.operations().count), "
            + "\"bytes\": \(entry.changeset.data.count), \"changeset\": \"\(hex)\"}")
      }
      guard let last = page.last, page.count == 500 else { break }
      position = last.position
    }
    print(lines.isEmpty ? "[]" : "[\n  " + lines.joined(separator: ",\n  ") + "\n]")
  }
}
