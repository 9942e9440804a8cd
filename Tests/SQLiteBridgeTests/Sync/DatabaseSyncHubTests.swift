import Foundation
import SQLiteBridge
import Testing

/// The SQLite-file sync hub from Swift: appends at positions 1..n,
/// conditional on the log's last position (a stale `after` appends nothing
/// and still succeeds), a (device, sequence) already in the log refusing
/// the whole batch, paging, empty and corrupt changesets, a file whose
/// sync_log is of another shape, two hubs on one file, invalid entries.
/// (DatabaseSyncHubTests.cpp checks the same in C++.)
@Suite(.usesSessionExtension)
struct DatabaseSyncHubTests {
  /// A real changeset: the insert of row `id` into a keyed table (a new row
  /// each call with a new `id`).
  private func insertChangeset(_ id: Int) throws -> Changeset {
    let changes = try changesetOf("", "INSERT INTO items(id, t) VALUES (\(id), 'note \(id)');")
    #expect(!changes.data.isEmpty)
    return changes
  }

  private func entry(_ device: String, _ sequence: Int64, _ changeset: Changeset? = nil) throws -> SyncEntry {
    SyncEntry(position: 0, device: device, sequence: sequence, changeset: try changeset ?? Changeset(data: Data()))
  }

  /// The hub's table as raw SQL sees it (storage classes kept), from a
  /// connection of its own.
  private func logRows(_ path: String) throws -> [[DatabaseValue]] {
    let db = try Database(path: path)
    return try db.rows(
      "SELECT position, device, sequence, typeof(changeset) AS kind, hex(changeset) AS bytes "
        + "FROM sync_log ORDER BY position"
    ).map(\.values)
  }

  /// A row of `logRows` for an entry with an empty changeset.
  private func emptyRow(_ position: Int64, _ device: String, _ sequence: Int64) -> [DatabaseValue] {
    [.integer(position), .text(device), .integer(sequence), .text("blob"), .text("")]
  }

  private func allEntries(_ hub: DatabaseSyncHub) async throws -> [SyncEntry] {
    try await hub.entries(after: 0, limit: 1000)
  }

  @Test(.enabled(if: Changeset.isAvailable, "no session extension"))
  func appendsAtPositionsOneToNOnAnEmptyLogAndReadsThemBack() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let hub = try DatabaseSyncHub(path: directory + "/hub.sqlite")
    #expect(try hub.lastPosition() == 0)
    #expect(try await allEntries(hub).isEmpty)

    var batch = [
      try entry("phone", 1, insertChangeset(1)), try entry("phone", 2, insertChangeset(2)),
      try entry("laptop", 1, insertChangeset(3)),
    ]
    // The entries' own positions are ignored: the hub gives the places.
    for index in batch.indices { batch[index].position = 99 }
    #expect(try await hub.append(batch, after: 0))
    #expect(try hub.lastPosition() == 3)

