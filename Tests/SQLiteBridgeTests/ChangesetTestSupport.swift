import Foundation
import SQLiteBridge
import Testing

// Shared by the changeset tests (Changesets/), as ChangesetTestSupport.hpp
// is by the C++ ones: a schema with every value type, composite and text
// primary keys and a WITHOUT ROWID table; random transactions over it;
// whole-database comparisons; and the gate that keeps the test that hides
// the session extension apart from every other changeset test.

/// The tables the changeset tests change (each with a primary key), and one
/// without a key (which sessions cannot record).
let changesetSchema = """
  CREATE TABLE items (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB, n);
  CREATE TABLE pairs (a TEXT, b INTEGER, v, PRIMARY KEY (a, b));
  CREATE TABLE tags (name TEXT PRIMARY KEY, weight REAL NOT NULL DEFAULT 0, note TEXT) WITHOUT ROWID;
  CREATE TABLE plain (x, y);
  """

/// The keyed tables, each with the ORDER BY that lists its rows stably.
let keyedTables: [(table: String, order: String)] = [("items", "id"), ("pairs", "a, b"), ("tags", "name")]

/// Every row of every keyed table, each table's rows in key order (values
/// compared with their storage classes).
func keyedRows(_ db: Database) throws -> [[Row]] {
  try keyedTables.map { try db.rows("SELECT * FROM \($0.table) ORDER BY \($0.order)") }
}

/// A new database at `path` (":memory:" by default) holding the schema.
func openChangesetDatabase(_ path: String = ":memory:") throws -> Database {
  let db = try Database(path: path)
  try db.executeScript(changesetSchema)
  return db
}

/// A random value of any storage class (NULL, integers at the limits,
/// reals, text with a NUL inside, empty and non-empty blobs).
func randomValue(_ random: inout SeededGenerator) -> DatabaseValue {
  switch random.next() % 9 {
  case 0: return .null
  case 1: return .integer(Int64(random.next() % 1000) - 500)
  case 2: return .integer(random.next() % 2 == 0 ? .max : .min)
  case 3: return .real(Double(random.next() % 100_000) / 7)
  case 4: return .text("text \(random.next() % 50)")
  case 5: return .text("nul\0inside")
  case 6: return .blob(Data())
  case 7: return .blob(Data((0...(random.next() % 16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
  default: return .text("é \(random.next() % 7)")
  }
}

/// Runs one random write on `db`: an insert or replace, an update or a
/// delete in one of the keyed tables, keys from small ranges so that rows
/// collide.
func randomWrite(_ db: Database, _ random: inout SeededGenerator) throws {
  let table = random.next() % 3
  let action = random.next() % 4
  let key = DatabaseValue.integer(Int64(random.next() % 20))
  let textKey = DatabaseValue.text("k\(random.next() % 8)")
  switch table * 4 + action {
  case 0, 1:
    try db.execute(
      "INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?)",
      [
        key, .integer(Int64(random.next() % 100)), .real(Double(random.next() % 1000) / 3),
        randomValue(&random), randomValue(&random), randomValue(&random),
      ])
  case 2:
    try db.execute("UPDATE items SET t = ?, n = ? WHERE id = ?", [randomValue(&random), randomValue(&random), key])
  case 3:
    try db.execute("DELETE FROM items WHERE id = ?", [key])
  case 4, 5:
    try db.execute(
      "INSERT OR REPLACE INTO pairs VALUES (?, ?, ?)",
      [textKey, .integer(Int64(random.next() % 3)), randomValue(&random)])
  case 6:
    try db.execute("UPDATE pairs SET v = ? WHERE a = ?", [randomValue(&random), textKey])
  case 7:
    try db.execute("DELETE FROM pairs WHERE a = ? AND b = ?", [textKey, .integer(Int64(random.next() % 3))])
  case 8, 9:
    try db.execute(
      "INSERT OR REPLACE INTO tags VALUES (?, ?, ?)",
      [textKey, .real(Double(random.next() % 100) / 4), randomValue(&random)])
  case 10:
    try db.execute("UPDATE tags SET weight = weight + 1 WHERE name = ?", [textKey])
  default:
    try db.execute("DELETE FROM tags WHERE name = ?", [textKey])
  }
}

/// `count` random writes in one transaction.
func randomTransaction(_ db: Database, _ random: inout SeededGenerator, _ count: Int) throws {
  try db.inTransaction {
    for _ in 0..<count { try randomWrite(db, &random) }
    return .commit
  }
}

/// A copy of `db` (a file at `path`), made with VACUUM INTO.
func copyOf(_ db: Database, _ path: String) throws -> Database {
  try db.execute("VACUUM INTO ?", [.text(path)])
  return try Database(path: path)
}

/// The changeset `script` makes on a database holding `seed`.
func changesetOf(_ seed: String, _ script: String) throws -> Changeset {
  let db = try openChangesetDatabase()
  try db.executeScript(seed)
  let session = try DatabaseSession(db)
  try session.attachAll()
  try db.executeScript(script)
  return try session.changeset()
}

// MARK: Hiding the session extension

/// Whether the session extension is hidden is one flag for the whole process
/// (`ChangesetTesting::hideSessionExtension`), and Swift Testing runs
/// suites in parallel (`.serialized` orders only a suite's own tests): every
/// changeset suite holds this gate shared while it runs, and the suite that
/// hides the extension holds it alone, so that no other changeset test runs
/// meanwhile. A waiting exclusive holder goes before later shared ones.
actor SessionExtensionGate {
  static let shared = SessionExtensionGate()

  private var sharedHolders = 0
  private var heldAlone = false
  private var waiting: [(alone: Bool, resume: CheckedContinuation<Void, Never>)] = []

  /// Waits until the gate can be held (`alone`: by nobody else).
  func enter(alone: Bool) async {
    if waiting.isEmpty, canEnter(alone: alone) {
      take(alone: alone)
      return
    }
    await withCheckedContinuation { waiting.append((alone, $0)) }
  }

  /// Gives the gate up and lets in whoever waits and now can enter, in
  /// order.
  func leave(alone: Bool) {
    if alone { heldAlone = false } else { sharedHolders -= 1 }
    while let first = waiting.first, canEnter(alone: first.alone) {
      waiting.removeFirst()
      take(alone: first.alone)
      first.resume.resume()
    }
  }

  private func canEnter(alone: Bool) -> Bool { alone ? !heldAlone && sharedHolders == 0 : !heldAlone }

  private func take(alone: Bool) {
    if alone { heldAlone = true } else { sharedHolders += 1 }
  }
}

/// Runs a suite holding the `SessionExtensionGate` (shared, or alone).
struct SessionExtensionScope: SuiteTrait, TestScoping {
  let alone: Bool
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    await SessionExtensionGate.shared.enter(alone: alone)
    do {
      try await function()
    } catch {
      await SessionExtensionGate.shared.leave(alone: alone)
      throw error
    }
    await SessionExtensionGate.shared.leave(alone: alone)
  }
}

extension Trait where Self == SessionExtensionScope {
  /// For every suite that uses changesets: never runs while the session
  /// extension is hidden.
  static var usesSessionExtension: Self { SessionExtensionScope(alone: false) }
  /// For the suite that hides the session extension: runs while no other
  /// changeset suite does.
  static var hidesSessionExtension: Self { SessionExtensionScope(alone: true) }
}
