import Foundation
import SQLiteBridge
import Testing

/// `createCollation` and `removeCollation` from Swift: ORDER BY, an index, a
/// comparison, removal, and the closure released on replace, remove and
/// close. (CollationTests.cpp checks the same in C++.)
@Suite("Collations")
struct CollationTests {
  final class Probe {}

  private func nocaseLike(_ a: String, _ b: String) -> ComparisonResult {
    a.lowercased() < b.lowercased()
      ? .orderedAscending : a.lowercased() > b.lowercased() ? .orderedDescending : .orderedSame
  }

  private func words() throws -> Database {
    let database = try memoryDatabase()
    try database.createCollation("nocase_like", nocaseLike)
    try database.executeScript("CREATE TABLE words(w TEXT); INSERT INTO words VALUES ('b'), ('A'), ('c'), ('B');")
    return database
  }

  private func column(_ database: Database, _ sql: String) throws -> [DatabaseValue] {
    try database.execute(sql).map { $0["w"] ?? .null }
  }

  @Test func ordersInOrderBy() throws {
    let database = try words()
    #expect(try column(database, "SELECT w FROM words ORDER BY w COLLATE nocase_like, w") == ["A", "B", "b", "c"])
    #expect(
      try column(database, "SELECT w FROM words ORDER BY w COLLATE nocase_like DESC, w DESC") == ["c", "b", "B", "A"])
  }

  @Test func comparesInAnExpression() throws {
    let database = try words()
    #expect(try scalar(database, "SELECT 'a' = 'A' COLLATE nocase_like") == 1)
    #expect(try scalar(database, "SELECT 'a' = 'A'") == 0)
    var seen: [String] = []
    try database.createCollation("record") { a, b in
      seen += [a, b]
      return a.lowercased() == b.lowercased() ? .orderedSame : .orderedAscending
    }
    #expect(try scalar(database, "SELECT ? = ? COLLATE record", ["x\0y", "X\0Y"]) == 1)
    #expect(seen == ["x\0y", "X\0Y"])
  }

  @Test func backsAnIndexAndAColumn() throws {
    let database = try words()
    let duplicate = databaseError {
      try database.execute("CREATE UNIQUE INDEX words_nocase ON words(w COLLATE nocase_like)")
    }
    #expect(duplicate?.resultCode == .constraint, "'b' and 'B' are the same under nocase_like")
    try database.execute("DELETE FROM words WHERE w = 'B'")
    try database.execute("CREATE UNIQUE INDEX words_nocase ON words(w COLLATE nocase_like)")
    #expect(databaseError { try database.execute("INSERT INTO words VALUES ('C')") }?.resultCode == .constraint)
    let plan = try database.execute("EXPLAIN QUERY PLAN SELECT w FROM words WHERE w = 'a' COLLATE nocase_like")
    #expect(plan.first?["detail"].map { "\($0)".contains("words_nocase") } == true, "\(plan)")
    #expect(try scalar(database, "SELECT w FROM words WHERE w = 'a' COLLATE nocase_like") == "A")
    try database.executeScript(
      "CREATE TABLE tags(t TEXT COLLATE nocase_like PRIMARY KEY); INSERT INTO tags VALUES ('Swift');")
    #expect(databaseError { try database.execute("INSERT INTO tags VALUES ('SWIFT')") }?.resultCode == .constraint)
  }

  @Test func removalReleasesTheClosureAndTheCollationIsGone() throws {
    let database = try words()
    weak var released: Probe?
    do {
      let probe = Probe()
      released = probe
      try database.createCollation("tracked") { a, b in
        withExtendedLifetime(probe) {}
        return a.lowercased() == b.lowercased() ? .orderedSame : .orderedAscending
      }
    }
    #expect(released != nil)
    #expect(try scalar(database, "SELECT 'x' = 'X' COLLATE tracked") == 1)
    try database.removeCollation("tracked")
    #expect(released == nil)
    let gone = databaseError { try database.execute("SELECT 'x' = 'X' COLLATE tracked") }
    #expect(gone?.message.contains("no such collation sequence: tracked") == true)
    try database.removeCollation("never_registered")
  }

  @Test func replacingAndClosingReleaseTheClosures() throws {
    let database = try words()
    weak var first: Probe?
    weak var second: Probe?
    do {
      let probe = Probe()
      first = probe
      try database.createCollation("order") { a, b in
        withExtendedLifetime(probe) {}
        return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
      }
    }
    do {
      let probe = Probe()
      second = probe
      try database.createCollation("order") { a, b in
        withExtendedLifetime(probe) {}
        return a < b ? .orderedDescending : a > b ? .orderedAscending : .orderedSame
      }
    }
    #expect(first == nil)
    #expect(second != nil)
    #expect(try scalar(database, "SELECT w FROM words ORDER BY w COLLATE \"order\" LIMIT 1") == "c")
    database.close()
    #expect(second == nil)
  }

  @Test func badNamesAndAClosedDatabaseAreRefused() throws {
    let database = try words()
    #expect(databaseError { try database.createCollation("a\0b", nocaseLike) }?.resultCode == .misuse)
    #expect(databaseError { try database.removeCollation("a\0b") }?.resultCode == .misuse)
    database.close()
    #expect(databaseError { try database.createCollation("late", nocaseLike) }?.resultCode == .misuse)
    #expect(databaseError { try database.removeCollation("late") }?.resultCode == .misuse)
  }
}
