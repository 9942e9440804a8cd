import Foundation
import SQLiteBridge
import Testing

/// Changeset values: bad bytes refused with a corrupt error, the empty
/// changeset, and rebasing a local changeset over remote changes applied
/// with conflicts. (ChangesetValueTests.cpp checks the same in C++; its
/// test without the session extension is SessionExtensionUnavailableTests
/// here.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct ChangesetValueTests {
  @Test func bytesThatAreNotAChangesetAreCorrupt() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    try session.attachAll()
    try db.execute("INSERT INTO items VALUES (1, 2, 3.5, 'text', x'0102', NULL)")
    let bytes = try session.changeset().data
    var wrongCount = bytes
    wrongCount[wrongCount.startIndex + 1] = 0x7f  // more columns than the record holds
    let bad: [Data] = [
      Data("x".utf8), Data("hello, world".utf8), Data([0x54, 0x03, 0x01, 0x00] + Array("items".utf8)),
      bytes.dropLast(3), bytes + Data("T".utf8), wrongCount,
    ]
    for candidate in bad {
      let error = databaseError { _ = try Changeset(data: candidate) }
      #expect(error?.resultCode == .corrupt, "\(candidate.count) bytes: \(String(describing: error))")
    }
  }

  @Test func noBytesMakeTheEmptyChangeset() throws {
    let empty = try Changeset(data: Data())
    #expect(empty.data.isEmpty)
    #expect(!empty.isPatchset)
    #expect(try empty.operations().isEmpty)
    #expect(try empty.inverted().data.isEmpty)
    #expect(try empty.concatenated(with: empty) == empty)
    let db = try openChangesetDatabase()
    #expect(try db.apply(empty).isEmpty)
  }

  @Test func aRebasedLocalChangesetKeepsTheRemoteWinnersOnBothSides() throws {
    try withTemporaryDirectory { directory in
      let seed = "INSERT INTO items(id, t, n) VALUES (1, 'original', 'n0'), (2, 'two', NULL);"
      let local = try openChangesetDatabase(directory + "/local.db")
      let remote = try openChangesetDatabase(directory + "/remote.db")
      try local.executeScript(seed)
      try remote.executeScript(seed)
      let localSession = try DatabaseSession(local)
      try localSession.attachAll()
      try local.executeScript("UPDATE items SET t = 'local', n = 'local n' WHERE id = 1;")
      let localChanges = try localSession.changeset()
      let remoteSession = try DatabaseSession(remote)
      try remoteSession.attachAll()
      try remote.executeScript("UPDATE items SET t = 'remote' WHERE id = 1;")
      let remoteChanges = try remoteSession.changeset()

      // The remote change wins over the local one here...
      let rebaseData = try local.apply(remoteChanges) { conflict in conflict.kind == .data ? .replace : .abort }
      #expect(!rebaseData.isEmpty)
      // ...and the local change, rebased, keeps it there.
      var rebaser = ChangesetRebaser()
      try rebaser.configure(with: rebaseData)
      let rebased = try rebaser.rebase(localChanges)
      try remote.apply(rebased) { _ in .replace }
      let order = "SELECT * FROM items ORDER BY id"
      #expect(try local.rows(order) == remote.rows(order))
      #expect(try text(remote, "SELECT t || '/' || n FROM items WHERE id = 1") == "remote/local n")

      // Without rebasing, the local change would overwrite the winner.
      let stale = try openChangesetDatabase()
      try stale.executeScript(seed + "UPDATE items SET t = 'remote' WHERE id = 1;")
      try stale.apply(localChanges) { _ in .replace }
      #expect(try text(stale, "SELECT t FROM items WHERE id = 1") == "local")

      // A rebaser configured with nothing changes nothing; bad data is refused.
      #expect(try ChangesetRebaser().rebase(localChanges) == localChanges)
      var broken = ChangesetRebaser()
      let error = databaseError { try broken.configure(with: Data("not rebase data".utf8)) }
      #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
      let patchError = databaseError { _ = try rebaser.rebase(try localSession.patchset()) }
      #expect(patchError?.resultCode == .misuse)
    }
  }

}

/// Never skipped: the changeset suites skip where SQLite has no session
/// extension, and this holds that to the engine's own compile options (every
/// engine the CI builds has it).
@Suite struct SessionExtensionAvailabilityTests {
  @Test func availabilityFollowsTheEnginesCompileOptions() {
    #expect(Changeset.isAvailable == Database.compileOptions().contains("ENABLE_SESSION"))
  }
}
