import Foundation
import SQLiteBridge
import Testing

/// `createFunction`, `createAggregate` and `removeFunction` from Swift:
/// fixed and any arity, every value type in and out, thrown errors as the
/// query's error, aggregates per group (empty too) and their failures,
/// deterministic functions in an index and a CHECK, removal, and the
/// closure released on replace, remove and close. (FunctionTests.cpp checks
/// the same in C++.)
@Suite("Functions")
struct FunctionTests {
  /// Something a function's closure holds, to see when the core releases it.
  final class Probe {}

  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  /// The sum of its integer arguments over a group.
  struct Total: DatabaseAggregate {
    var total: Int64 = 0
    init() {}
    mutating func step(_ arguments: [DatabaseValue]) throws {
      if case .integer(let value) = arguments[0] { total += value }
    }
    func finalize() throws -> DatabaseValue { .integer(total) }
  }

  struct FailingStep: DatabaseAggregate {
    mutating func step(_ arguments: [DatabaseValue]) throws {
      if arguments[0] == 2 { throw DatabaseError(code: 1, message: "step saw 2") }
    }
    func finalize() throws -> DatabaseValue { .null }
  }

  struct FailingFinalize: DatabaseAggregate {
    var rows = 0
    init() {}
    mutating func step(_ arguments: [DatabaseValue]) throws { rows += 1 }
    func finalize() throws -> DatabaseValue { throw Refusal(description: "finalize refused \(rows) rows") }
  }

  /// Counts the groups made and finished, to see one per group.
  final class Groups: @unchecked Sendable {
    nonisolated(unsafe) static var made = 0
    nonisolated(unsafe) static var live = 0
  }

  struct CountedTotal: DatabaseAggregate {
    var total = Total()
    let token = Token()
    init() {}
    mutating func step(_ arguments: [DatabaseValue]) throws { try total.step(arguments) }
    func finalize() throws -> DatabaseValue { try total.finalize() }

    final class Token {
      init() {
        Groups.made += 1
        Groups.live += 1
      }
      deinit { Groups.live -= 1 }
    }
  }

  @Test func scalarOfFixedArity() throws {
    let database = try memoryDatabase()
    try database.createFunction("twice", argumentCount: 1, deterministic: true) { arguments in
      guard case .integer(let value) = arguments[0] else { return .null }
      return .integer(value * 2)
    }
    #expect(try scalar(database, "SELECT twice(21)") == 42)
    let error = databaseError { try database.execute("SELECT twice(1, 2)") }
    #expect(error?.resultCode == .error)
    #expect(error?.message.contains("wrong number of arguments to function twice()") == true)
  }

  @Test func scalarOfAnyArity() throws {
    let database = try memoryDatabase()
    try database.createFunction("count_args") { arguments in .integer(Int64(arguments.count)) }
    #expect(try scalar(database, "SELECT count_args()") == 0)
    #expect(try scalar(database, "SELECT count_args(1, 'a', NULL, x'00')") == 4)
    try database.createFunction("count_args", argumentCount: 2) { _ in "two" }
    #expect(try scalar(database, "SELECT count_args(1, 2)") == "two")
    #expect(try scalar(database, "SELECT count_args(1, 2, 3)") == 3)
  }

  @Test func everyValueTypeRoundTripsExactly() throws {
    let database = try memoryDatabase()
    var seen: [DatabaseValue] = []
    try database.createFunction("identity", argumentCount: 1, deterministic: true) { arguments in
      seen.append(arguments[0])
      return arguments[0]
    }
    let values: [DatabaseValue] = [
      .null, .integer(.min), .integer(.max), .real(0.1), .real(-1e300), .text("a\0b\0"), .text(""),
      .text("long text past the inline bytes, with é and \0 inside"), .blob(Data([0, 1, 2, 255])),
      .blob(Data()),
    ]
    for value in values {
      #expect(try scalar(database, "SELECT identity(?)", [value]) == value)
      #expect(seen.last == value)
    }
    #expect(try scalar(database, "SELECT typeof(identity(x''))") == "blob")
    #expect(try scalar(database, "SELECT typeof(identity(''))") == "text")
    // Text that is not valid UTF-8 reaches Swift as its exact bytes.
    #expect(try scalar(database, "SELECT identity(CAST(x'ff00' AS TEXT))") == .blob(Data([0xff, 0])))
  }

