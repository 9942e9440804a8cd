import Foundation
import SQLiteBridge
import SQLiteBridgeCore
import SQLiteBridgeCore.Testing
import Testing

/// Every changeset call where SQLite has no session extension, hidden by
/// the core's test switch; it holds the gate alone (no other changeset
/// suite runs meanwhile: the switch is the whole process's) and shows the
/// extension again however it ends. (ChangesetValueTests.cpp,
/// WithoutTheSessionExtensionEveryCallSaysSo, checks the same in C++.)
@Suite(
  .hidesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct SessionExtensionUnavailableTests {
  @Test func withoutTheSessionExtensionEveryCallSaysSo() throws {
    let db = try openChangesetDatabase()
    let before = try DatabaseSession(db)
    try before.attachAll()
    try db.execute("INSERT INTO items(id) VALUES (1)")
    let changes = try before.changeset()
    let rebaseData = try openChangesetDatabase().apply(changes)
    #expect(Changeset.isAvailable)

    sqlitebridge.interop.ChangesetTesting.hideSessionExtension(true)
    defer { sqlitebridge.interop.ChangesetTesting.hideSessionExtension(false) }
    #expect(!Changeset.isAvailable)
    func expectMissing(_ error: DatabaseError?, sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(error?.resultCode == .error, sourceLocation: sourceLocation)
      #expect(
        error?.message.contains("session extension is not available") == true, "\(String(describing: error))",
        sourceLocation: sourceLocation)
      #expect(
        error?.message.contains("SQLITE_ENABLE_SESSION") == true, "\(String(describing: error))",
        sourceLocation: sourceLocation)
    }
    expectMissing(databaseError { _ = try DatabaseSession(db) })
    expectMissing(databaseError { _ = try Changeset(data: changes.data) })
    expectMissing(databaseError { _ = try changes.inverted() })
    expectMissing(databaseError { _ = try changes.concatenated(with: changes) })
    expectMissing(databaseError { _ = try changes.operations() })
    expectMissing(databaseError { _ = try before.changeset() })
    expectMissing(databaseError { _ = try before.patchset() })
    let target = try openChangesetDatabase()
    expectMissing(databaseError { try target.apply(changes) })
    #expect(try integer(target, "SELECT count(*) FROM items") == 0)
    var rebaser = ChangesetRebaser()
    expectMissing(databaseError { try rebaser.configure(with: rebaseData) })
    expectMissing(databaseError { _ = try rebaser.rebase(changes) })
    let queue = try DatabaseQueue(path: ":memory:")
    expectMissing(databaseError { _ = try UndoHistory(queue) })
  }
}
