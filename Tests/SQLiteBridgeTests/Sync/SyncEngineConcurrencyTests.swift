import Foundation
import Testing

@testable import SQLiteBridge

/// `SyncEngine.sync()` from several tasks: concurrent calls of one engine
/// take turns (the core refuses a second round meanwhile) in the order they
/// came, and a cancelled sync ends its round so that the next one runs.
/// Every wait is bounded: a test that would hang fails instead.
@Suite(
  .usesSessionExtension,
  .enabled(if: Changeset.isAvailable, "this SQLite was built without the session extension (SQLITE_ENABLE_SESSION)"))
struct SyncEngineConcurrencyTests {
  /// Waits (bounded) until `engine` has `count` sync calls waiting for the
  /// running one; false at once when a call that should wait has finished
  /// (`finished`) instead.
  private func waitUntil(_ engine: SyncEngine, hasWaiting count: Int, unless finished: Locked<Int>) async -> Bool {
    let deadline = ContinuousClock.now + threadWaitLimit
    while await engine.waitingSyncCount < count && finished.current == 0 && ContinuousClock.now < deadline {
      await Task.yield()
    }
    return await engine.waitingSyncCount == count
  }

  /// A hook that holds the first call it runs in until `release` is sent,
  /// telling `entered` once it is held (later calls go through).
  private func holdFirstCall(entered: Signal, release: Signal) -> HookedHub.Hook {
    let first = Locked(true)
    return {
      guard
        first.withLock({ isFirst in
          defer { isFirst = false }
          return isFirst
        })
      else { return }
      entered.send()
      guard await release.waitFromTask() else { throw HubUnavailable(reason: "never released (test)") }
    }
  }

  @Test func twoConcurrentSyncsOfOneEngineTakeTurnsAndBothSucceed() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let hooked = HookedHub(world.hub)
    let phone = try world.device("phone", hub: hooked)
    let laptop = try world.device("laptop")
    try phone.write("INSERT INTO notes(id, title) VALUES ('p1', 'from phone')")
    try laptop.write("INSERT INTO notes(id, title) VALUES ('l1', 'from laptop')")
    try await laptop.sync()
    let entered = Signal()
    let release = Signal()
    hooked.beforeEntries = holdFirstCall(entered: entered, release: release)

