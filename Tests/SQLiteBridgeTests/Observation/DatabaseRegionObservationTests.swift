import Foundation
import SQLiteBridge
import Testing

/// `DatabaseRegionObservation` on a `DatabaseQueue` and a `DatabasePool`:
/// once per commit that changes the region, on the writer, outside any
/// transaction and able to use it; the union of several regions; commits
/// outside the region; cancellation; starts that throw; commits of another
/// process. (The region tests of ValueObservationTests.cpp check the same in
/// C++.)
@Suite("DatabaseRegionObservation")
struct DatabaseRegionObservationTests {
  @Test(arguments: StoreKind.allCases)
  func isCalledOnTheWriterOncePerCommitThatChangesTheRegion(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      // Written on the writer only, before each write returns.
      let seen = Locked<[Int64]>([])
      let outsideTransaction = Locked(true)
      let observation = DatabaseRegionObservation(tracking: DatabaseRegion(table: "items"))
      #expect(observation.region == DatabaseRegion(table: "items"))
      let cancellable = try store.start(observation) { db in
        if db.isInTransaction { outsideTransaction.withLock { $0 = false } }
        let count = (try? integer(db, "SELECT count(*) FROM items")) ?? -1
        seen.withLock { $0.append(count) }
      }
      #expect(cancellable.isActive)
      for _ in 0..<3 { try store.write("INSERT INTO items(name) VALUES ('a')") }
      try store.write("INSERT INTO other VALUES (1)")
      // Called before write() returned: no wait needed.
      #expect(seen.current == [1, 2, 3])
      #expect(outsideTransaction.current)
      cancellable.cancel()
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(seen.current == [1, 2, 3])
      #expect(!cancellable.isActive)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func watchesTheUnionOfItsRegions(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let calls = CallCount()
      let observation = DatabaseRegionObservation(
        tracking: DatabaseRegion(table: "items", columns: ["name"]), DatabaseRegion(table: "keyed"))
      let cancellable = try store.start(observation) { _ in calls.increment() }
      try store.write("INSERT INTO keyed VALUES ('k')")  // WITHOUT ROWID: no update hook
      #expect(calls.value == 1)
      try store.write("UPDATE items SET name = 'x'")  // no row: no change
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(calls.value == 2)
      try store.write("INSERT INTO flags VALUES (1)")
      #expect(calls.value == 2)
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aWriteInTheCallbackIsACommitOfItsOwnAndIsObserved(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let calls = CallCount()
      let cancellable = try store.start(DatabaseRegionObservation(tracking: DatabaseRegion(table: "items"))) { db in
        calls.increment()
        // The first call writes once more; the second (for that write) stops.
        if calls.value == 1 { _ = try? db.execute("INSERT INTO items(name) VALUES ('from the callback')") }
      }
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(calls.value == 2)
      let count = try store.writeWithoutTransaction { db in try integer(db, "SELECT count(*) FROM items") }
      #expect(count == 2)
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func droppingTheCancellableStopsTheCallbacks(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let calls = CallCount()
      var cancellable: DatabaseCancellable? = try store.start(
        DatabaseRegionObservation(tracking: DatabaseRegion(table: "items"))
      ) { _ in calls.increment() }
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(calls.value == 1)
      #expect(cancellable != nil)
      cancellable = nil
      try store.write("INSERT INTO items(name) VALUES ('b')")
      #expect(calls.value == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func startingFromInsideABlockThrowsMisuse(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let error = try store.writeWithoutTransaction { _ in
        databaseError {
          _ = try store.start(DatabaseRegionObservation(tracking: DatabaseRegion(table: "items"))) { _ in }
        }
      }
      expectReentrantMisuse(error)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func commitsOfAnotherProcessAreSeenWithTheExternalInterval(kind: StoreKind) throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/external.db"
      try makeDatabaseFile(at: path, script: observedSchema)
      var configuration = Configuration()
      configuration.externalChangeCheckInterval = .milliseconds(20)
      let store = try ObservedStore(kind, path: path, configuration: configuration)
      let changed = Signal()
      let counts = Locked<[Int64]>([])
      let cancellable = try store.start(DatabaseRegionObservation(tracking: DatabaseRegion(table: "items"))) { db in
        counts.withLock { $0.append((try? integer(db, "SELECT count(*) FROM items")) ?? -1) }
        changed.send()
      }
      try commitFromAnotherProcess(path)
      #expect(changed.wait(), "the external commit was seen")
      #expect(counts.current.first == 1)
      cancellable.cancel()
    }
  }
}