    let read = try await hub.entries(after: 0, limit: 100)
    try #require(read.count == 3)
    for (index, entry) in read.enumerated() {
      #expect(entry.position == Int64(index) + 1)
      #expect(entry.device == batch[index].device)
      #expect(entry.sequence == batch[index].sequence)
      #expect(entry.changeset == batch[index].changeset)
    }
    // The next batch goes on from the last position.
    #expect(try await hub.append([entry("phone", 3, insertChangeset(4))], after: 3))
    #expect(try await allEntries(hub).map(\.position) == [1, 2, 3, 4])
  }

  @Test(.enabled(if: Changeset.isAvailable, "no session extension"))
  func aReopenedHubKeepsItsLog() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let batch = [try entry("phone", 1, insertChangeset(1))]
    do {
      let hub = try DatabaseSyncHub(path: directory + "/hub.sqlite")
      #expect(try await hub.append(batch, after: 0))
    }
    let reopened = try DatabaseSyncHub(path: directory + "/hub.sqlite")
    let read = try await allEntries(reopened)
    try #require(read.count == 1)
    #expect(read[0].position == 1)
    #expect(read[0].changeset == batch[0].changeset)
  }

  @Test func aStaleAfterAppendsNothingAndStillSucceeds() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    let hub = try DatabaseSyncHub(path: path)
    #expect(try await hub.append([entry("phone", 1), entry("phone", 2)], after: 0))
    let before = try logRows(path)
    #expect(before.count == 2)

    // Behind the log (another device appended since) and ahead of it.
    for after: Int64 in [0, 1, 5, -1] {
      #expect(try await hub.append([entry("laptop", 1)], after: after) == false, "after \(after)")
      #expect(try logRows(path) == before, "after \(after)")
    }
    #expect(try hub.lastPosition() == 2)
  }

  @Test func anEmptyBatchTellsWhetherAfterIsTheLastPositionAndWritesNothing() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    let hub = try DatabaseSyncHub(path: path)
    #expect(try await hub.append([entry("phone", 1)], after: 0))
    let before = try logRows(path)
    #expect(try await hub.append([], after: 1))
    #expect(try await hub.append([], after: 0) == false)
    #expect(try logRows(path) == before)
  }

  @Test func aDeviceSequenceAlreadyInTheLogFailsWithConstraintAndAppendsNothingOfTheBatch() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    let hub = try DatabaseSyncHub(path: path)
    #expect(try await hub.append([entry("phone", 1), entry("phone", 2)], after: 0))
    let before = try logRows(path)

    // The duplicate is the batch's second entry: the first (new) one must
    // not land either.
    let duplicate = try [entry("laptop", 1), entry("phone", 2), entry("laptop", 2)]
    let error = await asyncDatabaseError { _ = try await hub.append(duplicate, after: 2) }
    #expect(error?.resultCode == .constraint, "\(String(describing: error))")
    #expect(
      error?.message.contains("device 'phone' sequence 2 already (position 2)") == true,
      "\(String(describing: error))")
    #expect(error?.message.contains("nothing appended") == true, "\(String(describing: error))")
    #expect(try logRows(path) == before)

    // The same pair twice in one batch is refused the same way.
    let twice = try [entry("laptop", 1), entry("laptop", 1)]
    let again = await asyncDatabaseError { _ = try await hub.append(twice, after: 2) }
    #expect(again?.resultCode == .constraint, "\(String(describing: again))")
    #expect(again?.message.contains("device 'laptop' sequence 1 twice") == true, "\(String(describing: again))")
    #expect(try logRows(path) == before)
    #expect(try hub.lastPosition() == 2)
  }

  @Test func invalidEntriesFailWithMisuseAndAppendNothing() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    let hub = try DatabaseSyncHub(path: path)
    let cases: [(batch: [SyncEntry], message: String)] = [
      (try [entry("phone", 1), entry("", 1)], "entry 1 of the batch has an empty device name"),
      (try [entry("phone", 0)], "entry 0 of the batch has sequence 0"),
      (try [entry("phone", 1), entry("phone", 2), entry("phone", -3)], "entry 2 of the batch has sequence -3"),
    ]
    for test in cases {
      let error = await asyncDatabaseError { _ = try await hub.append(test.batch, after: 0) }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
      #expect(error?.message.contains(test.message) == true, "\(String(describing: error))")
    }
    #expect(try logRows(path).isEmpty)
    #expect(try hub.lastPosition() == 0)
  }

  @Test(.enabled(if: Changeset.isAvailable, "no session extension"))
  func entriesPagesByAfterAndLimit() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let hub = try DatabaseSyncHub(path: directory + "/hub.sqlite")
    let batch = try (1...5).map { try entry("phone", Int64($0), insertChangeset($0)) }
    #expect(try await hub.append(batch, after: 0))

    func page(_ after: Int64, _ limit: Int) async throws -> [Int64] {
      try await hub.entries(after: after, limit: limit).map(\.position)
    }
    #expect(try await page(0, 2) == [1, 2])
    #expect(try await page(2, 2) == [3, 4])
    #expect(try await page(4, 2) == [5])
    #expect(try await page(5, 2) == [])
    #expect(try await page(0, 0) == [])
    #expect(try await page(0, -1) == [])  // a negative limit asks for none
    #expect(try await page(3, .max) == [4, 5])
    // Each page's entries are the batch's.
    let out = try await hub.entries(after: 2, limit: 1)
    try #require(out.count == 1)
    #expect(out[0].device == "phone")
    #expect(out[0].sequence == 3)
    #expect(out[0].changeset == batch[2].changeset)
  }

  @Test(.enabled(if: Changeset.isAvailable, "no session extension"))
  func anEmptyChangesetRoundTripsAsAZeroLengthBlob() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    let hub = try DatabaseSyncHub(path: path)
    #expect(try await hub.append([entry("phone", 1)], after: 0))
    // A blob of no bytes, not NULL (the column is NOT NULL) nor text.
    #expect(try logRows(path) == [emptyRow(1, "phone", 1)])
    let read = try await allEntries(hub)
    try #require(read.count == 1)
    #expect(read[0].changeset.data.isEmpty)
    #expect(read[0] == SyncEntry(position: 1, device: "phone", sequence: 1, changeset: try Changeset(data: Data())))
  }

  @Test(.enabled(if: Changeset.isAvailable, "no session extension"))
  func aCorruptChangesetFailsEntriesWithCorruptNamingItsPosition() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    let hub = try DatabaseSyncHub(path: path)
    #expect(
      try await hub.append([entry("phone", 1, insertChangeset(1)), entry("phone", 2, insertChangeset(2))], after: 0))
    // Another writer of the file (a process of an older or broken build).
    try makeDatabaseFile(at: path, script: "INSERT INTO sync_log VALUES (3, 'laptop', 1, x'54ff0000')")

    let error = await asyncDatabaseError { _ = try await hub.entries(after: 0, limit: 100) }
    #expect(error?.resultCode == .corrupt, "\(String(describing: error))")
    #expect(error?.message.contains("position 3") == true, "\(String(describing: error))")
    #expect(error?.message.contains("not a changeset") == true, "\(String(describing: error))")
    // The entries before it still read.
    #expect(try await hub.entries(after: 0, limit: 2).map(\.position) == [1, 2])
  }

  @Test func aFileWhoseSyncLogHasAnotherShapeFailsToOpenWithError() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/other.sqlite"
      try makeDatabaseFile(
        at: path,
        script: "CREATE TABLE sync_log(id INTEGER PRIMARY KEY, payload BLOB); INSERT INTO sync_log VALUES (1, x'00');")
      let error = databaseError { _ = try DatabaseSyncHub(path: path) }
      #expect(error?.resultCode == .error, "\(String(describing: error))")
      #expect(error?.message.contains("sync_log") == true, "\(String(describing: error))")
      #expect(error?.message.contains("(id, payload)") == true, "\(String(describing: error))")
      // The file is left as it was.
      let db = try Database(path: path)
      #expect(try db.rows("SELECT * FROM sync_log").map(\.values) == [[.integer(1), .blob(Data([0]))]])
    }
  }

  @Test func aFileThatCannotOpenFailsWithTheOpenError() throws {
    try withTemporaryDirectory { directory in
      let error = databaseError { _ = try DatabaseSyncHub(path: directory + "/missing-directory/hub.sqlite") }
      #expect(error?.resultCode == .cantOpen, "\(String(describing: error))")
      #expect(!fileExists(directory + "/missing-directory"))
    }
  }

  @Test func twoHubsOnOneFileAppendingAfterTheSamePositionAppendOnce() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/hub.sqlite"
    // Two connections to one file, as two processes have.
    let first = try DatabaseSyncHub(path: path)
    let second = try DatabaseSyncHub(path: path)
    #expect(try first.lastPosition() == 0)
    #expect(try second.lastPosition() == 0)

    // Both saw position 0; the first to append wins, the second is told to
    // pull first.
    #expect(try await first.append([entry("phone", 1), entry("phone", 2)], after: 0))
    #expect(try await second.append([entry("laptop", 1)], after: 0) == false)
    #expect(try second.lastPosition() == 2)

    // Once it has caught up, its append lands after the first's.
    #expect(try await second.append([entry("laptop", 1)], after: 2))
    #expect(try first.lastPosition() == 3)
    #expect(try logRows(path) == [emptyRow(1, "phone", 1), emptyRow(2, "phone", 2), emptyRow(3, "laptop", 1)])
  }
}
