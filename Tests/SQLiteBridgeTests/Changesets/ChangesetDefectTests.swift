import Foundation
import SQLiteBridge
import Testing

/// What fuzzing found SQLite 3.40.1's session extension does with bytes or
/// tables it should refuse, each refused by the core: a table whose primary
/// key columns come in another order, a table given two shapes by two
/// headers in a row, an update whose key value is undefined, patchset-shaped
/// rebase data. (ChangesetDefectTests.cpp checks the same in C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct ChangesetDefectTests {
  /// The changeset (or patchset) `script` makes after `schema`.
  private func recorded(_ schema: String, _ script: String, patchset: Bool = false) throws -> Changeset {
    let db = try Database(path: ":memory:")
    try db.executeScript(schema)
    let session = try DatabaseSession(db)
    try session.attachAll()
    try db.executeScript(script)
    return patchset ? try session.patchset() : try session.changeset()
  }

  @Test func aTableWhosePrimaryKeyColumnsComeInAnotherOrderIsRefused() throws {
    let changes = try recorded(
      "CREATE TABLE pairs (a TEXT, b INTEGER, v, PRIMARY KEY (a, b));", "INSERT INTO pairs VALUES ('x', 1, 2);")
    let target = try Database(path: ":memory:")
    try target.execute("CREATE TABLE pairs (a TEXT, b INTEGER, v, PRIMARY KEY (b, a))")
    let error = databaseError { _ = try target.apply(changes) }
    #expect(error?.resultCode == .schema, "\(String(describing: error))")
    #expect(error?.message.contains("\"pairs\"") == true)
    #expect(try target.execute("SELECT count(*) AS n FROM pairs") == [["n": .integer(0)]])
  }

  @Test func twoHeadersInARowGivingATableTwoShapesAreCorrupt() throws {
    let narrow = try recorded("CREATE TABLE t (a INTEGER PRIMARY KEY, b);", "INSERT INTO t VALUES (1, 'x');")
    let wide = try recorded("CREATE TABLE t (a INTEGER PRIMARY KEY, b, c);", "INSERT INTO t VALUES (2, 'y', 'z');")
    let error = databaseError { _ = try Changeset(data: narrow.data + wide.data) }
    #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
    #expect(error?.message.contains("other columns") == true)
  }

  @Test func anUpdateWhoseKeyValueIsUndefinedIsCorrupt() throws {
    let update = try recorded(
      "CREATE TABLE t (a INTEGER PRIMARY KEY, b); INSERT INTO t VALUES (1, 'x');", "UPDATE t SET b = 'y' WHERE a = 1;")
    // 'T', 2 columns, key flags 1 0, "t\0", UPDATE, not indirect, then the
    // old record: the key's integer (a type byte and 8 bytes) made undefined.
    let bytes = [UInt8](update.data)
    try #require(Array(bytes.prefix(9)) == [0x54, 0x02, 0x01, 0x00, 0x74, 0x00, 0x17, 0x00, 0x01])
    let broken = Data(bytes[..<8] + [0x00] + bytes[17...])
    let error = databaseError { _ = try Changeset(data: broken) }
    #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
    #expect(error?.message.contains("primary key value is undefined") == true)
  }

  @Test func patchsetShapedRebaseDataIsCorrupt() throws {
    let patchset = try recorded(
      "CREATE TABLE t (a INTEGER PRIMARY KEY, b); INSERT INTO t VALUES (1, 'x');", "DELETE FROM t WHERE a = 1;",
      patchset: true)
    #expect(patchset.isPatchset)
    var rebaser = ChangesetRebaser()
    let error = databaseError { try rebaser.configure(with: patchset.data) }
    #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
  }
}