    // The first sync is held inside the hub's `entries`; the second is
    // called meanwhile and must wait for it, not fail with "another sync
    // round of this engine is running".
    let first = Task { try await phone.sync() }
    // However the test ends, the held round goes on (and the test ends).
    defer { release.send() }
    try #require(await entered.waitFromTask(), "the first sync never reached the hub")
    let finished = Locked(0)
    let second = Task {
      defer { finished.withLock { $0 += 1 } }
      return try await phone.sync()
    }
    #expect(
      await waitUntil(phone.engine, hasWaiting: 1, unless: finished), "the second sync never waited for the first")
    #expect(hooked.entryReads == 1)
    release.send()

    let firstReport = try await first.value
    let secondReport = try await second.value
    #expect(firstReport.pulled == 1)
    #expect(firstReport.pushed == 1)
    #expect(secondReport.pulled == 0)
    #expect(secondReport.pushed == 0)
    #expect(hooked.entryReads == 2)
    #expect(try phone.pending() == 0)
    #expect(try await world.log().map(\.device) == ["laptop", "phone"])
    #expect(try phone.rows() == ["-- notes", "l1|from laptop|", "p1|from phone|", "-- tags", "-- counters"])
  }

  /// Which caller a hub call comes from (the rounds' order is read where
  /// they run: in the hub).
  private enum Caller {
    @TaskLocal static var index = 0
  }

  @Test func syncsWaitingForOneEngineRunInTheOrderTheyCame() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let hooked = HookedHub(world.hub)
    let phone = try world.device("phone", hub: hooked)
    let entered = Signal()
    let release = Signal()
    let hold = holdFirstCall(entered: entered, release: release)
    let order = Locked<[Int]>([])
    hooked.beforeEntries = {
      order.withLock { $0.append(Caller.index) }
      try await hold()
    }
    let first = Task { try await phone.sync() }
    defer { release.send() }
    try #require(await entered.waitFromTask(), "the first sync never reached the hub")
    // Four more calls, each queued before the next is made.
    let finished = Locked(0)
    var waiters: [Task<SyncReport, any Error>] = []
    for index in 1...4 {
      try phone.write("INSERT INTO notes(id, title) VALUES ('n\(index)', 'change \(index)')")
      waiters.append(
        Task {
          defer { finished.withLock { $0 += 1 } }
          return try await Caller.$index.withValue(index) { try await phone.sync() }
        })
      try #require(await waitUntil(phone.engine, hasWaiting: index, unless: finished), "call \(index) never queued")
    }
    release.send()
    // The held round pulls after the four writes: it pushes them all.
    #expect(try await first.value.pushed == 4)
    for waiter in waiters { #expect(try await waiter.value.pushed == 0) }
    #expect(order.current == [0, 1, 2, 3, 4])
    #expect(try phone.pending() == 0)
    #expect(try await world.log().count == 4)
  }

  @Test func theLockHandsItselfToWaitersFirstComeFirstServed() async throws {
    let lock = SyncRoundLock()
    await lock.lock()
    let order = Locked<[Int]>([])
    var tasks: [Task<Void, Never>] = []
    for index in 1...5 {
      tasks.append(
        Task {
          await lock.lock()
          order.withLock { $0.append(index) }
          await lock.unlock()
        })
      let deadline = ContinuousClock.now + threadWaitLimit
      while await lock.waitingCount < index && ContinuousClock.now < deadline { await Task.yield() }
      #expect(await lock.waitingCount == index, "task \(index) never queued")
    }
    await lock.unlock()
    for task in tasks { await task.value }
    #expect(order.current == [1, 2, 3, 4, 5])
    // Free again: taken at once.
    await lock.lock()
    #expect(await lock.waitingCount == 0)
    await lock.unlock()
  }

  @Test func aCancelledSyncThrowsCancellationErrorAndTheNextOneRuns() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let hooked = HookedHub(world.hub)
    let phone = try world.device("phone", hub: hooked)
    try phone.write("INSERT INTO notes(id, title) VALUES ('n1', 'one')")
    let entered = Signal()
    let release = Signal()
    hooked.beforeEntries = holdFirstCall(entered: entered, release: release)
    let task = Task { try await phone.sync() }
    defer { release.send() }
    try #require(await entered.waitFromTask(), "the sync never reached the hub")
    task.cancel()
    release.send()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    // Cancelled before its push: nothing reached the log, the change is
    // kept, and the round is over.
    #expect(hooked.appends == 0)
    #expect(try await world.log().isEmpty)
    #expect(try phone.pending() == 1)
    let next = try await phone.sync()
    #expect(next.pushed == 1)
    #expect(try phone.pending() == 0)
  }

  /// While plain threads hold the writers of more devices than there are
  /// cores, the syncs of those devices wait for them without holding a
  /// thread of Swift's cooperative pool: an unrelated task still runs.
  @Test func syncsWaitingForTheirWritersDoNotBlockTheCooperativePool() async throws {
    let world = try SyncWorld()
    defer { world.remove() }
    let count = 4 * max(ProcessInfo.processInfo.activeProcessorCount, 2)
    let devices = try (0..<count).map { try world.device("device\($0)") }
    for device in devices {
      try device.write("INSERT INTO notes(id, title) VALUES (?, 'x')", [.text(UUID().uuidString)])
    }
    let holding = Latch(count)
    let release = Signal()
    let holders = devices.map { device in
      TestThread("a writer's holder") {
        do {
          try device.queue.write { _ in
            holding.countDown()
            #expect(release.wait(), "the test did not release the writer")
          }
        } catch {
          Issue.record("the holder's write failed: \(error)")
        }
      }
    }
    #expect(await holding.waitFromTask(), "the holders did not all start")
    let calling = Latch(count)
    let syncs = Task {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for device in devices {
          group.addTask {
            calling.countDown()
            return try await device.sync().pushed
          }
        }
        return try await group.reduce(0, +)
      }
    }
    #expect(await calling.waitFromTask(), "the sync tasks did not all start")
    let ran = Signal()
    Task { ran.send() }
    #expect(await ran.waitFromTask(within: .seconds(30)), "a task did not run: waiting syncs hold the cooperative pool")
    for _ in 0..<count { release.send() }
    for holder in holders { holder.join() }
    #expect(try await syncs.value == count)
  }
}
