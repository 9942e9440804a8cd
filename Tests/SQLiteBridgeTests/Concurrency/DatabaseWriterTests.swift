import Foundation
import SQLiteBridge
import Testing

/// `DatabaseReader` and `DatabaseWriter`: the same app code, taking "a
/// database" (`some DatabaseWriter`, `any DatabaseWriter`), runs on an
/// in-memory queue and on a pool on a file; observations start through the
/// generic entry points on both; interrupt works through the protocol; a
/// writer that is neither a queue nor a pool cannot start an observation.
@Suite("DatabaseWriter")
struct DatabaseWriterTests {
  /// An in-memory queue or a pool on a file of `directory`.
  static func open(_ kind: SharedKind, in directory: String) throws -> any DatabaseWriter {
    switch kind {
    case .queue: return try DatabaseQueue(path: ":memory:")
    case .pool: return try DatabasePool(path: directory + "/writer.db")
    }
  }

  func withWriter(_ kind: SharedKind, _ body: (any DatabaseWriter) throws -> Void) throws {
    try withTemporaryDirectory { directory in try body(try Self.open(kind, in: directory)) }
  }

  // App code written once against the protocols.

  static func createNotes(in writer: some DatabaseWriter) throws {
    try writer.writeWithoutTransaction { db in
      try db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    }
  }

  static func addNote(_ title: String, to writer: some DatabaseWriter) throws -> Int64 {
    try writer.write { db in
      try db.execute("INSERT INTO notes(title) VALUES (?)", [title])
      return db.lastInsertRowID
    }
  }

  static func titles(in reader: any DatabaseReader) throws -> [String] {
    try reader.read { db in try db.rows("SELECT title FROM notes ORDER BY id").map { try $0.get(0, as: String.self) } }
  }