  @Test func aThrowingFunctionFailsTheQueryWithItsMessage() throws {
    let database = try memoryDatabase()
    try database.createFunction("refuse", argumentCount: 1) { arguments in
      throw DatabaseError(code: 19, message: "refused \(arguments[0])")
    }
    try database.createFunction("other") { _ in throw Refusal(description: "not today") }
    let refused = databaseError { try database.execute("SELECT refuse('this')") }
    #expect(refused?.resultCode == .error)
    #expect(refused?.message == "refused 'this'")
    let other = databaseError { try database.execute("SELECT other()") }
    #expect(other?.resultCode == .error)
    #expect(other?.message == "not today")
    try database.execute("CREATE TABLE t(x)")
    _ = databaseError { try database.execute("INSERT INTO t VALUES (other())") }
    #expect(try scalar(database, "SELECT count(*) FROM t") == 0)
  }

  @Test func anAggregateSumsOverRowsGroupsAndAnEmptyTable() throws {
    let database = try memoryDatabase()
    try database.createAggregate("total", argumentCount: 1, deterministic: true, Total.self)
    try database.executeScript(
      "CREATE TABLE t(g, x); INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 10), ('b', 20), ('b', 30);")
    #expect(try scalar(database, "SELECT total(x) FROM t") == 63)
    let groups = try database.execute("SELECT g, total(x) AS s FROM t GROUP BY g ORDER BY g")
    #expect(groups == [["g": "a", "s": 3], ["g": "b", "s": 60]])
    try database.execute("CREATE TABLE empty(x)")
    #expect(try scalar(database, "SELECT total(x) FROM empty") == 0)
    #expect(try database.execute("SELECT x, total(x) FROM empty GROUP BY x").isEmpty)
  }

