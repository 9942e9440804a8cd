import Foundation
import SQLiteBridge
import Testing

/// Sessions (`DatabaseSession`): what they record (named tables or all,
/// enabled or not, indirect), when they are empty, diffs against an
/// attached database, tables they cannot record, and a closed connection.
/// (SessionTests.cpp checks the same in C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct SessionTests {
  private func operations(_ session: DatabaseSession) throws -> [ChangesetOperation] {
    try session.changeset().operations()
  }

  @Test func recordsOnlyTheAttachedTables() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    #expect(session.isEmpty)
    try session.attach("pairs")
    try db.executeScript("INSERT INTO items(id, t) VALUES (1, 'a'); INSERT INTO pairs VALUES ('x', 1, NULL);")
    #expect(!session.isEmpty)
    let recorded = try operations(session)
    #expect(
      recorded == [
        ChangesetOperation(
          table: "pairs", kind: .insert, isIndirect: false, oldValues: [], newValues: [.text("x"), .integer(1), .null],
          primaryKey: [true, true, false])
      ])
    // NULL is a value, present.
    #expect(recorded.first?.newValues[2] == .some(.null))
  }

  @Test func anUpdateListsUnchangedColumnsAsNotPresentAndNullAsAValue() throws {
    let db = try openChangesetDatabase()
    try db.execute("INSERT INTO items VALUES (1, 10, 1.5, 'a', x'00', 'n')")
    let session = try DatabaseSession(db)
    try session.attachAll()
    try db.execute("UPDATE items SET t = NULL WHERE id = 1")
    let recorded = try operations(session)
    try #require(recorded.count == 1)
    let update = recorded[0]
    #expect(update.kind == .update)
    #expect(update.oldValues == [.integer(1), nil, nil, .text("a"), nil, nil])  // the key is always there
    #expect(update.newValues == [nil, nil, nil, .null, nil, nil])  // set to NULL: a NULL value
    #expect(update.oldValues[1] == nil)  // unchanged: not present
    #expect(update.newValues[3] == .some(.null))
  }

  @Test func everyValueTypeComesBackAsItWasWritten() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    try session.attachAll()
    let values: [DatabaseValue] = [
      .integer(.min), .real(-0.5), .text("nul\0inside é"), .blob(Data()), .blob(Data([0, 1, 255])),
    ]
    try db.execute("INSERT INTO items VALUES (?, ?, ?, ?, ?, ?)", [.integer(.max)] + values)
    #expect(try operations(session).first?.newValues == ([.integer(.max)] + values).map { $0 })
  }

  @Test func disabledChangesAreNotRecordedAndIndirectOnesAreMarked() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    try session.attachAll()
    #expect(session.isEnabled)
    session.isEnabled = false
    #expect(!session.isEnabled)
    try db.execute("INSERT INTO items(id) VALUES (1)")
    #expect(session.isEmpty)
    session.isEnabled = true
    #expect(!session.isIndirect)
    session.isIndirect = true
    #expect(session.isIndirect)
    try db.execute("INSERT INTO items(id) VALUES (2)")
    session.isIndirect = false
    try db.execute("INSERT INTO items(id) VALUES (3)")
    let recorded = try operations(session)
    #expect(recorded.count == 2)
    for operation in recorded {
      #expect(operation.isIndirect == (operation.newValues[0] == .integer(2)), "\(operation)")
    }
  }

  @Test func aRolledBackTransactionLeavesNoChange() throws {
    let db = try openChangesetDatabase()
    try db.execute("INSERT INTO items(id, t) VALUES (1, 'kept')")
    let session = try DatabaseSession(db)
    try session.attachAll()
    try db.executeScript(
      "BEGIN; INSERT INTO items(id) VALUES (2); UPDATE items SET t = 'gone' WHERE id = 1; "
        + "DELETE FROM items WHERE id = 1; ROLLBACK;")
    #expect(try operations(session).isEmpty)
  }

  @Test func aTableWithoutAPrimaryKeyIsRefusedAndAllSkipsIt() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    let error = databaseError { try session.attach("plain") }
    #expect(error?.resultCode == .error)
    #expect(error?.message.contains("no PRIMARY KEY") == true, "\(String(describing: error))")
    try session.attachAll()
    try db.executeScript("INSERT INTO plain VALUES (1, 2); INSERT INTO tags(name) VALUES ('t');")
    #expect(try operations(session).map(\.table) == ["tags"])
  }

  @Test func diffGivesTheChangesThatTurnAnAttachedTableIntoThisOne() throws {
    try withTemporaryDirectory { directory in
      let other = directory + "/other.db"
      try openChangesetDatabase(other).executeScript(
        "INSERT INTO items(id, t) VALUES (1, 'old'), (2, 'same'), (3, 'only there');")
      let db = try openChangesetDatabase(directory + "/main.db")
      try db.executeScript("INSERT INTO items(id, t) VALUES (1, 'new'), (2, 'same'), (4, 'only here');")
      try db.execute("ATTACH ? AS other", [.text(other)])
      let session = try DatabaseSession(db)
      try session.diff(from: "other", table: "items")
      let changes = try session.changeset()
      #expect(try changes.operations().map(\.kind).sorted { "\($0)" < "\($1)" } == [.delete, .insert, .update])
      try db.execute("DETACH other")
      let target = try Database(path: other)
      try target.apply(changes)
      let order = "SELECT id, t FROM items ORDER BY id"
      #expect(try target.rows(order) == db.rows(order))

      #expect(databaseError { try session.diff(from: "nowhere", table: "items") } != nil)
    }
  }

  @Test func aClosedDatabaseMakesEveryCallAMisuse() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    try session.attachAll()
    try db.execute("INSERT INTO items(id) VALUES (1)")
    db.close()
    let error = databaseError { _ = try session.changeset() }
    #expect(error?.resultCode == .misuse)
    #expect(error?.message.contains("closed") == true, "\(String(describing: error))")
    #expect(databaseError { _ = try session.patchset() }?.resultCode == .misuse)
    #expect(databaseError { try session.attach("items") }?.resultCode == .misuse)
    #expect(databaseError { try session.attachAll() }?.resultCode == .misuse)
    #expect(databaseError { try session.diff(from: "main", table: "items") }?.resultCode == .misuse)
    session.isEnabled = true
    session.isIndirect = true
    #expect(!session.isEnabled)
    #expect(!session.isIndirect)
    #expect(session.isEmpty)
  }

  @Test func aSessionOnALentDatabaseIsAMisuseOnceTheBlockReturns() throws {
    let queue = try DatabaseQueue(path: ":memory:")
    let session = try queue.write { db in
      try db.executeScript(changesetSchema)
      let session = try DatabaseSession(db)
      try session.attachAll()
      try db.execute("INSERT INTO items(id) VALUES (1)")
      #expect(try session.changeset().operations().count == 1)
      return session
    }
    #expect(databaseError { _ = try session.changeset() }?.resultCode == .misuse)
    #expect(!session.isEnabled)
  }

  /// Told of every commit (its `databaseDidCommit` gets a handle of the
  /// connection, closed after the call).
  private final class CommitCounter: TransactionObserver {
    var commits = 0
    func observes(eventsOfKind kind: DatabaseEventKind) -> Bool { true }
    func databaseDidCommit(_ db: Database) { commits += 1 }
  }

  @Test func aTransactionObserverOfTheDatabaseLeavesItRecording() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    try session.attachAll()
    let observer = CommitCounter()
    db.add(transactionObserver: observer)
    try db.execute("INSERT INTO items(id) VALUES (1)")
    try db.execute("INSERT INTO items(id) VALUES (2)")
    #expect(observer.commits == 2)
    #expect(session.isEnabled)
    #expect(try operations(session).count == 2)
  }

  @Test func onAClosedDatabaseItDoesNotStart() throws {
    let db = try openChangesetDatabase()
    db.close()
    #expect(databaseError { _ = try DatabaseSession(db) }?.resultCode == .misuse)
  }
}