  @Test(arguments: SharedKind.allCases)
  func theSameCodeReadsAndWritesAQueueAndAPool(kind: SharedKind) throws {
    try withWriter(kind) { writer in
      try Self.createNotes(in: writer)
      #expect(try Self.addNote("a", to: writer) == 1)
      #expect(try Self.addNote("b", to: writer) == 2)
      #expect(try Self.titles(in: writer) == ["a", "b"])
      // A write that throws rolls back, through the protocol as directly.
      #expect(throws: BlockError.self) {
        try writer.write { db in
          try db.execute("INSERT INTO notes(title) VALUES ('c')")
          throw BlockError(id: 1)
        }
      }
      #expect(try Self.titles(in: writer) == ["a", "b"])
      // A read block is read-only.
      let error = #expect(throws: DatabaseError.self) {
        try writer.read { db in try db.execute("INSERT INTO notes(title) VALUES ('d')") }
      }
      #expect(error?.resultCode == .readOnly)
    }
  }

  @Test(arguments: SharedKind.allCases)
  func asyncReadsAndWritesGoThroughTheProtocol(kind: SharedKind) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let writer = try Self.open(kind, in: directory)
    try Self.createNotes(in: writer)
    let id = try await writer.write { db in
      try db.execute("INSERT INTO notes(title) VALUES ('async')")
      return db.lastInsertRowID
    }
    #expect(id == 1)
    let count = try await writer.read { db in try integer(db, "SELECT count(*) FROM notes") }
    #expect(count == 1)
  }

  @Test(arguments: SharedKind.allCases)
  func interruptGoesThroughTheProtocol(kind: SharedKind) throws {
    try withWriter(kind) { writer in
      try Self.createNotes(in: writer)
      let reader: any DatabaseReader = writer
      let error = interruptUntilReturns({ reader.interrupt() }) { started in
        try reader.read { db in
          started.send()
          try db.execute(endlessQuery)
        }
      }
      #expect((error as? DatabaseError)?.resultCode == .interrupt, "\(String(describing: error))")
      #expect(try Self.titles(in: writer) == [])
    }
  }

  @Test(arguments: SharedKind.allCases)
  func aValueObservationStartsThroughTheProtocol(kind: SharedKind) throws {
    try withWriter(kind) { writer in
      try Self.createNotes(in: writer)
      let values = DeliveredValues<Int64>()
      let observation = ValueObservation.tracking { db in try integer(db, "SELECT count(*) FROM notes") }
      let cancellable = observation.start(in: writer, onError: values.onError, onChange: values.onChange)
      #expect(cancellable.isActive)
      #expect(values.waitForLast(0))
      _ = try Self.addNote("a", to: writer)
      #expect(values.waitForLast(1))
      _ = try Self.addNote("b", to: writer)
      #expect(values.waitForLast(2))
      cancellable.cancel()
      #expect(!cancellable.isActive)
      #expect(values.all == [0, 1, 2])
      #expect(values.errors.isEmpty)
    }
  }

  @Test(arguments: SharedKind.allCases)
  func valuesStartThroughTheProtocol(kind: SharedKind) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let writer = try Self.open(kind, in: directory)
    try Self.createNotes(in: writer)
    var seen: [Int64] = []
    let observation = ValueObservation.tracking { db in try integer(db, "SELECT count(*) FROM notes") }
    for try await value in observation.values(in: writer) {
      seen.append(value)
      if value == 2 { break }
      _ = try Self.addNote("x", to: writer)
    }
    #expect(seen == [0, 1, 2])
  }

  @Test(arguments: SharedKind.allCases)
  func aRegionObservationStartsThroughTheProtocol(kind: SharedKind) throws {
    try withWriter(kind) { writer in
      try Self.createNotes(in: writer)
      try writer.write { db in try db.execute("CREATE TABLE other(x)") }
      let counts = DeliveredValues<Int64>()
      let observation = DatabaseRegionObservation(tracking: DatabaseRegion(table: "notes"))
      let cancellable = try observation.start(in: writer, onError: counts.onError) { db in
        counts.onChange((try? integer(db, "SELECT count(*) FROM notes")) ?? -1)
      }
      try writer.write { db in try db.execute("INSERT INTO other VALUES (1)") }
      _ = try Self.addNote("a", to: writer)
      #expect(counts.waitForLast(1))
      _ = try Self.addNote("b", to: writer)
      #expect(counts.waitForLast(2))
      cancellable.cancel()
      #expect(counts.all == [1, 2], "the commit to `other` is not told")
      #expect(counts.errors.isEmpty)
    }
  }

  /// A writer of the app's own (here, one forwarding to a queue) reads and
  /// writes; an observation needs the core's queue or pool, so starting one
  /// on it fails with `.misuse` and observes nothing.
  @Test func observationsOnAWriterOfAnotherTypeFailWithMisuse() async throws {
    let writer = ForwardingWriter(try DatabaseQueue(path: ":memory:"))
    try Self.createNotes(in: writer)
    #expect(try Self.addNote("a", to: writer) == 1)
    #expect(try Self.titles(in: writer) == ["a"])

    let observation = ValueObservation.tracking { db in try integer(db, "SELECT count(*) FROM notes") }
    let values = DeliveredValues<Int64>()
    let cancellable = observation.start(in: writer, onError: values.onError, onChange: values.onChange)
    #expect(!cancellable.isActive)
    #expect(values.all.isEmpty)
    #expect((values.errors.first as? DatabaseError)?.resultCode == .misuse)

    let thrown = await #expect(throws: DatabaseError.self) {
      for try await _ in observation.values(in: writer) { Issue.record("no value is delivered") }
    }
    #expect(thrown?.resultCode == .misuse)

    let regionError = #expect(throws: DatabaseError.self) {
      try DatabaseRegionObservation(tracking: DatabaseRegion(table: "notes")).start(
        in: writer, onError: { _ in }, onChange: { _ in })
    }
    #expect(regionError?.resultCode == .misuse)
  }
}

/// A `DatabaseWriter` of the app's own: every call forwards to a queue.
final class ForwardingWriter: DatabaseWriter {
  let queue: DatabaseQueue
  init(_ queue: DatabaseQueue) { self.queue = queue }
  func read<T>(_ body: (Database) throws -> T) throws -> T { try queue.read(body) }
  func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T { try await queue.read(body) }
  func interrupt() { queue.interrupt() }
  func write<T>(_ body: (Database) throws -> T) throws -> T { try queue.write(body) }
  func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T { try await queue.write(body) }
  func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try queue.writeWithoutTransaction(body)
  }
}
