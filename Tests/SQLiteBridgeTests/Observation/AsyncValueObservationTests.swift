import Foundation
import SQLiteBridge
import Testing

/// `ValueObservation.values(in:)`: the initial value first, then the values
/// of later commits; an error the fetch throws is thrown by the iteration;
/// cancelling the task or leaving the loop ends the observation.
@Suite("AsyncValueObservation")
struct AsyncValueObservationTests {
  @Test(arguments: StoreKind.allCases)
  func yieldsTheInitialValueThenTheValuesOfLaterCommits(kind: StoreKind) async throws {
    try await withObservedStoreAsync(kind) { store in
      var seen: [Int64] = []
      for try await value in store.values(countObservation("SELECT count(*) FROM items")) {
        seen.append(value)
        if value == 3 { break }
        try store.write("INSERT INTO items(name) VALUES ('x')")
      }
      #expect(seen == [0, 1, 2, 3])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func leavingTheLoopEndsTheObservation(kind: StoreKind) async throws {
    try await withObservedStoreAsync(kind) { store in
      let fetches = CallCount()
      for try await value in store.values(countObservation("SELECT count(*) FROM items", fetches: fetches)) {
        #expect(value == 0)
        break
      }
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(fetches.value == 1, "no fetch after the loop was left")
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anErrorTheFetchThrowsIsThrownByTheIteration(kind: StoreKind) async throws {
    try await withObservedStoreAsync(kind) { store in
      let fetches = CallCount()
      let observation = ValueObservation.tracking { db -> Int64 in
        fetches.increment()
        if fetches.value == 2 { throw BlockError(id: 7) }
        return try integer(db, "SELECT count(*) FROM items")
      }
      var seen: [Int64] = []
      do {
        for try await value in store.values(observation) {
          seen.append(value)
          try store.write("INSERT INTO items(name) VALUES ('x')")
        }
        Issue.record("the iteration ended without the error")
      } catch let error as BlockError {
        #expect(error == BlockError(id: 7))
      }
      #expect(seen == [0])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func cancellingTheTaskEndsTheIterationAndTheObservation(kind: StoreKind) async throws {
    try await withObservedStoreAsync(kind) { store in
      let fetches = CallCount()
      let first = Signal()
      let observation = countObservation("SELECT count(*) FROM items", fetches: fetches)
      let task = Task {
        var seen: [Int64] = []
        for try await value in store.values(observation) {
          seen.append(value)
          first.send()
        }
        return seen
      }
      #expect(await first.waitFromTask())
      task.cancel()
      let seen = try await task.value
      #expect(seen == [0])
      try store.write("INSERT INTO items(name) VALUES ('a')")
      #expect(fetches.value == 1, "no fetch after the task was cancelled")
    }
  }
}

/// `withObservedStore` for an async body.
private func withObservedStoreAsync(_ kind: StoreKind, _ body: (ObservedStore) async throws -> Void) async throws {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("SQLiteBridgeTests-\(UUID().uuidString)", isDirectory: true).path
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let path = directory + "/observed.db"
  try makeDatabaseFile(at: path, script: observedSchema)
  try await body(try ObservedStore(kind, path: path))
}
