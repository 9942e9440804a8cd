import Foundation
import SQLiteBridge
import Testing

/// `ValueObservation` on a `DatabaseQueue` and a `DatabasePool`: the
/// initial value first, values in commit order, the last value equal to a
/// fresh fetch, no fetch for a commit outside the region, regions recorded
/// per fetch, removeDuplicates, thrown errors delivered unchanged,
/// cancellation (also racing commits, and by dropping the cancellable),
/// starts that fail, fetches that never block the pool's writer, commits of
/// another process, and a stress run. (ValueObservationTests.cpp checks the
/// same in C++.)
@Suite("ValueObservation")
struct ValueObservationTests {
  @Test(arguments: StoreKind.allCases)
  func theInitialValueComesFirstThenOneValuePerCommitInOrder(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      try store.write("INSERT INTO items(name) VALUES ('a')")
      let values = DeliveredValues<Int64>()
      let cancellable = store.start(
        countObservation("SELECT count(*) FROM items"), onError: values.onError, onChange: values.onChange)
      #expect(cancellable.isActive)
      #expect(values.waitForLast(1))
      for expected in Int64(2)...5 {
        try store.write("INSERT INTO items(name) VALUES ('x')")
        #expect(values.waitForLast(expected), "value \(expected)")
      }
      #expect(values.all == [1, 2, 3, 4, 5])
      #expect(values.errors.isEmpty)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aCommitOutsideTheRegionCausesNoFetch(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let values = DeliveredValues<Int64>()
      let fetches = CallCount()
      let cancellable = store.start(
        countObservation("SELECT count(*) FROM items", fetches: fetches), onChange: values.onChange)
      #expect(values.waitForLast(0))
      #expect(fetches.value == 1)
      try store.write("INSERT INTO other VALUES (1)")
      try store.write("INSERT INTO keyed VALUES ('k')")
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(values.waitForLast(1))
      // Had an unrelated commit fetched, the last one would have been a third.
      #expect(fetches.value == 2)
      #expect(values.all == [0, 1])
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func columnsOutsideTheRegionCauseNoFetchThroughAView(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      try store.write("INSERT INTO items(name) VALUES ('a')")
      let values = DeliveredValues<Int64>()
      let cancellable = store.start(
        countObservation("SELECT length(group_concat(name)) FROM item_names"), onChange: values.onChange)
      #expect(values.waitForLast(1))
      try store.write("UPDATE items SET id = id")  // the rowid alias: a change of every column
      try store.write("UPDATE items SET name = 'abc'")
      #expect(values.waitForLast(3))
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func changesTheUpdateHookDoesNotSeeAreObserved(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let keyed = DeliveredValues<Int64>()
      let first = store.start(countObservation("SELECT count(*) FROM keyed"), onChange: keyed.onChange)
      #expect(keyed.waitForLast(0))
      try store.write("INSERT INTO keyed VALUES ('a')")
      #expect(keyed.waitForLast(1))
      try store.write("DELETE FROM keyed")
      #expect(keyed.waitForLast(0))
      let items = DeliveredValues<Int64>()
      let second = store.start(countObservation("SELECT count(*) FROM items"), onChange: items.onChange)
      #expect(items.waitForLast(0))
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(items.waitForLast(1))
      try store.write("DELETE FROM items")  // truncation turned off while observed
      #expect(items.waitForLast(0))
      first.cancel()
      second.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aRegionThatDependsOnTheDataIsRecordedPerFetch(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let values = DeliveredValues<Int64>()
      let fetches = CallCount()
      // Reads `other` only once a flag is set.
      let observation = ValueObservation.tracking { db -> Int64 in
        fetches.increment()
        guard try integer(db, "SELECT count(*) FROM flags") > 0 else { return 0 }
        return try 100 + integer(db, "SELECT count(*) FROM other")
      }
      let cancellable = store.start(observation, onChange: values.onChange)
      #expect(values.waitForLast(0))
      try store.write("INSERT INTO other VALUES (1)")  // not read yet: no fetch
      try store.write("INSERT INTO flags VALUES (1)")
      #expect(values.waitForLast(101))
      try store.write("INSERT INTO other VALUES (2)")  // read now
      #expect(values.waitForLast(102))
      #expect(fetches.value == 3)
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func removeDuplicatesDropsAValueEqualToThePreviousOne(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      try store.write("INSERT INTO items(name) VALUES ('a')")
      let values = DeliveredValues<Int64>()
      let fetches = CallCount()
      let cancellable = store.start(
        countObservation("SELECT count(*) FROM items", fetches: fetches).removeDuplicates(),
        onChange: values.onChange)
      #expect(values.waitForLast(1))
      try store.write("UPDATE items SET name = 'b'")  // fetched again, same count
      try store.write("INSERT INTO items(name) VALUES ('c')")
      #expect(values.waitForLast(2))
      #expect(fetches.value >= 2)
      #expect(values.all == [1, 2])
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anErrorTheFetchThrowsIsDeliveredUnchangedAndEndsTheObservation(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let values = DeliveredValues<Int64>()
      let fetches = CallCount()
      let observation = ValueObservation.tracking { db -> Int64 in
        fetches.increment()
        if fetches.value == 2 { throw BlockError(id: 42) }
        return try integer(db, "SELECT count(*) FROM items")
      }
      let cancellable = store.start(observation, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(0))
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(values.waitForError())
      #expect(values.errors.count == 1)
      #expect(values.errors.first as? BlockError == BlockError(id: 42))
      try store.write("INSERT INTO items(name) VALUES ('b')")
      #expect(!cancellable.isActive)
      #expect(fetches.value == 2)
      #expect(values.all == [0])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aDatabaseErrorOfTheFetchIsDeliveredWithItsCode(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let values = DeliveredValues<Int64>()
      let cancellable = store.start(
        countObservation("SELECT count(*) FROM no_such_table"), onError: values.onError, onChange: values.onChange)
      #expect(values.waitForError())
      let error = values.errors.first as? DatabaseError
      #expect(error?.resultCode == .error, "\(String(describing: error))")
      #expect(error?.message.contains("no_such_table") == true, "\(String(describing: error))")
      #expect(values.all.isEmpty)
      #expect(!cancellable.isActive)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func theDatabaseOfAFetchIsLentForTheFetchOnly(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let kept = Locked<Database?>(nil)
      let values = DeliveredValues<Int64>()
      let cancellable = store.start(
        ValueObservation.tracking { db -> Int64 in
          kept.withLock { $0 = db }
          return try integer(db, "SELECT count(*) FROM items")
        }, onChange: values.onChange)
      #expect(values.waitForLast(0))
      cancellable.cancel()
      let database = try #require(kept.current)
      let error = databaseError { _ = try database.rows("SELECT 1") }
      #expect(error?.resultCode == .misuse, "\(String(describing: error))")
    }
  }

  // MARK: Cancellation

  @Test(arguments: StoreKind.allCases)
  func afterCancelReturnsNoCallbackRuns(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      for round in 0..<500 {
        let cancelled = Locked(false)
        let lateCall = Locked(false)
        let started = Signal()
        let cancellable = store.start(countObservation("SELECT count(*) FROM items")) { _ in
          if cancelled.current { lateCall.withLock { $0 = true } }
          started.send()
        }
        #expect(started.wait(), "round \(round)")
        let writer = TestThread("writer") { try? store.write("INSERT INTO items(name) VALUES ('r')") }
        cancellable.cancel()
        cancelled.withLock { $0 = true }
        writer.join()
        #expect(!cancellable.isActive)
        #expect(!lateCall.current, "round \(round)")
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func droppingTheCancellableCancels(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let values = DeliveredValues<Int64>()
      let fetches = CallCount()
      var cancellable: DatabaseCancellable? = store.start(
        countObservation("SELECT count(*) FROM items", fetches: fetches), onChange: values.onChange)
      #expect(values.waitForLast(0))
      #expect(cancellable?.isActive == true)
      cancellable = nil
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(fetches.value == 1)
      #expect(values.all == [0])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func cancelFromInsideTheCallbackMakesItTheLast(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let values = DeliveredValues<Int64>()
      let holder = Locked<DatabaseCancellable?>(nil)
      let calls = CallCount()
      // The second write waits for the cancel, not only for the value the
      // callback delivers before it cancels.
      let cancelled = Signal()
      holder.withLock { held in
        held = store.start(countObservation("SELECT count(*) FROM items")) { value in
          values.add(value)
          calls.increment()
          if calls.value == 2 {
            holder.withLock { $0?.cancel() }
            cancelled.send()
          }
        }
      }
      #expect(values.waitForLast(0))
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(values.waitForLast(1))
      #expect(cancelled.wait(), "the second callback did not cancel")
      try store.write("INSERT INTO items(name) VALUES ('b')")
      #expect(holder.current?.isActive == false)
      #expect(calls.value == 2)
    }
  }

  // MARK: Starts that fail

  @Test(arguments: StoreKind.allCases)
  func startingFromInsideABlockDeliversMisuseOnTheCallingThread(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      let failure = Locked<(any Error)?>(nil)
      let onCallingThread = Locked(false)
      let caller = pthread_self()
      let active = try store.writeWithoutTransaction { _ in
        store.start(
          countObservation("SELECT count(*) FROM items"),
          onError: { error in
            failure.withLock { $0 = error }
            onCallingThread.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
          }, onChange: { _ in }
        ).isActive
      }
      #expect(!active)
      #expect(onCallingThread.current)
      expectReentrantMisuse(failure.current as? DatabaseError)
    }
  }

  // MARK: Pools, other processes, load

  @Test func aSlowFetchOfAPoolNeverBlocksTheWriter() throws {
    try withObservedStore(.pool) { store, _ in
      let fetchStarted = Signal()
      let releaseFetch = Signal()
      let values = DeliveredValues<Int64>()
      let fetches = CallCount()
      let cancellable = store.start(
        ValueObservation.tracking { db -> Int64 in
          let value = try integer(db, "SELECT count(*) FROM items")
          fetches.increment()
          if fetches.value == 2 {
            fetchStarted.send()
            #expect(releaseFetch.wait())
          }
          return value
        }, onChange: values.onChange)
      #expect(values.waitForLast(0))
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(fetchStarted.wait())
      // The second fetch holds its reader: writes still go through.
      for _ in 0..<3 { try store.write("INSERT INTO items(name) VALUES ('b')") }
      releaseFetch.send()
      // The fetch that was held read 1; the commits during it are fetched after.
      #expect(values.waitForLast(4))
      let all = values.all
      #expect(all == all.sorted())
      cancellable.cancel()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func commitsOfAnotherProcessAreSeenWithTheExternalInterval(kind: StoreKind) throws {
    try withObservedStore(kind) { store, path in
      var configuration = Configuration()
      configuration.externalChangeCheckInterval = .milliseconds(20)
      let watching = try ObservedStore(kind, path: path, configuration: configuration)
      let seen = DeliveredValues<Int64>()
      let unseen = DeliveredValues<Int64>()
      let unseenFetches = CallCount()
      let withInterval = watching.start(countObservation("SELECT count(*) FROM items"), onChange: seen.onChange)
      let without = store.start(
        countObservation("SELECT count(*) FROM items", fetches: unseenFetches), onChange: unseen.onChange)
      #expect(seen.waitForLast(0))
      #expect(unseen.waitForLast(0))
      try commitFromAnotherProcess(path)
      #expect(seen.waitForLast(1), "the external commit was seen")
      #expect(unseenFetches.value == 1, "without the interval, nothing was fetched again")
      #expect(unseen.all == [0])
      withInterval.cancel()
      without.cancel()
    }
  }

  @Test func eightWritersAgainstTwentyObservationsEndWithFreshValues() throws {
    var configuration = Configuration()
    configuration.synchronous = .off
    try withObservedStore(.pool, configuration: configuration) { store, _ in
      let writers = 8
      let commits = 1000
      try store.write("CREATE TABLE counters(writer INTEGER PRIMARY KEY, n INTEGER)")
      try store.write(
        "WITH RECURSIVE w(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM w WHERE i < \(writers - 1)) "
          + "INSERT INTO counters SELECT i, 0 FROM w")
      let observed = (0..<20).map { index in
        // Half watch one writer's counter, half the sum.
        index % 2 == 0 ? "SELECT n FROM counters WHERE writer = \(index % writers)" : "SELECT sum(n) FROM counters"
      }
      let values = observed.map { _ in DeliveredValues<Int64>() }
      let cancellables = zip(observed, values).map { sql, delivered in
        store.start(countObservation(sql), onError: delivered.onError, onChange: delivered.onChange)
      }
      let threads = (0..<writers).map { writer in
        TestThread("writer \(writer)") {
          for _ in 0..<commits {
            try? store.write("UPDATE counters SET n = n + 1 WHERE writer = \(writer)")
          }
        }
      }
      for thread in threads { thread.join() }
      for (index, delivered) in values.enumerated() {
        let expected = Int64(index % 2 == 0 ? commits : writers * commits)
        #expect(delivered.waitForLast(expected), "observation \(index)")
        // One snapshot: a value may still arrive (the last one again) while
        // the list is read, and two reads would compare two lists.
        let all = delivered.all
        #expect(all == all.sorted(), "observation \(index) went back in time")
        #expect(delivered.errors.isEmpty)
      }
      for cancellable in cancellables { cancellable.cancel() }
    }
  }
}

/// `ValueObservation.tracking { db in try request.fetchAll(db) }` of a query
/// request with an association is notified only for the tables the request
/// reads (as AQueryRequestIsNotifiedOnlyForTheTablesItReads in C++).
@Suite("ValueObservation of a query request")
struct QueryRequestObservationTests {
  struct Owner: TableRecord { static let databaseTableName = "owners" }
  struct Pet: TableRecord, FetchableRecord, Equatable, Sendable {
    static let databaseTableName = "pets"
    static let owner = belongsTo(Owner.self)
    var name: String
    init(row: RowView) throws { name = try row.get("name", as: String.self) }
  }

  @Test(arguments: StoreKind.allCases)
  func aRequestIsNotifiedOnlyForTheTablesItReads(kind: StoreKind) throws {
    try withObservedStore(kind) { store, _ in
      try store.write("CREATE TABLE owners(id INTEGER PRIMARY KEY, name TEXT)")
      try store.write("CREATE TABLE pets(id INTEGER PRIMARY KEY, ownerId INTEGER REFERENCES owners(id), name TEXT)")
      try store.write("INSERT INTO owners VALUES (1, 'o')")
      let request = Pet.including(required: Pet.owner.filter(Column("name") != "nobody"))
      let values = DeliveredValues<Int>()
      let fetches = CallCount()
      let observation = ValueObservation.tracking { db -> Int in
        fetches.increment()
        return try request.fetchAll(db).count
      }
      let cancellable = store.start(observation, onError: values.onError, onChange: values.onChange)
      #expect(values.waitForLast(0))
      try store.write("INSERT INTO items(name) VALUES ('a')")
      try store.write("INSERT INTO other VALUES (1)")
      try store.write("INSERT INTO pets VALUES (1, 1, 'p')")
      #expect(values.waitForLast(1))
      #expect(fetches.value == 2, "the commits to items and other fetched nothing")
      try store.write("UPDATE owners SET name = 'nobody'")
      #expect(values.waitForLast(0))
      #expect(fetches.value == 3)
      #expect(values.all == [0, 1, 0])
      #expect(values.errors.isEmpty)
      cancellable.cancel()
    }
  }
}
