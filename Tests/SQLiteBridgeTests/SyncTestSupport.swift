import Foundation
import SQLiteBridge
import Testing

// Shared by the sync tests (Sync/), as SyncTestSupport.hpp is by the C++
// ones: devices, each a DatabaseQueue on a file of its own with the shared
// schema (Tests/Fixtures/sync/schema.sql) and a SyncEngine over its three
// synced tables; a hub that misbehaves on purpose; an in-memory hub of the
// tests' own.

/// The synced tables of the shared schema.
let syncedTables = ["notes", "tags", "counters"]

/// What a `HookedHub` throws when told to fail: a Swift error of the tests'
/// own, so that a test can tell it is thrown back unchanged.
struct HubUnavailable: Error, Equatable {
  var reason = "the hub did not answer (test)"
}

/// One device: its database (made with the shared schema) and its engine.
final class SyncDevice: Sendable {
  let queue: DatabaseQueue
  let engine: SyncEngine

  init(path: String, name: String, hub: some SyncHub, policy: SyncConflictPolicy = .hubOrderWins) throws {
    try Self.prepare(path)
    queue = try DatabaseQueue(path: path)
    engine = try SyncEngine(queue, tables: syncedTables, device: name, hub: hub, policy: policy)
  }

  /// Makes the database at `path` with the shared schema when it is not
  /// there.
  static func prepare(_ path: String) throws {
    if fileExists(path) { return }
    let db = try Database(path: path)
    try db.executeScript(try String(contentsOfFile: fixturePath("sync/schema.sql"), encoding: .utf8))
  }

  /// Runs `sql` with `arguments` in a write transaction.
  func write(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
    try queue.write { db in _ = try db.execute(sql, arguments) }
  }

  /// One sync.
  @discardableResult
  func sync() async throws -> SyncReport { try await engine.sync() }

  /// How many transactions wait to be pushed.
  func pending() throws -> Int { try engine.pendingCount }

  /// Every row of the synced tables, in key order: "-- table", then one
  /// line per row, its values as text joined by "|" (NULL as nothing).
  func rows() throws -> [String] {
    try queue.read { db in try syncedRows(db) }
  }

  /// How many schemas the writer has attached (1: main only).
  func writerSchemas() throws -> Int {
    try queue.write { db -> Int in
      guard case .integer(let count) = try db.rows("SELECT count(*) FROM pragma_database_list")[0][0] else { return -1 }
      return Int(count)
    }
  }
}

/// The rows of the synced tables of `db`, as `SyncDevice.rows()` lists them.
func syncedRows(_ db: Database) throws -> [String] {
  var lines: [String] = []
  for table in syncedTables {
    lines.append("-- " + table)
    for row in try db.rows("SELECT * FROM \(table) ORDER BY id") {
      lines.append(row.values.map(plainText).joined(separator: "|"))
    }
  }
  return lines
}

/// A value as text, as the C++ tests' `asText` gives it (NULL as nothing).
func plainText(_ value: DatabaseValue) -> String {
  switch value {
  case .null: return ""
  case .integer(let value): return String(value)
  case .real(let value): return String(value)
  case .text(let value): return value
  case .blob(let value): return value.map { String(format: "%02X", $0) }.joined()
  }
}

/// A fresh temporary directory holding a `DatabaseSyncHub` (hub.sqlite),
/// and the devices made in it. `remove()` deletes the directory.
final class SyncWorld: Sendable {
  let directory: String
  let hub: DatabaseSyncHub

  init() throws {
    directory = try makeTemporaryDirectory()
    hub = try DatabaseSyncHub(path: directory + "/hub.sqlite")
  }

  /// The path of `name` in the directory.
  func path(_ name: String) -> String { directory + "/" + name }

  /// A device called `name` on `<name>.sqlite`, syncing through `hub` (the
  /// world's when nil).
  func device(
    _ name: String, hub: (any SyncHub)? = nil, policy: SyncConflictPolicy = .hubOrderWins
  ) throws -> SyncDevice {
    guard let hub else {
      return try SyncDevice(path: path(name + ".sqlite"), name: name, hub: self.hub, policy: policy)
    }
    return try SyncDevice(path: path(name + ".sqlite"), name: name, hub: hub, policy: policy)
  }

  /// Makes `name`'s database (the shared schema) and runs `statements` on
  /// it before any engine records.
  func prefill(_ name: String, _ statements: [String]) throws {
    try SyncDevice.prepare(path(name + ".sqlite"))
    let db = try Database(path: path(name + ".sqlite"))
    for sql in statements { _ = try db.execute(sql) }
  }

