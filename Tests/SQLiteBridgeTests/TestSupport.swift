import Foundation
import SQLiteBridge
import Testing

/// The path of `name` in `Tests/Fixtures/`, the data both test suites read.
/// Found from this file, which stays at the top of the Swift test folder
/// (the tests themselves live one folder down, by concern).
func fixturePath(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// Creates a fresh, empty directory under the temporary folder and returns
/// its path; the caller removes it (async tests, where a closure cannot
/// await). Throws when it cannot be created.
func makeTemporaryDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("SQLiteBridgeTests-\(UUID().uuidString)", isDirectory: true).path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  return path
}

/// Runs `body` with the path of a fresh, empty directory that is removed
/// (with everything in it) when `body` returns or throws.
func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
  let path = try makeTemporaryDirectory()
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

/// Runs `body` with two fresh sibling directories, `documents` and `bundle`,
/// inside one temporary root (passed too, to check that nothing escapes).
func withLocationDirectories<Result>(
  _ body: (_ root: String, _ documents: String, _ bundle: String) throws -> Result
) throws -> Result {
  try withTemporaryDirectory { root in
    let documents = root + "/documents"
    let bundle = root + "/bundle"
    try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: false)
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: false)
    return try body(root, documents, bundle)
  }
}

/// The names in `directory` (hidden files included), sorted.
func directoryContents(_ directory: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

/// Whether a file (or directory) exists at `path`.
func fileExists(_ path: String) -> Bool {
  FileManager.default.fileExists(atPath: path)
}

/// The bytes of the file at `path`.
func fileBytes(_ path: String) throws -> Data {
  try Data(contentsOf: URL(fileURLWithPath: path))
}

/// A new in-memory database.
func memoryDatabase() throws -> Database {
  try Database(path: ":memory:")
}

/// Creates a database file at `path` holding what `script` makes, and closes
/// it again.
func makeDatabaseFile(at path: String, script: String) throws {
  let database = try Database(path: path, mode: .readWriteCreate)
  try database.executeScript(script)
}

/// Every schema object (type, name, table, SQL), ordered, for comparing the
/// schema before and after an operation.
func schemaSnapshot(_ database: Database) throws -> [[String: DatabaseValue]] {
  try database.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
}

/// Whether the SQLite the suite runs on is at least `number` (as
/// SQLITE_VERSION_NUMBER counts: 3_038_000 is 3.38.0), for tests of SQL
/// newer than the oldest SQLite the library runs on (3.37.0, which
/// SQLiteMinimumTests checks).
func sqliteIsAtLeast(_ number: Int) -> Bool {
  let parts = Database.sqliteVersion.split(separator: ".").compactMap { Int($0) }
  guard parts.count == 3 else { return false }
  return parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2] >= number
}

/// Whether SQLite was compiled with `option` ("ENABLE_FTS5"), which a build
/// of SQLite may leave out.
func sqliteHasCompileOption(_ option: String) -> Bool { Database.compileOptions().contains(option) }

/// Every row of `table`, ordered by rowid.
func tableSnapshot(_ database: Database, _ table: String) throws -> [Row] {
  try database.rows("SELECT * FROM \"\(table)\" ORDER BY rowid")
}

/// The single value `sql` returns (first column of the first row).
func scalar(_ database: Database, _ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue {
  let rows = try database.rows(sql, arguments)
  let row = try #require(rows.first, "\(sql) returned no row")
  return row[0]
}

/// The names of the tables (not indexes, views or triggers) in `database`.
func tableNames(_ database: Database) throws -> [String] {
  try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { row in
    guard case .text(let name) = row[0] else { return "" }
    return name
  }
}

/// The error `body` throws, which must be a `DatabaseError`.
func databaseError(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> DatabaseError? {
  do {
    try body()
    Issue.record("expected a DatabaseError, but nothing was thrown", sourceLocation: sourceLocation)
    return nil
  } catch let error as DatabaseError {
    return error
  } catch {
    Issue.record("expected a DatabaseError, got \(error)", sourceLocation: sourceLocation)
    return nil
  }
}

/// SplitMix64: a reproducible random sequence from a seed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension SeededGenerator {
  /// A number in `0..<n`.
  mutating func pick(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
