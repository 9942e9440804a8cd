import Foundation
import SQLiteBridge
import Testing

/// The sync engine's rules from Swift, each forced deterministically:
/// recording in the committing transaction, convergence of two devices,
/// the conditional push (a log that moved, an answer lost, a hub that
/// throws), conflicts under both policies, delete against update, integer
/// keys that collide, foreign keys kept, schema mismatches and tables
/// without a key refused, one commit per round, pools, other writers.
/// (SyncEngineTests.cpp checks the same in C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct SyncEngineTests {
  @Test func eachCommittedTransactionOfSyncedTablesIsOnePendingChange() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    try phone.write("UPDATE notes SET title = 'uno' WHERE id = 'n1'")
    try phone.write("INSERT INTO local_settings(key, value) VALUES ('theme', 'dark')")  // not synced
    #expect(try phone.pending() == 2)
    let sequences = try phone.queue.read { db in
      try db.rows("SELECT sequence FROM sqlitebridge_sync_pending ORDER BY sequence").map(\.values)
    }
    #expect(sequences == [[.integer(1)], [.integer(2)]])
  }

  @Test func aChangeCommittedWithoutTheLibraryIsRefusedNotLost() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let error = databaseError {
      try phone.queue.writeWithoutTransaction { db in
        _ = try db.execute("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
      }
    }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(error?.message.contains("committed without the library") == true, "\(String(describing: error))")
    #expect(try phone.pending() == 0)
    #expect(try phone.rows() == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func twoDevicesConvergeThroughTheHub() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try phone.write("INSERT INTO notes(id, title) VALUES ('p1', 'from phone')")
    try laptop.write("INSERT INTO notes(id, title) VALUES ('l1', 'from laptop')")
    try laptop.write("INSERT INTO tags(id, note_id, name) VALUES ('t1', 'l1', 'work')")

    let first = try await phone.sync()
    #expect(first.pushed == 1)
    #expect(first.pulled == 0)
    #expect(first.rounds == 1)
    let second = try await laptop.sync()
    #expect(second.pulled == 1)
    #expect(second.pushed == 2)
    #expect(second.conflicts.isEmpty)
    let third = try await phone.sync()
    #expect(third.pulled == 2)
    #expect(third.pushed == 0)

    #expect(try phone.rows() == laptop.rows())
    #expect(
      try phone.rows() == [
        "-- notes", "l1|from laptop|", "p1|from phone|", "-- tags", "t1|l1|work", "-- counters",
      ])
    #expect(try phone.pending() == 0)
    #expect(try laptop.pending() == 0)
    let entries = try await world.log()
    try #require(entries.count == 3)
    #expect(entries.map(\.position) == [1, 2, 3])
    #expect(entries[0].device == "phone")
    #expect(entries[0].sequence == 1)
    #expect(entries[1].device == "laptop")
    #expect(entries[1].sequence == 1)
    #expect(entries[2].sequence == 2)
  }

  @Test func aPushRefusedBecauseTheLogMovedPullsAgainAndRebases() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    let hooked = HookedHub(world.hub)
    let tablet = try world.device("tablet", hub: hooked)
    try tablet.write("INSERT INTO notes(id, title) VALUES ('n1', 'tablet')")
    try phone.write("INSERT INTO notes(id, title) VALUES ('n2', 'phone')")
    // Between the tablet's pull and its push, the phone pushes: the
    // tablet's conditional append must be refused, and it pulls again.
    let moved = Locked(false)
    hooked.beforeAppend = {
      if moved.withLock({ wasMoved in
        defer { wasMoved = true }
        return !wasMoved
      }) {
        try await phone.sync()
      }
    }
    let report = try await tablet.sync()
    #expect(report.rounds == 2)
    #expect(report.pulled == 1)
    #expect(report.pushed == 1)
    #expect(hooked.appends == 2)
    try await laptop.sync()
    try await phone.sync()
    #expect(try tablet.rows() == phone.rows())
    #expect(try laptop.rows() == phone.rows())
    #expect(try await world.log().count == 2)
  }

  @Test func aLogThatMovesBeforeEachOfTenPushesFailsWithBusyKeepingThePendingChange() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let hooked = HookedHub(world.hub)
    let tablet = try world.device("tablet", hub: hooked)
    try tablet.write("INSERT INTO notes(id, title) VALUES ('t1', 'tablet')")
    // Before each of the tablet's pushes, the phone pushes a change.
    let moves = Locked(0)
    hooked.beforeAppend = {
      let index = moves.withLock { count in
        count += 1
        return count
      }
      try phone.write("INSERT INTO notes(id, title) VALUES ('p\(index)', 'phone')")
      try await phone.sync()
    }
    let error = await asyncDatabaseError { try await tablet.sync() }
    #expect(error?.resultCode == .busy, "\(String(describing: error))")
    #expect(hooked.appends == 10)
    #expect(try tablet.pending() == 1)
    #expect(try await world.log().map(\.device) == Array(repeating: "phone", count: 10))
    // Once the log stands still, the change goes through.
    hooked.beforeAppend = nil
    let report = try await tablet.sync()
    #expect(report.pushed == 1)
    #expect(report.pulled == 1)  // the phone's tenth change (the first nine came with the failed sync)
    #expect(try await phone.sync().pulled == 1)
    #expect(try tablet.rows() == phone.rows())
    #expect(try tablet.rows().count == 11 + 3)
  }

  @Test func anAppendWhoseAnswerWasLostIsNotAppendedTwice() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let hooked = HookedHub(world.hub)
    let phone = try world.device("phone", hub: hooked)
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    hooked.afterAppend = { throw HubUnavailable() }  // appended, but the answer is lost
    let error = await thrownError { try await phone.sync() }
    #expect(error as? HubUnavailable == HubUnavailable(), "\(String(describing: error))")
    #expect(try phone.pending() == 1)  // in doubt: kept
    hooked.afterAppend = nil
    let retry = try await phone.sync()
    #expect(retry.pushed == 0)  // found in the log, acknowledged
    #expect(retry.pulled == 0)
    #expect(try phone.pending() == 0)
    let entries = try await world.log()
    try #require(entries.count == 1)
    #expect(entries[0].device == "phone")
    #expect(entries[0].sequence == 1)
    // A later change is numbered on.
    try phone.write("INSERT INTO notes(id, title) VALUES ('n2', 'two')")
    try await phone.sync()
    let after = try await world.log()
    try #require(after.count == 2)
    #expect(after[1].sequence == 2)
  }

  @Test func aHubThatThrowsKeepsThePendingChangesAndItsErrorIsThrownUnchanged() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let hooked = HookedHub(world.hub)
    let phone = try world.device("phone", hub: hooked)
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    let failure = HubUnavailable(reason: "the server answered 503")
    hooked.beforeEntries = { throw failure }
    let error = await thrownError { try await phone.sync() }
    #expect(error as? HubUnavailable == failure, "\(String(describing: error))")
    #expect(try phone.pending() == 1)
    #expect(hooked.appends == 0)
    // The failed round is over: the next one runs (no "another round is
    // running") and pushes what was kept.
    hooked.beforeEntries = nil
    #expect(try await phone.sync().pushed == 1)
    #expect(try phone.pending() == 0)
  }

  @Test func theSameRowEditedOnTwoDevicesEndsAsTheLaterInTheHubsOrder() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["UPDATE notes SET title = 'phone title' WHERE id = 'n1'"],
      laptopEdits: ["UPDATE notes SET title = 'laptop title', body = 'laptop body' WHERE id = 'n1'"])
    let report = try await laptop.sync()  // the laptop's update comes later in the log
    #expect(kinds(report) == [.data])
    #expect(report.conflicts.first?.operation?.table == "notes")
    #expect(try await converged(phone, laptop)[1] == "n1|laptop title|laptop body")
  }

  @Test func editsOfDifferentColumnsOfOneRowBothSurvive() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["UPDATE notes SET title = 'phone title' WHERE id = 'n1'"],
      laptopEdits: ["UPDATE notes SET body = 'laptop body' WHERE id = 'n1'"])
    #expect(try await laptop.sync().conflicts.isEmpty)
    #expect(try await converged(phone, laptop)[1] == "n1|phone title|laptop body")
  }

  @Test func aCustomPolicyDecidesAndIsToldTheChangeIsLocal() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let told = Locked<[Bool]>([])
    let laptop = try world.device(
      "laptop",
      policy: .custom { conflict, isLocal in
        told.withLock { $0.append(isLocal) }
        // The hub's version wins over this device's edits.
        return conflict.kind == .data ? .omit : .abort
      })
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["UPDATE notes SET title = 'phone title' WHERE id = 'n1'"],
      laptopEdits: ["UPDATE notes SET title = 'laptop title' WHERE id = 'n1'"])
    let report = try await laptop.sync()
    #expect(told.current == [true])
    #expect(kinds(report) == [.data])
    #expect(try await converged(phone, laptop)[1] == "n1|phone title|body")
    let log = try await world.log()
    try #require(log.count == 3)  // the overruled transaction is in the log, empty
    #expect(log[2].changeset.data.isEmpty)
  }

  @Test func aCustomPolicyLeavesWhatItDoesNotDecideToTheHubOrderRule() async throws {
    let rule: [(ChangesetConflictKind, ChangesetConflictResolution)] = [
      (.data, .replace), (.conflict, .replace), (.notFound, .omit), (.constraint, .omit), (.foreignKey, .omit),
    ]
    for (kind, answer) in rule {
      let conflict = ChangesetConflict(kind: kind, operation: nil, conflictingValues: nil)
      #expect(SyncConflictPolicy.hubOrderWinsResolution(conflict, isLocal: true) == answer, "\(kind)")
      #expect(SyncConflictPolicy.hubOrderWinsResolution(conflict, isLocal: false) == answer, "\(kind)")
    }
    // Keeps the hub's version of an edited row; a key inserted on both
    // devices goes by the default (this device's insert, later in the log).
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device(
      "laptop",
      policy: .custom { conflict, isLocal in
        conflict.kind == .data ? .omit : SyncConflictPolicy.hubOrderWinsResolution(conflict, isLocal: isLocal)
      })
    try await editBothThenSync(
      phone, laptop,
      phoneEdits: [
        "UPDATE notes SET title = 'phone title' WHERE id = 'n1'", "INSERT INTO notes VALUES ('n9', 'phone n9', '')",
      ],
      laptopEdits: [
        "UPDATE notes SET title = 'laptop title' WHERE id = 'n1'", "INSERT INTO notes VALUES ('n9', 'laptop n9', '')",
      ])
    let report = try await laptop.sync()
    #expect(kinds(report) == [.data, .conflict])
    let rows = try await converged(phone, laptop)
    #expect(rows[1] == "n1|phone title|body")
    #expect(rows[2] == "n9|laptop n9|")
  }

  @Test func aCustomPolicyThatAbortsLeavesTheCopyAsItWas() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop", policy: .custom { _, _ in .abort })
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["UPDATE notes SET title = 'phone title' WHERE id = 'n1'"],
      laptopEdits: ["UPDATE notes SET title = 'laptop title' WHERE id = 'n1'"])
    let before = try laptop.rows()
    let error = await asyncDatabaseError { try await laptop.sync() }
    #expect(error?.resultCode == .abort, "\(String(describing: error))")
    #expect(try laptop.rows() == before)
    #expect(try laptop.pending() == 1)
  }

  @Test func aCustomPolicyReplacingAConflictThatCannotBeReplacedIsAMisuse() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let told = Locked<[ChangesetConflictKind]>([])
    let laptop = try world.device(
      "laptop",
      policy: .custom { conflict, _ in
        told.withLock { $0.append(conflict.kind) }
        return .replace
      })
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["DELETE FROM notes WHERE id = 'n1'"],
      laptopEdits: ["UPDATE notes SET title = 'edited' WHERE id = 'n1'"])
    let before = try laptop.rows()
    let error = await asyncDatabaseError { try await laptop.sync() }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(told.current == [.notFound])
    #expect(try laptop.rows() == before)
    #expect(try laptop.pending() == 1)
  }

  @Test func anUpdateOfARowDeletedEarlierInTheLogIsDropped() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["DELETE FROM notes WHERE id = 'n1'"],
      laptopEdits: ["UPDATE notes SET title = 'edited' WHERE id = 'n1'"])
    let report = try await laptop.sync()
    #expect(kinds(report) == [.notFound])
    #expect(try await converged(phone, laptop) == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func aDeleteLaterInTheLogThanAnUpdateStaysDeleted() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["UPDATE notes SET title = 'edited' WHERE id = 'n1'"],
      laptopEdits: ["DELETE FROM notes WHERE id = 'n1'"])
    let report = try await laptop.sync()
    #expect(kinds(report) == [.data])
    #expect(try await converged(phone, laptop) == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func integerKeysThatCollideAreAConflictInTheReportNeverACrash() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try phone.write("INSERT INTO counters(label, value) VALUES ('phone steps', 10)")
    try laptop.write("INSERT INTO counters(label, value) VALUES ('laptop steps', 20)")
    try await phone.sync()
    let report = try await laptop.sync()
    #expect(kinds(report) == [.conflict])
    #expect(report.conflicts.first?.conflictingValues?[1] == .text("phone steps"))
    #expect(try await converged(phone, laptop)[3] == "1|laptop steps|20")
  }

  @Test func aChildAddedUnderAParentDeletedEarlierInTheLogIsDroppedAndReported() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["DELETE FROM notes WHERE id = 'n1'"],
      laptopEdits: [
        "INSERT INTO notes(id, title) VALUES ('n2', 'kept')",
        "INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'orphan')",
      ])
    let report = try await laptop.sync()
    try #require(kinds(report) == [.foreignKey])
    let operation = try #require(report.conflicts[0].operation)
    #expect(operation.table == "tags")
    #expect(operation.kind == .insert)
    #expect(try await converged(phone, laptop) == ["-- notes", "n2|kept|", "-- tags", "-- counters"])
    #expect(try await laptop.queue.read { db in try db.rows("PRAGMA foreign_key_check") }.isEmpty)
  }

  @Test func anEntryWithMoreColumnsThanATableHereFailsNamingTheTableAndColumn() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let laptop = try world.device("laptop")
    try laptop.write("INSERT INTO notes(id, title) VALUES ('n1', 'old shape')")
    try await laptop.sync()
    // The phone migrated: notes has one more column.
    let phonePath = world.path("phone.sqlite")
    try SyncDevice.prepare(phonePath)
    try makeDatabaseFile(at: phonePath, script: "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
    let phone = try SyncDevice(path: phonePath, name: "phone", hub: world.hub)
    try phone.write("INSERT INTO notes(id, title, pinned) VALUES ('n2', 'pinned', 1)")
    // The migrated device reads entries made before its migration.
    let migrated = try await phone.sync()
    #expect(migrated.pulled == 1)
    #expect(migrated.pushed == 1)
    #expect(try phone.rows()[1] == "n1|old shape||0")
    // The device that did not migrate cannot read the new entry.
    let before = try laptop.rows()
    let error = await asyncDatabaseError { try await laptop.sync() }
    #expect(error?.resultCode == .schema, "\(String(describing: error))")
    #expect(error?.message.contains("table notes") == true, "\(String(describing: error))")
    #expect(error?.message.contains("a column after body is missing here") == true, "\(String(describing: error))")
    #expect(try laptop.rows() == before)
  }

  @Test func aTableWithoutAPrimaryKeyIsRefusedNamingIt() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let path = world.path("device.sqlite")
    try SyncDevice.prepare(path)
    try makeDatabaseFile(at: path, script: "CREATE TABLE events(at TEXT, what TEXT)")
    let queue = try DatabaseQueue(path: path)
    let keyless = databaseError {
      _ = try SyncEngine(queue, tables: ["notes", "events"], device: "phone", hub: world.hub)
    }
    #expect(keyless?.resultCode == .error, "\(String(describing: keyless))")
    #expect(
      keyless?.message.contains("table events has no PRIMARY KEY") == true, "\(String(describing: keyless))")
    let missing = databaseError { _ = try SyncEngine(queue, tables: ["nope"], device: "phone", hub: world.hub) }
    #expect(missing?.message.contains("no such table: nope") == true, "\(String(describing: missing))")
    // Nothing was recorded by the engines that did not start.
    try queue.write { db in _ = try db.execute("INSERT INTO notes(id, title) VALUES ('n1', 'x')") }
    let engine = try SyncEngine(queue, tables: syncedTables, device: "phone", hub: world.hub)
    #expect(try engine.pendingCount == 0)
  }

  @Test func aDatabaseSyncsAsOneDeviceOnly() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let path = world.path("device.sqlite")
    do { _ = try SyncDevice(path: path, name: "phone", hub: world.hub) }
    let queue = try DatabaseQueue(path: path)
    let error = databaseError { _ = try SyncEngine(queue, tables: syncedTables, device: "laptop", hub: world.hub) }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(error?.message.contains("syncs as device 'phone'") == true, "\(String(describing: error))")
  }

  @Test func noTableAndAnEmptyDeviceNameAreMisuses() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let path = world.path("device.sqlite")
    try SyncDevice.prepare(path)
    let queue = try DatabaseQueue(path: path)
    let noTable = databaseError { _ = try SyncEngine(queue, tables: [], device: "phone", hub: world.hub) }
    #expect(noTable?.resultCode == .misuse, "\(String(describing: noTable))")
    let noName = databaseError { _ = try SyncEngine(queue, tables: syncedTables, device: "", hub: world.hub) }
    #expect(noName?.resultCode == .misuse, "\(String(describing: noName))")
  }

  @Test func observersSeeOneCommitPerRound() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    for index in 0..<3 { try phone.write("INSERT INTO notes(id, title) VALUES ('p\(index)', 'x')") }
    try laptop.write("INSERT INTO notes(id, title) VALUES ('l1', 'y')")
    try laptop.write("INSERT INTO notes(id, title) VALUES ('l2', 'z')")
    try await phone.sync()
    let counter = CommitCounter(table: "notes")
    try laptop.queue.writeWithoutTransaction { db in db.add(transactionObserver: counter, extent: .databaseLifetime) }
    let report = try await laptop.sync()
    #expect(report.pulled == 3)
    #expect(report.pushed == 2)
    _ = try await laptop.queue.read { _ in 0 }  // a safe point: observers told
    try laptop.queue.writeWithoutTransaction { _ in }
    #expect(counter.commits.current == 1)
  }

  @Test func anEngineOnAPoolSyncsToo() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let path = world.path("pool.sqlite")
    try SyncDevice.prepare(path)
    let pool = try DatabasePool(path: path)
    let engine = try SyncEngine(pool, tables: syncedTables, device: "desktop", hub: world.hub)
    try await pool.write { db in _ = try db.execute("INSERT INTO notes(id, title) VALUES ('d1', 'x')") }
    #expect(try engine.pendingCount == 1)
    let report = try await engine.sync()
    #expect(report.pushed == 1)
    #expect(try await phone.sync().pulled == 1)
    #expect(try phone.rows()[1] == "d1|x|")
    #expect(try engine.pendingCount == 0)
  }

  @Test func aWriterOfAnotherTypeIsAMisuseNamingIt() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let path = world.path("device.sqlite")
    try SyncDevice.prepare(path)
    let writer = ForwardingWriter(try DatabaseQueue(path: path))
    let error = databaseError { _ = try SyncEngine(writer, tables: syncedTables, device: "phone", hub: world.hub) }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(error?.message.contains("sync engines") == true, "\(String(describing: error))")
    #expect(error?.message.contains("ForwardingWriter") == true, "\(String(describing: error))")
  }

  @Test func insideOneOfTheWritersBlocksPendingCountIsAMisuse() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    let error = try phone.queue.write { _ in databaseError { _ = try phone.engine.pendingCount } }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(try phone.pending() == 1)
  }

  @Test func aLogLongerThanOnePageIsPulledPageByPage() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let hooked = HookedHub(world.hub)
    let laptop = try world.device("laptop", hub: hooked)
    for index in 0..<600 { try phone.write("INSERT INTO counters(label, value) VALUES ('c', \(index))") }
    #expect(try await phone.sync().pushed == 600)
    let report = try await laptop.sync()
    #expect(report.pulled == 600)
    #expect(report.rounds == 1)
    #expect(hooked.entryReads == 2)  // 500, then the 100 left
    #expect(try laptop.rows() == phone.rows())
    #expect(try laptop.rows().count == 603)
  }

  @Test func aHubAnsweringWithAGapFailsTheSyncWithCorrupt() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    try phone.write("INSERT INTO notes(id, title) VALUES ('n2', 'two')")
    try await phone.sync()
    let gapped = GappedHub(inner: world.hub)
    let laptop = try world.device("laptop", hub: gapped)
    let error = await asyncDatabaseError { try await laptop.sync() }
    #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
    #expect(error?.message.contains("no gap") == true, "\(String(describing: error))")
    #expect(try laptop.rows() == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func aHubAnsweringMoreEntriesThanAskedForFailsTheSync() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone", hub: OverflowingHub())
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    let before = try phone.rows()
    let error = await asyncDatabaseError { try await phone.sync() }
    #expect(error?.resultCode == .error, "\(String(describing: error))")
    #expect(error?.message.contains("501 entries where at most 500") == true, "\(String(describing: error))")
    #expect(try phone.rows() == before)
    #expect(try phone.pending() == 1)
  }

  @Test func anUndoHistoryOfEveryTableLeavesTheSyncEnginesOwnTablesAlone() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    let history = try UndoHistory(phone.queue)
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    #expect(try history.undo())
    // The insert and its undo: two transactions, both pending, both in the
    // log; the sync engine's own bookkeeping was not undone with the note.
    #expect(try phone.pending() == 2)
    #expect(try await phone.sync().pushed == 2)
    #expect(try await world.log().map(\.sequence) == [1, 2])
    #expect(try await laptop.sync().pulled == 2)
    #expect(try laptop.rows() == phone.rows())
    #expect(try laptop.rows() == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func aTagDeletedBeforeItsNoteInOneTransactionIsNoConflictWhereItApplies() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'first')")
    try phone.write("INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'work')")
    try await phone.sync()
    try await laptop.sync()
    // SQLite applies the changeset table by table: the note's delete (and
    // its cascade) comes before the tag's own delete, which finds no row.
    try await phone.queue.write { db in
      _ = try db.execute("DELETE FROM tags WHERE id = 't1'")
      _ = try db.execute("DELETE FROM notes WHERE id = 'n1'")
    }
    try await phone.sync()
    let report = try await laptop.sync()
    #expect(report.pulled == 1)
    #expect(report.conflicts.isEmpty)
    #expect(try laptop.rows() == phone.rows())
    #expect(try laptop.rows() == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func aRowDeletedOnBothDevicesIsNoConflict() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try await editBothThenSync(
      phone, laptop, phoneEdits: ["DELETE FROM notes WHERE id = 'n1'"],
      laptopEdits: ["DELETE FROM notes WHERE id = 'n1'"])
    #expect(try await laptop.sync().conflicts.isEmpty)
    #expect(try await converged(phone, laptop) == ["-- notes", "-- tags", "-- counters"])
  }

  @Test func aHubOfTheAppsOwnInSwiftSyncsDevices() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let hub = MemoryHub()
    let phone = try world.device("phone", hub: hub)
    let laptop = try world.device("laptop", hub: hub)
    try phone.write("INSERT INTO notes(id, title) VALUES ('p1', 'from phone')")
    try laptop.write("INSERT INTO notes(id, title) VALUES ('l1', 'from laptop')")
    #expect(try await phone.sync().pushed == 1)
    let second = try await laptop.sync()
    #expect(second.pulled == 1)
    #expect(second.pushed == 1)
    #expect(try await phone.sync().pulled == 1)
    #expect(try phone.rows() == laptop.rows())
    #expect(try phone.rows() == ["-- notes", "l1|from laptop|", "p1|from phone|", "-- tags", "-- counters"])
    let log = await hub.entries(after: 0, limit: 10)
    #expect(log.map(\.device) == ["phone", "laptop"])
    #expect(log.map(\.position) == [1, 2])
  }

  @Test func rowsThereBeforeTheEngineArePushedOnlyOnceRecorded() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    try world.prefill(
      "phone",
      [
        "INSERT INTO notes(id, title, body) VALUES ('n1', 'first', 'b1'), ('n2', 'second', '')",
        "INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'work')",
        "INSERT INTO counters(id, label, value) VALUES (7, 'seven', 7)",
        "INSERT INTO local_settings(key, value) VALUES ('theme', 'dark')",
      ])
    let phone = try world.device("phone")
    #expect(try await phone.sync().pushed == 0)  // what was there before is not a change
    #expect(try phone.engine.recordExistingRows() == 4)  // local_settings is not synced
    #expect(try phone.pending() == 1)
    #expect(try phone.writerSchemas() == 1)  // the empty copies are gone
    #expect(try await phone.sync().pushed == 1)
    let laptop = try world.device("laptop")
    let report = try await laptop.sync()
    #expect(report.pulled == 1)
    #expect(report.conflicts.isEmpty)
    #expect(try laptop.rows() == phone.rows())
    #expect(
      try laptop.rows() == [
        "-- notes", "n1|first|b1", "n2|second|", "-- tags", "t1|n1|work", "-- counters", "7|seven|7",
      ])
  }

  @Test func emptySyncedTablesRecordNothing() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    try world.prefill("phone", ["INSERT INTO local_settings(key, value) VALUES ('theme', 'dark')"])
    let phone = try world.device("phone")
    #expect(try phone.engine.recordExistingRows() == 0)
    #expect(try phone.pending() == 0)
    #expect(try phone.writerSchemas() == 1)
  }

  @Test func recordingExistingRowsFromInsideAWriterBlockIsAMisuseAndRecordsNothing() throws {
    let world = try SyncWorld()
    defer { world.remove() }
    try world.prefill("phone", ["INSERT INTO notes(id, title) VALUES ('n1', 'first')"])
    let phone = try world.device("phone")
    let error = databaseError {
      try phone.queue.write { (_: Database) -> Void in _ = try phone.engine.recordExistingRows() }
    }
    #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    #expect(try phone.pending() == 0)
  }

  @Test func aCopyHoldingTheSameKeysMeetsTheRecordedRowsAsConflictsThePolicySettles() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    try world.prefill("phone", ["INSERT INTO notes(id, title) VALUES ('n1', 'phone copy')"])
    try world.prefill("laptop", ["INSERT INTO notes(id, title) VALUES ('n1', 'laptop copy')"])
    let phone = try world.device("phone")
    let laptop = try world.device("laptop")
    try phone.engine.recordExistingRows()
    try await phone.sync()
    let report = try await laptop.sync()
    #expect(kinds(report) == [.conflict])
    #expect(try laptop.rows() == phone.rows())
    #expect(try laptop.rows()[1] == "n1|phone copy|")
  }
}

/// A hub that leaves out the first entry of every page it reads (a broken
/// server).
private struct GappedHub: SyncHub {
  let inner: DatabaseSyncHub

  func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool {
    try await inner.append(entries, after: last)
  }

  func entries(after position: Int64, limit: Int) async throws -> [SyncEntry] {
    Array(try await inner.entries(after: position, limit: limit).dropFirst())
  }
}

/// A hub that answers every read with one entry more than asked for.
private struct OverflowingHub: SyncHub {
  func append(_ entries: [SyncEntry], after last: Int64) async throws -> Bool { false }

  func entries(after position: Int64, limit: Int) async throws -> [SyncEntry] {
    try (0...limit).map { index in
      let place = position + 1 + Int64(index)
      return SyncEntry(position: place, device: "other", sequence: place, changeset: try Changeset(data: Data()))
    }
  }
}

/// Counts the commits that changed one table.
private final class CommitCounter: TransactionObserver {
  let table: String
  let commits = Locked(0)

  init(table: String) { self.table = table }

  func observes(eventsOfKind kind: DatabaseEventKind) -> Bool {
    switch kind {
    case .insert(let name), .delete(let name), .update(let name, _): return name == table
    }
  }

  func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
}