  /// Every entry of the hub's log.
  func log() async throws -> [SyncEntry] { try await hub.entries(after: 0, limit: 100_000) }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// Both devices start from note n1 ('first', 'body'), then edit offline:
/// `phoneEdits` on the phone, `laptopEdits` on the laptop; the phone
/// syncs first, so the laptop's edits come later in the log. The laptop
/// does not sync yet.
func editBothThenSync(
  _ phone: SyncDevice, _ laptop: SyncDevice, phoneEdits: [String], laptopEdits: [String]
) async throws {
  try phone.write("INSERT INTO notes(id, title, body) VALUES ('n1', 'first', 'body')")
  try await phone.sync()
  try await laptop.sync()
  for sql in phoneEdits { try phone.write(sql) }
  for sql in laptopEdits { try laptop.write(sql) }
  try await phone.sync()
}

/// The phone syncs again; both copies must then be equal. The phone's rows.
func converged(
  _ phone: SyncDevice, _ laptop: SyncDevice, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [String] {
  try await phone.sync()
  let rows = try phone.rows()
  #expect(rows == (try laptop.rows()), sourceLocation: sourceLocation)
  return rows
}

/// A hub that forwards to a real one, with hooks around each call (to move
/// the log meanwhile, to fail, to hold a round inside a call).
final class HookedHub: SyncHub {
  typealias Hook = @Sendable () async throws -> Void

  private let inner: any SyncHub
  private let hooks = Locked<(beforeAppend: Hook?, afterAppend: Hook?, beforeEntries: Hook?)>((nil, nil, nil))
  private let calls = Locked<(appends: Int, entries: Int)>((0, 0))

  init(_ inner: any SyncHub) { self.inner = inner }

  /// Run before each append; throwing fails it without forwarding it.
  var beforeAppend: Hook? {
    get { hooks.withLock { $0.beforeAppend } }
    set { hooks.withLock { $0.beforeAppend = newValue } }
  }
  /// Run after an append was forwarded and succeeded; throwing fails the
  /// call although the entries are in the log (an answer lost).
  var afterAppend: Hook? {
    get { hooks.withLock { $0.afterAppend } }
    set { hooks.withLock { $0.afterAppend = newValue } }
  }
  /// Run before each read of entries; throwing fails it.
  var beforeEntries: Hook? {
    get { hooks.withLock { $0.beforeEntries } }
    set { hooks.withLock { $0.beforeEntries = newValue } }
  }
  /// How many appends were asked for.
  var appends: Int { calls.withLock { $0.appends } }
  /// How many reads of entries were asked for.
  var entryReads: Int { calls.withLock { $0.entries } }

  func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool {
    calls.withLock { $0.appends += 1 }
    if let hook = beforeAppend { try await hook() }
    let appended = try await inner.append(entries, after: last)
    if let hook = afterAppend { try await hook() }
    return appended
  }

  func entries(after position: Int64, limit: Int) async throws -> [SyncEntry] {
    calls.withLock { $0.entries += 1 }
    if let hook = beforeEntries { try await hook() }
    return try await inner.entries(after: position, limit: limit)
  }
}

/// A hub written in Swift only, as an app would write one for its server:
/// the log in memory, with the rules a hub keeps (positions with no gap,
/// conditional appends, a (device, sequence) once).
actor MemoryHub: SyncHub {
  private var log: [SyncEntry] = []

  func append(_ entries: [SyncEntry], after last: Int64) throws -> Bool {
    guard last == Int64(log.count) else { return false }
    var seen = Set(log.map { "\($0.device)#\($0.sequence)" })
    for entry in entries where !seen.insert("\(entry.device)#\(entry.sequence)").inserted {
      throw HubUnavailable(reason: "device \(entry.device) sequence \(entry.sequence) already in the log")
    }
    for entry in entries {
      log.append(
        SyncEntry(
          position: Int64(log.count + 1), device: entry.device, sequence: entry.sequence, changeset: entry.changeset))
    }
    return true
  }

  func entries(after position: Int64, limit: Int) -> [SyncEntry] {
    Array(log.dropFirst(Int(max(position, 0))).prefix(max(limit, 0)))
  }
}

/// The error `body` throws (nil, with an issue recorded, when it throws
/// none).
func thrownError(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> (any Error)? {
  do {
    try await body()
    Issue.record("expected an error, but nothing was thrown", sourceLocation: sourceLocation)
    return nil
  } catch {
    return error
  }
}

/// The `DatabaseError` `body` throws (nil, with an issue recorded, when it
/// throws none or another error).
func asyncDatabaseError(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> DatabaseError? {
  guard let error = await thrownError(sourceLocation: sourceLocation, body) else { return nil }
  guard let error = error as? DatabaseError else {
    Issue.record("expected a DatabaseError, got \(error)", sourceLocation: sourceLocation)
    return nil
  }
  return error
}

/// The kinds of the conflicts `report` holds, in order.
func kinds(_ report: SyncReport) -> [ChangesetConflictKind] { report.conflicts.map(\.kind) }
