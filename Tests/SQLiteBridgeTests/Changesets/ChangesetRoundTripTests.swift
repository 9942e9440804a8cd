import Foundation
import SQLiteBridge
import Testing

/// Changesets round trip: the changeset of random transactions, applied to
/// a copy of the database from before them, gives the same rows; its
/// inverse restores the before state; a concatenation equals both
/// changesets in turn; patchsets apply. (ChangesetRoundTripTests.cpp checks
/// the same in C++.)
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct ChangesetRoundTripTests {
  @Test func randomTransactionsReplayOnACopyAndTheirInverseRestoresTheStart() throws {
    try withTemporaryDirectory { directory in
      let db = try openChangesetDatabase(directory + "/work.db")
      var random = SeededGenerator(seed: 41)
      for round in 0..<40 {
        try randomTransaction(db, &random, 5)
        let copy = try copyOf(db, directory + "/copy\(round).db")
        let before = try keyedRows(db)
        let session = try DatabaseSession(db)
        try session.attachAll()
        try randomTransaction(db, &random, 1 + round % 12)
        let changes = try session.changeset()
        let after = try keyedRows(db)

        try copy.apply(changes)
        #expect(try keyedRows(copy) == after, "round \(round)")

        let inverse = try changes.inverted()
        try db.apply(inverse)
        #expect(try keyedRows(db) == before, "round \(round)")
        try db.apply(changes)
        #expect(try keyedRows(db) == after, "round \(round)")
      }
    }
  }

  @Test func aConcatenationEqualsBothChangesetsInTurn() throws {
    try withTemporaryDirectory { directory in
      let db = try openChangesetDatabase(directory + "/work.db")
      var random = SeededGenerator(seed: 7)
      for round in 0..<20 {
        let twice = try copyOf(db, directory + "/twice\(round).db")
        let once = try copyOf(db, directory + "/once\(round).db")
        var parts: [Changeset] = []
        for _ in 0..<2 {
          let session = try DatabaseSession(db)
          try session.attachAll()
          try randomTransaction(db, &random, 6)
          parts.append(try session.changeset())
        }
        let both = try parts[0].concatenated(with: parts[1])
        try twice.apply(parts[0])
        try twice.apply(parts[1])
        try once.apply(both)
        #expect(try keyedRows(once) == keyedRows(db), "round \(round)")
        #expect(try keyedRows(twice) == keyedRows(db), "round \(round)")
      }
    }
  }

  @Test func aPatchsetAppliesAndIsSmallerButCannotBeInverted() throws {
    try withTemporaryDirectory { directory in
      let db = try openChangesetDatabase(directory + "/work.db")
      var random = SeededGenerator(seed: 3)
      try randomTransaction(db, &random, 30)
      let copy = try copyOf(db, directory + "/copy.db")
      let session = try DatabaseSession(db)
      try session.attachAll()
      try randomTransaction(db, &random, 30)
      let patchset = try session.patchset()
      let changeset = try session.changeset()
      #expect(patchset.isPatchset)
      #expect(!changeset.isPatchset)
      #expect(patchset.data.count < changeset.data.count)
      let parsed = try Changeset(data: patchset.data)
      #expect(parsed.isPatchset)
      #expect(parsed == patchset)
      try copy.apply(parsed)
      #expect(try keyedRows(copy) == keyedRows(db))

      let inverted = databaseError { _ = try patchset.inverted() }
      #expect(inverted?.resultCode == .misuse)
      #expect(inverted?.message.contains("patchset cannot be inverted") == true, "\(String(describing: inverted))")
      let mixed = databaseError { _ = try changeset.concatenated(with: patchset) }
      #expect(mixed?.resultCode == .error)
    }
  }

  @Test func bytesRoundTripThroughInitData() throws {
    let db = try openChangesetDatabase()
    let session = try DatabaseSession(db)
    try session.attachAll()
    var random = SeededGenerator(seed: 5)
    try randomTransaction(db, &random, 10)
    let changes = try session.changeset()
    let parsed = try Changeset(data: changes.data)
    #expect(parsed == changes)
    #expect(parsed.hashValue == changes.hashValue)
    #expect(!parsed.isPatchset)
    let operations = try changes.operations()
    #expect(try parsed.operations() == operations)
    #expect(!operations.isEmpty)
  }
}