  @Test func oneAggregatePerGroupAndEachReleased() throws {
    let database = try memoryDatabase()
    Groups.made = 0
    try database.createAggregate("counted", argumentCount: 1, CountedTotal.self)
    try database.executeScript("CREATE TABLE t(g, x); INSERT INTO t VALUES (1, 1), (1, 2), (2, 3), (3, 4);")
    #expect(try database.execute("SELECT g, counted(x) AS s FROM t GROUP BY g").count == 3)
    #expect(Groups.made == 3)
    #expect(Groups.live == 0)
    // A statement abandoned after its first group releases the one in progress.
    var rows = 0
    #expect(throws: Refusal.self) {
      try database.forEachRow("SELECT g, counted(x) FROM t GROUP BY g") { _ in
        rows += 1
        throw Refusal(description: "stop")
      }
    }
    #expect(rows == 1)
    #expect(Groups.live == 0)
  }

  @Test func anAggregateFailingInStepOrFinalizeFailsTheQuery() throws {
    let database = try memoryDatabase()
    try database.createAggregate("failing_step", argumentCount: 1, FailingStep.self)
    try database.createAggregate("failing_finalize", argumentCount: 1, FailingFinalize.self)
    try database.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);")
    let step = databaseError { try database.execute("SELECT failing_step(x) FROM t") }
    #expect(step?.resultCode == .error)
    #expect(step?.message == "step saw 2")
    let finalize = databaseError { try database.execute("SELECT failing_finalize(x) FROM t") }
    #expect(finalize?.resultCode == .error)
    #expect(finalize?.message == "finalize refused 3 rows")
  }

  @Test func aDeterministicFunctionWorksInAnIndexAndACheck() throws {
    let database = try memoryDatabase()
    let lower: ([DatabaseValue]) throws -> DatabaseValue = { arguments in
      guard case .text(let text) = arguments[0] else { return arguments[0] }
      return .text(text.lowercased())
    }
    try database.createFunction("my_lower", argumentCount: 1, deterministic: true, lower)
    try database.createFunction("volatile_lower", argumentCount: 1, lower)
    try database.executeScript(
      """
      CREATE TABLE t(name TEXT CHECK (my_lower(name) = name));
      CREATE UNIQUE INDEX t_lower ON t(my_lower(name));
      """)
    try database.execute("INSERT INTO t VALUES ('abc')")
    let check = databaseError { try database.execute("INSERT INTO t VALUES ('ABC')") }
    #expect(check?.extendedResultCode == .constraintCheck)
    let plan = try database.execute("EXPLAIN QUERY PLAN SELECT * FROM t WHERE my_lower(name) = 'abc'")
    #expect(plan.first?["detail"].map { "\($0)".contains("t_lower") } == true, "\(plan)")
    let index = databaseError { try database.execute("CREATE INDEX t_volatile ON t(volatile_lower(name))") }
    #expect(index?.resultCode == .error)
    #expect(index?.message.contains("non-deterministic functions prohibited in index expressions") == true)
    // SQLite 3.40 does not refuse a non-deterministic function in a CHECK.
    try database.execute("CREATE TABLE u(name TEXT CHECK (volatile_lower(name) = name))")
    try database.execute("INSERT INTO u VALUES ('abc')")
  }

  @Test func removalReleasesTheClosureAndTheFunctionIsGone() throws {
    let database = try memoryDatabase()
    weak var released: Probe?
    do {
      let probe = Probe()
      released = probe
      try database.createFunction("f", argumentCount: 0) { _ in
        withExtendedLifetime(probe) {}
        return 1
      }
    }
    #expect(released != nil)
    #expect(try scalar(database, "SELECT f()") == 1)
    try database.removeFunction("f", argumentCount: 0)
    #expect(released == nil)
    let gone = databaseError { try database.execute("SELECT f()") }
    #expect(gone?.resultCode == .error)
    #expect(gone?.message == "no such function: f")
    try database.removeFunction("never_registered")
    try database.createAggregate("agg", Total.self)
    try database.removeFunction("agg")
    #expect(databaseError { try database.execute("SELECT agg(1)") }?.message == "no such function: agg")
  }

  @Test func replacingAndClosingReleaseTheClosures() throws {
    let database = try memoryDatabase()
    weak var first: Probe?
    weak var second: Probe?
    do {
      let probe = Probe()
      first = probe
      try database.createFunction("answer", argumentCount: 0) { _ in
        withExtendedLifetime(probe) {}
        return 1
      }
    }
    do {
      let probe = Probe()
      second = probe
      try database.createFunction("answer", argumentCount: 0) { _ in
        withExtendedLifetime(probe) {}
        return 2
      }
    }
    #expect(first == nil, "the replaced closure is released")
    #expect(second != nil)
    #expect(try scalar(database, "SELECT answer()") == 2)
    database.close()
    #expect(second == nil, "closing releases every closure")
  }

  @Test func badNamesAndAClosedDatabaseAreRefused() throws {
    let database = try memoryDatabase()
    let nul = databaseError { try database.createFunction("a\0b") { _ in 1 } }
    #expect(nul?.resultCode == .misuse)
    let long = databaseError { try database.createFunction(String(repeating: "f", count: 256)) { _ in 1 } }
    #expect(long?.resultCode == .misuse)
    try database.createFunction(String(repeating: "f", count: 255), argumentCount: 0) { _ in 1 }
    #expect(try scalar(database, "SELECT \(String(repeating: "f", count: 255))()") == 1)
    // More arguments than SQLITE_MAX_FUNCTION_ARG on every engine (127 in
    // Debian 12's SQLite 3.40, 1000 in 3.53).
    #expect(databaseError { try database.createFunction("f", argumentCount: 1001) { _ in 1 } }?.resultCode == .misuse)
    #expect(databaseError { try database.removeFunction("a\0b") }?.resultCode == .misuse)
    database.close()
    #expect(databaseError { try database.createFunction("f") { _ in 1 } }?.resultCode == .misuse)
    #expect(databaseError { try database.createAggregate("g", Total.self) }?.resultCode == .misuse)
    #expect(databaseError { try database.removeFunction("f") }?.resultCode == .misuse)
  }
}
