import Foundation
import SQLiteBridge
import Testing

/// A short sync simulation, as the C++ suite runs one
/// (Tests/CxxTests/Sync/SyncSimulationTests.cpp): three devices in this
/// process make random edits of the three synced tables (text keys, a
/// foreign key with a cascade, integer keys SQLite assigns) and sync at
/// random moments, one of them offline for long stretches; then every
/// device syncs until nothing moves, and the copies must have converged:
/// identical, equal to replaying the hub's log on an empty database, every
/// committed transaction in the log exactly once. The long run, with
/// device processes killed mid-sync, is scripts/sync-simulation.
@Suite(.usesSessionExtension)
struct SyncSimulationTests {
  @Test(arguments: [UInt64(1), 2, 3])
  func threeDevicesEditingAndSyncingAtRandomConverge(seed: UInt64) async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let names = ["device0", "device1", "device2"]
    let devices = try names.map { try world.device($0) }
    var random = SplitMix(seed: seed)
    var serial = 0
    for _ in 0..<150 {
      let index = Int(random.next() % UInt64(devices.count))
      let device = devices[index]
      try edit(device, name: names[index], serial: &serial, random: &random)
      // device0 is offline for long stretches: it syncs rarely.
      let online = index != 0 || random.next() % 10 == 0
      if online && random.next() % 4 == 0 { try await device.sync() }
    }
    for _ in 0..<(devices.count + 2) {
      var moved = 0
      for device in devices {
        let report = try await device.sync()
        moved += report.pushed + report.pulled
      }
      if moved == 0 { break }
    }
    // Replaying the log strictly: no entry may conflict, but for deletes of
    // rows a cascade took already (SQLite applies a changeset table by
    // table: a note's delete takes its tags before their own deletes come).
    let log = try await world.log()
    let replay = try Database(path: ":memory:")
    try replay.executeScript(try String(contentsOfFile: fixturePath("sync/schema.sql"), encoding: .utf8))
    for entry in log where !entry.changeset.data.isEmpty {
      try replay.apply(entry.changeset) { conflict in
        let gone = conflict.kind == .notFound && conflict.operation?.kind == .delete
        return gone ? .omit : .abort
      }
    }
    let expected = try syncedRows(replay)
    for (device, name) in zip(devices, names) {
      #expect(try device.rows() == expected, "\(name), seed \(seed)")
      #expect(try device.pending() == 0)
      let next = try await device.queue.read { db in
        try db.execute("SELECT next_sequence FROM sqlitebridge_sync_state")[0]["next_sequence"]
      }
      let sequences = log.filter { $0.device == name }.map(\.sequence).sorted()
      guard case .integer(let following)? = next else {
        Issue.record("no sync state on \(name)")
        continue
      }
      #expect(sequences == Array(1..<following), "\(name): each committed transaction in the log exactly once")
    }
  }
}

/// One random edit of `device`, in a write transaction of its own. One
/// that meets a constraint (a tag under a note the same edit deleted)
/// commits nothing.
private func edit(_ device: SyncDevice, name: String, serial: inout Int, random: inout SplitMix) throws {
  do {
    try device.queue.write { db in
      for statement in try randomEdit(db, device: name, serial: &serial, random: &random) {
        _ = try db.execute(statement.sql, statement.arguments)
      }
    }
  } catch let error as DatabaseError where error.resultCode == .constraint {
  }
}

/// One statement of a random edit.
private struct EditStatement {
  var sql: String
  var arguments: [DatabaseValue]
}

/// The statements of one random transaction on `db`: inserts, updates and
/// deletes of notes, tags (under an existing note) and counters, as
/// Tests/SyncSimulation/RandomEdits.hpp makes them for the C++ runs.
private func randomEdit(
  _ db: Database, device: String, serial: inout Int, random: inout SplitMix
) throws -> [EditStatement] {
  func pick(_ sql: String) throws -> DatabaseValue? {
    let rows = try db.execute(sql)
    return rows.isEmpty ? nil : rows[Int(random.next() % UInt64(rows.count))]["id"]
  }
  let word = { (random: inout SplitMix) in DatabaseValue.text(String(random.next() % 1000)) }
  var statements: [EditStatement] = []
  for _ in 0..<(1 + Int(random.next() % 3)) {
    let note = try pick("SELECT id FROM notes")
    serial += 1
    switch random.next() % 10 {
    case 0, 1, 2:
      statements.append(
        EditStatement(
          sql: "INSERT INTO notes(id, title, body) VALUES (?, ?, ?)",
          arguments: [.text("\(device)-n\(serial)"), word(&random), word(&random)]))
    case 3 where note != nil:
      statements.append(
        EditStatement(sql: "UPDATE notes SET title = ? WHERE id = ?", arguments: [word(&random), note!]))
    case 4 where note != nil:
      statements.append(
        EditStatement(sql: "UPDATE notes SET body = body || ? WHERE id = ?", arguments: [word(&random), note!]))
    case 5 where note != nil:
      statements.append(EditStatement(sql: "DELETE FROM notes WHERE id = ?", arguments: [note!]))
    case 6 where note != nil:
      statements.append(
        EditStatement(
          sql: "INSERT INTO tags(id, note_id, name) VALUES (?, ?, ?)",
          arguments: [.text("\(device)-t\(serial)"), note!, word(&random)]))
    case 7:
      if let tag = try pick("SELECT id FROM tags") {
        statements.append(EditStatement(sql: "DELETE FROM tags WHERE id = ?", arguments: [tag]))
      }
    case 8:
      statements.append(
        EditStatement(
          sql: "INSERT INTO counters(label, value) VALUES (?, ?)",
          arguments: [.text("\(device) counter"), .integer(Int64(random.next() % 100))]))
    default:
      if let counter = try pick("SELECT id FROM counters") {
        statements.append(
          EditStatement(sql: "UPDATE counters SET value = value + 1 WHERE id = ?", arguments: [counter]))
      }
    }
  }
  return statements
}

/// A seeded generator (SplitMix64), so that a seed replays a run.
private struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
