import Foundation
import SQLiteBridge
import Testing

/// `trace(_:_:)` from Swift: statements as written (bound values hidden),
/// expanded SQL when asked, profile durations, stopping, replacing and
/// closing (the closure released, never called after). (TracingTests.cpp
/// checks the same in C++.)
@Suite("Tracing")
struct TracingTests {
  private func notes() throws -> Database {
    let database = try memoryDatabase()
    try database.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    return database
  }

  private func insertSecret(_ database: Database) throws {
    try database.execute("INSERT INTO notes(title) VALUES (?)", ["secret-value"])
  }

  @Test func reportsEachStatementAsWrittenWithoutItsBoundValues() throws {
    let database = try notes()
    let events = Recorder<TraceEvent>()
    database.trace(.statements) { events.add($0) }
    try insertSecret(database)
    try database.execute("SELECT count(*) FROM notes")
    try #require(events.items.count == 2)
    #expect(events.items[0].kind == .statement)
    #expect(events.items[0].sql == "INSERT INTO notes(title) VALUES (?)")
    #expect(events.items[0].expandedSQL == nil)
    #expect(events.items[0].duration == nil)
    #expect(events.items[1].sql == "SELECT count(*) FROM notes")
    #expect(events.items.allSatisfy { !$0.sql.contains("secret-value") })
  }

  @Test func theDefaultOptionsTraceStatements() throws {
    let database = try notes()
    let events = Recorder<TraceEvent>()
    database.trace { events.add($0) }
    try database.execute("SELECT 1")
    #expect(events.items.map(\.kind) == [.statement])
  }

  @Test func expandedSQLCarriesTheBoundValuesWhenAskedFor() throws {
    let database = try notes()
    let events = Recorder<TraceEvent>()
    database.trace([.statements, .expandedSQL]) { events.add($0) }
    try insertSecret(database)
    try database.execute("SELECT title FROM notes WHERE id = ?", [1])
    try #require(events.items.count == 2)
    #expect(events.items[0].sql == "INSERT INTO notes(title) VALUES (?)")
    #expect(events.items[0].expandedSQL == "INSERT INTO notes(title) VALUES ('secret-value')")
    #expect(events.items[1].expandedSQL == "SELECT title FROM notes WHERE id = 1")
  }

  @Test func profileEventsCarryHowLongTheStatementRan() throws {
    let database = try notes()
    let events = Recorder<TraceEvent>()
    database.trace(.profile) { events.add($0) }
    let slow =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT sum(i) FROM n"
    try database.execute(slow)
    try #require(events.items.count == 1)
    #expect(events.items[0].kind == .profile)
    #expect(events.items[0].sql == slow)
    let duration = try #require(events.items[0].duration)
    #expect(duration > .zero)
    #expect(duration < .seconds(60))
  }

  @Test func nilStopsTracingAndReleasesTheClosure() throws {
    let database = try notes()
    let events = Recorder<TraceEvent>()
    let watch = installWatched { token in
      database.trace(.statements) {
        withExtendedLifetime(token) {}
        events.add($0)
      }
    }
    try database.execute("SELECT 1")
    #expect(events.items.count == 1)
    #expect(watch() != nil)
    database.trace(.statements, nil)
    #expect(watch() == nil)
    try database.execute("SELECT 2")
    #expect(events.items.count == 1)
  }

  @Test func replacingReleasesTheOldClosureAndCallsOnlyTheNewOne() throws {
    let database = try notes()
    let first = Recorder<TraceEvent>()
    let second = Recorder<TraceEvent>()
    let watch = installWatched { token in
      database.trace(.statements) {
        withExtendedLifetime(token) {}
        first.add($0)
      }
    }
    #expect(watch() != nil)
    database.trace(.statements) { second.add($0) }
    #expect(watch() == nil)
    try database.execute("SELECT 1")
    #expect(first.items.isEmpty)
    #expect(second.items.count == 1)
  }

  @Test func closingReleasesTheClosureAndNothingIsCalledAfter() throws {
    let database = try notes()
    let events = Recorder<TraceEvent>()
    let watch = installWatched { token in
      database.trace([.statements, .profile]) {
        withExtendedLifetime(token) {}
        events.add($0)
      }
    }
    try database.execute("BEGIN")
    try insertSecret(database)
    let count = events.items.count
    database.close()
    #expect(watch() == nil)
    #expect(events.items.count == count)
    #expect(throws: DatabaseError.self) { try database.execute("SELECT 1") }
    #expect(events.items.count == count)
  }

  @Test func onAClosedDatabaseTheClosureIsReleased() throws {
    let database = try notes()
    database.close()
    let watch = installWatched { token in database.trace(.statements) { _ in withExtendedLifetime(token) {} } }
    #expect(watch() == nil)
  }
}
