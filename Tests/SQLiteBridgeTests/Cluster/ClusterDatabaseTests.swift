import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// `ClusterDatabase` against a real three-node dqlite cluster: go-dqlite's
/// dqlite-demo, each node a process of its own on 127.0.0.1, shared by the
/// suite (its tests run one at a time, each on a database of its own).
/// Mirrors Tests/CxxTests/Cluster/ClusterDatabaseTests.cpp. Skipped where
/// dqlite-demo is not installed (Debian package go-dqlite).
@Suite(
  "ClusterDatabase against dqlite-demo nodes", .serialized,
  .enabled(if: DemoCluster.isInstalled, "dqlite-demo is not installed (Debian package go-dqlite)"),
  .demoCluster(nodes: 3))
struct ClusterDatabaseTests {
  let cluster: DemoCluster

  init() throws {
    cluster = try #require(DemoCluster.current, "the suite's dqlite-demo cluster")
  }

  /// A client of the suite's cluster, on the database `name`.
  func open(_ name: String) throws -> ClusterDatabase {
    try ClusterDatabase(name: name, configuration: cluster.configuration)
  }

  @Test func runsStatementsWithArgumentsAndNamesTheColumns() throws {
    let db = try open("statements")
    try db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    #expect(try db.execute("INSERT INTO notes(title) VALUES (?)", ["first"]) == [])
    #expect(db.lastInsertRowID == 1)
    #expect(db.changes == 1)
    try db.execute("INSERT INTO notes(title) VALUES (?), (?)", ["second", "third"])
    #expect(db.changes == 2)
    let found = try db.rows("SELECT id AS n, title FROM notes WHERE id > ? ORDER BY id", [1])
    #expect(found.map(\.columnNames) == [["n", "title"], ["n", "title"]])
    #expect(found.map(\.values) == [[2, "second"], [3, "third"]])
    #expect(found[0]["N"] == 2)  // names are looked up case-insensitively
    let dictionaries = try db.execute("SELECT id, title FROM notes ORDER BY id DESC LIMIT 1")
    #expect(dictionaries == [["id": 3, "title": "third"]])
    // A write returns no rows.
    #expect(try db.execute("UPDATE notes SET title = title || '!'") == [])
    #expect(db.changes == 3)
    // Duplicate names: the leftmost wins in a dictionary, a row keeps all.
    #expect(try db.execute("SELECT 1 AS a, 2 AS a, 3 AS b") == [["a": 1, "b": 3]])
    #expect(try db.rows("SELECT 1 AS a, 2 AS a").first?.values == [1, 2])
    // The names of a result without rows, from the client itself.
    #expect(try db.rows("SELECT * FROM notes WHERE id > 99") == [])
    #expect(db.lastColumnNames == ["id", "title"])
    try db.execute("DELETE FROM notes WHERE id > 99")
    #expect(db.lastColumnNames == [])
  }

  @Test func runsSQLLiteralsWithTheirArguments() throws {
    let db = try open("literals")
    let hostile = "x'); DROP TABLE notes; --"
    try db.execute(literal: "CREATE TABLE \(identifier: "no\"tes")(id INTEGER PRIMARY KEY, title)")
    try db.execute(literal: "INSERT INTO \(identifier: "no\"tes")(title) VALUES \([hostile])")
    let found = try db.rows(literal: "SELECT title FROM \(identifier: "no\"tes") WHERE title = \(hostile)")
    #expect(found.map(\.values) == [[.text(hostile)]])
    struct Note: Decodable, Equatable { var title: String }
    #expect(try db.fetch(Note.self, literal: "SELECT title FROM \(identifier: "no\"tes")") == [Note(title: hostile)])
    let error = try #require(throws: DatabaseError.self) {
      try db.execute(literal: "DROP TABLE \(identifier: "no\u{0}tes")")
    }
    #expect(error.resultCode == .misuse)
    #expect(try db.rows(#"SELECT count(*) FROM "no""tes""#).map(\.values) == [[1]])
  }

  @Test func everyValueTypeRoundTrips() throws {
    let db = try open("values")
    try db.execute("CREATE TABLE v(k INTEGER PRIMARY KEY, x)")
    let megabyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    let values: [DatabaseValue] = [
      .integer(.min), .integer(.max), .integer(0),
      .real(-0.0), .real(.infinity), .real(-.infinity), .real(.leastNonzeroMagnitude), .real(3.141592653589793),
      .text(""), .text("héllo wörld ✓ 𝄞"),
      .blob(Data()), .blob(megabyte),
      .null,
    ]
    for (key, value) in values.enumerated() {
      try db.execute("INSERT INTO v(k, x) VALUES (?, ?)", [.integer(Int64(key)), value])
    }
    let back = try db.rows("SELECT x, typeof(x) FROM v ORDER BY k")
    #expect(back.count == values.count)
    let storageClasses: [DatabaseValue] = [
      "integer", "integer", "integer", "real", "real", "real", "real", "real", "text", "text", "blob", "blob", "null",
    ]
    for (index, row) in back.enumerated() where index < values.count {
      #expect(row[0] == values[index], "value \(index)")
      #expect(row[1] == storageClasses[index], "value \(index)")
      if case .real(let sent) = values[index], case .real(let read) = row[0] {
        #expect(read.bitPattern == sent.bitPattern, "value \(index): \(read) keeps its bits (-0.0 its sign)")
      }
    }
    // The 1 MiB blob came back in one piece, byte for byte.
    #expect(back.count > 11 && back[11][0] == .blob(megabyte))
  }

  @Test func aResultLargerThanOneMessageArrivesWhole() throws {
    let db = try open("big")
    try db.execute("CREATE TABLE big(n INTEGER, pad TEXT)")
    try db.execute(
      "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 20000) "
        + "INSERT INTO big SELECT n, printf('%050d', n) FROM c")
    #expect(db.changes == 20000)
    let all = try db.rows("SELECT n, pad FROM big ORDER BY n")
    #expect(all.count == 20000)
    #expect(all.enumerated().allSatisfy { $0.element[0] == .integer(Int64($0.offset + 1)) })
    #expect(all.last?[1] == .text(String(repeating: "0", count: 45) + "20000"))
    // Decoded through the same rows.
    struct Big: Decodable, Equatable {
      let n: Int
      let pad: String
    }
    let decoded = try db.fetch(Big.self, "SELECT n, pad FROM big ORDER BY n")
    #expect(decoded.count == 20000)
    #expect(decoded.enumerated().allSatisfy { $0.element.n == $0.offset + 1 })
    #expect(decoded.first == Big(n: 1, pad: String(repeating: "0", count: 49) + "1"))
    let dictionaries = try db.execute("SELECT n FROM big ORDER BY n DESC")
    #expect(dictionaries.count == 20000)
    #expect(dictionaries.first == ["n": 20000])
  }

  @Test func fetchDecodesRowsAsDatabaseFetchDoes() throws {
    let db = try open("fetch")
    try db.execute("CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, nickname TEXT)")
    try db.execute("INSERT INTO people(name, age, nickname) VALUES ('Ada', 36, NULL), ('Bob', 41, 'B')")
    struct Person: Decodable, Equatable {
      let id: Int64
      let name: String
      let age: Int
      let nickname: String?
    }
    let people = try db.fetch(Person.self, "SELECT * FROM people ORDER BY id")
    #expect(
      people == [
        Person(id: 1, name: "Ada", age: 36, nickname: nil), Person(id: 2, name: "Bob", age: 41, nickname: "B"),
      ])
    // A convertible type reads the first column.
    #expect(try db.fetch(String.self, "SELECT name FROM people WHERE age > ?", [40]) == ["Bob"])
    // The same errors as Database.fetch: the column, the value and the SQL.
    struct Wrong: Decodable { let name: Int }
    do {
      _ = try db.fetch(Wrong.self, "SELECT name FROM people")
      Issue.record("decoded text as Int")
    } catch DecodingError.typeMismatch(_, let context) {
      let underlying = context.underlyingError as? DatabaseError
      #expect(underlying?.resultCode == .mismatch)
      #expect(underlying?.sql == "SELECT name FROM people")
      #expect(context.debugDescription.contains("column \"name\""), "\(context.debugDescription)")
    }
    struct Missing: Decodable { let absent: Int }
    #expect(throws: DecodingError.self) { _ = try db.fetch(Missing.self, "SELECT name FROM people") }
    // The same answers as a local database gives.
    let local = try memoryDatabase()
    try local.execute("CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, nickname TEXT)")
    try local.execute("INSERT INTO people(name, age, nickname) VALUES ('Ada', 36, NULL), ('Bob', 41, 'B')")
    #expect(try local.fetch(Person.self, "SELECT * FROM people ORDER BY id") == people)
  }

  @Test func transactionsSpanCallsAndSavepoints() throws {
    let db = try open("transactions")
    try db.execute("CREATE TABLE t(n INTEGER)")
    try db.execute("BEGIN")
    #expect(db.isInTransaction)
    try db.execute("INSERT INTO t VALUES (1)")
    #expect(try db.rows("SELECT count(*) FROM t").first?[0] == 1)  // seen inside
    try db.execute("ROLLBACK")
    #expect(!db.isInTransaction)
    #expect(try db.rows("SELECT count(*) FROM t").first?[0] == 0)
    try db.execute("SAVEPOINT outer")
    #expect(db.isInTransaction)
    try db.execute("INSERT INTO t VALUES (2)")
    try db.execute("SAVEPOINT inner")
    try db.execute("INSERT INTO t VALUES (3)")
    try db.execute("ROLLBACK TO inner")
    try db.execute("RELEASE inner")
    #expect(db.isInTransaction)
    try db.execute("RELEASE SAVEPOINT outer")
    #expect(!db.isInTransaction)
    #expect(try db.rows("SELECT n FROM t").map(\.values) == [[2]])
  }

  /// A Swift error a `write` block throws.
  struct BlockFailed: Error, Equatable {}

  /// Issue 36: a PRAGMA that writes without `=` went by QUERY, where the
  /// node failed it and nothing was applied.
  @Test func aPragmaThatWritesWithoutAnEqualsSignIsAppliedByTheCluster() throws {
    let db = try open("pragma-write")
    try db.execute("PRAGMA user_version(7)")
    #expect(try db.rows("PRAGMA user_version").first?.values == [7])
    let other = try open("pragma-write")
    #expect(try other.rows("PRAGMA user_version").first?.values == [7])
  }

  /// Issue 36: SQLite rolls the whole transaction back on an OR ROLLBACK
  /// conflict or a RAISE(ROLLBACK); the client went on as if it were open.
  @Test func aTransactionTheNodeRolledBackFailsUntilTheCallerEndsIt() throws {
    let db = try open("rolled-back")
    try db.execute("CREATE TABLE t(n INTEGER PRIMARY KEY)")
    try db.execute("CREATE TABLE u(n INTEGER)")
    try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON u WHEN NEW.n < 0 BEGIN SELECT RAISE(ROLLBACK, 'no'); END")
    try db.execute("INSERT INTO t VALUES (1)")
    for failing in ["INSERT OR ROLLBACK INTO t VALUES (1)", "INSERT INTO u VALUES (-1)"] {
      try db.execute("BEGIN")
      try db.execute("INSERT INTO t VALUES (2)")
      let failure = databaseError { try db.execute(failing) }
      #expect(failure?.resultCode == .constraint, "\(failing): \(String(describing: failure))")
      #expect(failure?.message.contains("rolled the transaction back") == true)
      let after = databaseError { try db.execute("INSERT INTO t VALUES (3)") }
      #expect(after?.extendedResultCode == .abortRollback, "\(String(describing: after))")
      try db.execute("ROLLBACK")
      #expect(try db.rows("SELECT n FROM t ORDER BY n").map(\.values) == [[1]], "\(failing)")
    }
    // A conflict that rolls back only its statement leaves the transaction open.
    try db.execute("BEGIN")
    try db.execute("INSERT INTO t VALUES (2)")
    let conflict = databaseError { try db.execute("INSERT INTO t VALUES (1)") }
    #expect(conflict?.message.contains("rolled the transaction back") == false)
    #expect(db.isInTransaction)
    try db.execute("COMMIT")
    #expect(try db.rows("SELECT count(*) FROM t").first?.values == [2])
  }

  // Issue 36's guard holes, each shown with real nodes: the write that would
  // store the value is refused (`#require`: on failure nothing reads it
  // back, which would abort the nodes), then a read finds the nodes alive.

  @Test func aTableAnotherClientCreatedIsGuardedBeforeThisClientWrites() throws {
    let db = try open("other-client-table")
    try db.execute("CREATE TABLE u(n INTEGER)")
    try db.execute("INSERT INTO u VALUES (1)")
    let other = try open("other-client-table")
    try other.execute("CREATE TABLE t(flag BOOLEAN)")
    let refused = try #require(databaseError { try db.execute("INSERT INTO t VALUES ('yes')") })
    #expect(refused.resultCode == .misuse, "\(refused)")
    try db.execute("INSERT INTO t VALUES (1)")
    #expect(try db.rows("SELECT * FROM t").count == 1)
  }

  @Test func addingAGuardedColumnWithADefaultTheNodesAbortOnIsRefused() throws {
    let db = try open("alter-default")
    try db.execute("CREATE TABLE t(a INTEGER)")
    try db.execute("INSERT INTO t VALUES (1)")
    let refused = try #require(databaseError { try db.execute("ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 'yes'") })
    #expect(refused.resultCode == .misuse, "\(refused)")
    try db.execute("ALTER TABLE t ADD COLUMN b BOOLEAN DEFAULT 1")
    #expect(try db.rows("SELECT * FROM t").map(\.values) == [[1, 1]])
  }

  // The client's copy of the schema is made by the SQLite it links; the
  // nodes would abort on the UPDATE if it failed to guard the columns.
  @Test func generatedColumnsDeclaredBooleanAreGuarded() throws {
    let db = try open("generated-boolean")
    try db.execute("CREATE TABLE g(a, b BOOLEAN AS (a) STORED, c BOOLEAN AS (a) VIRTUAL)")
    try db.execute("INSERT INTO g(a) VALUES (1)")
    let update = try #require(databaseError { try db.execute("UPDATE g SET a = 'yes'") })
    #expect(update.resultCode == .misuse, "\(update)")
    let insert = try #require(databaseError { try db.execute("INSERT INTO g(a) VALUES ('no')") })
    #expect(insert.resultCode == .misuse, "\(insert)")
    #expect(try db.rows("SELECT * FROM g").map(\.values) == [[1, 1, 1]])
  }

  @Test func writeCommitsOrRollsBackAsAWhole() throws {
    let db = try open("writes")
    try db.execute("CREATE TABLE t(n INTEGER UNIQUE)")
    let rowID = try db.write { db in
      try db.execute("INSERT INTO t VALUES (1)")
      try db.execute("INSERT INTO t VALUES (2)")
      return db.lastInsertRowID
    }
    #expect(rowID == 2)
    // A Swift error rolls back and is rethrown as it was.
    #expect(throws: BlockFailed()) {
      try db.write { db in
        try db.execute("INSERT INTO t VALUES (3)")
        throw BlockFailed()
      }
    }
    #expect(!db.isInTransaction)
    // An SQL error rolls back too; its DatabaseError is what comes out.
    let unique = databaseError {
      try db.write { db in
        try db.execute("INSERT INTO t VALUES (4)")
        try db.execute("INSERT INTO t VALUES (1)")
      }
    }
    #expect(unique?.extendedResultCode == .constraintUnique)
    #expect(!db.isInTransaction)
    // Nested: the inner write is refused, and the outer rolls back.
    let inner = databaseError {
      try db.write { db in
        try db.execute("INSERT INTO t VALUES (5)")
        try db.write { db in try db.execute("INSERT INTO t VALUES (6)") }
      }
    }
    #expect(inner?.resultCode == .misuse)
    #expect(inner?.message.contains("inside a transaction") == true, "\(String(describing: inner))")
    // Inside a BEGIN of the caller's own, too.
    try db.execute("BEGIN")
    #expect(databaseError { try db.write { _ in } }?.resultCode == .misuse)
    try db.execute("ROLLBACK")
    #expect(try db.rows("SELECT n FROM t ORDER BY n").map(\.values) == [[1], [2]])
  }

  @Test func errorsCarryTheNodesCodesAndMessages() throws {
    let db = try open("errors")
    try db.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, u TEXT UNIQUE, m TEXT NOT NULL DEFAULT '')")
    try db.execute("INSERT INTO t(u) VALUES ('a')")
    let unique = databaseError { try db.execute("INSERT INTO t(u) VALUES ('a')") }
    #expect(unique?.code == 19)
    #expect(unique?.extendedCode == 2067)
    #expect(unique?.resultCode == .constraint)
    #expect(unique?.extendedResultCode == .constraintUnique)
    #expect(unique?.message.contains("UNIQUE") == true, "\(String(describing: unique))")
    #expect(unique?.sql == "INSERT INTO t(u) VALUES ('a')")
    var caught = "nothing"
    do {
      try db.execute("INSERT INTO t(m) VALUES (NULL)")
    } catch ResultCode.constraintNotNull {
      caught = "not null"
    } catch {
      caught = "\(error)"
    }
    #expect(caught == "not null")
    #expect(databaseError { try db.execute("SELEC 1") }?.resultCode == .error)
    let missing = databaseError { try db.execute("SELECT * FROM missing") }
    #expect(missing?.message.contains("no such table") == true, "\(String(describing: missing))")
    #expect(databaseError { try db.execute("SELECT ?, ?", [1]) }?.resultCode == .range)
    #expect(try db.rows("SELECT 1").count == 1)
  }

  @Test func refusalsNeverReachTheNodes() throws {
    let db = try open("refusals")
    try db.execute("CREATE TABLE t(x)")
    #expect(databaseError { try db.execute("INSERT INTO t VALUES (?)", [.text("a\0b")]) }?.resultCode == .misuse)
    let sql256 = "SELECT " + Array(repeating: "?", count: 256).joined(separator: ", ")
    let tooMany = databaseError { try db.execute(sql256, Array(repeating: 1, count: 256)) }
    #expect(tooMany?.resultCode == .range)
    // 255 is the most.
    let sql255 = "SELECT " + Array(repeating: "?", count: 255).joined(separator: ", ")
    let most = try db.rows(sql255, (0..<255).map { .integer(Int64($0)) })
    #expect(most.count == 1)
    #expect(most.first?.values == (0..<255).map { .integer(Int64($0)) })
    #expect(
      databaseError { try db.execute("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)") }?.resultCode == .misuse)
    #expect(try db.rows("SELECT count(*) FROM t").first?[0] == 0)
  }

  @Test func valuesThatWouldAbortTheNodesAreRefusedAndTheNodesLive() throws {
    let db = try open("guards")
    try db.execute("CREATE TABLE flags(id INTEGER PRIMARY KEY, done BOOLEAN, due DATETIME, day date, at TimeStamp)")
    let refused: [(String, [DatabaseValue])] = [
      ("INSERT INTO flags(done) VALUES (?)", ["yes"]),
      ("INSERT INTO flags(done) VALUES (?)", [0.5]),
      ("INSERT INTO flags(done) VALUES (?)", [.blob(Data([1]))]),
      ("INSERT INTO flags(done) VALUES ('literal')", []),
      ("INSERT INTO flags(due) VALUES (?)", [1.5]),
      ("INSERT INTO flags(day) VALUES (?)", [.blob(Data([1]))]),
      ("INSERT INTO flags(at) VALUES (2.5)", []),
    ]
    for (sql, arguments) in refused {
      let error = databaseError { try db.execute(sql, arguments) }
      #expect(error?.resultCode == .misuse, "\(sql)")
      #expect(
        error?.message.contains("would make every dqlite 1.11 node that reads it abort") == true,
        "\(String(describing: error))")
    }
    try db.execute("INSERT INTO flags(done, due, day, at) VALUES (1, '2024-05-01 10:00:00', 20240501, NULL)")
    #expect(databaseError { try db.execute("UPDATE flags SET done = 'no'") }?.resultCode == .misuse)
    // A table made later is guarded too.
    try db.execute("CREATE TABLE later(b BOOLEAN)")
    #expect(databaseError { try db.execute("INSERT INTO later VALUES ('x')") }?.resultCode == .misuse)
    // Every node still runs and answers: the row reads back, three voters.
    #expect(try db.rows("SELECT done, due, day FROM flags").map(\.values) == [[1, "2024-05-01 10:00:00", 20_240_501]])
    for node in cluster.nodes { #expect(node.process.isRunning, "\(node.process.name)") }
    #expect(try db.members().filter { $0.role == .voter }.count == 3)
  }

  @Test func readsAndWritesThatCouldAbortTheNodesAreRefusedBeforeTheyAreSent() throws {
    let db = try open("compound")
    try db.execute("CREATE TABLE t(a INTEGER, b BOOLEAN, d DATETIME)")
    try db.execute("INSERT INTO t VALUES (1, 1, '2024-01-01')")
    // A top-level compound's column is declared by its first SELECT: the
    // other parts could hand the leader a value it aborts on.
    for sql in ["SELECT b FROM t UNION ALL SELECT 'x'", "SELECT d FROM t UNION ALL SELECT 2.5"] {
      #expect(databaseError { _ = try db.rows(sql) }?.resultCode == .misuse, "\(sql)")
    }
    #expect(try db.rows("SELECT +b FROM t UNION ALL SELECT 'x'").count == 2)
    // TEMP tables are guarded; RETURNING and ATTACH never reach a node.
    try db.execute("CREATE TEMP TABLE tt(b BOOLEAN)")
    #expect(databaseError { try db.execute("INSERT INTO tt VALUES ('x')") }?.resultCode == .misuse)
    #expect(databaseError { try db.execute("INSERT INTO t(a) VALUES (2) RETURNING a") }?.resultCode == .misuse)
    #expect(databaseError { try db.execute("ATTACH 'file:x?mode=memory' AS x") }?.resultCode == .misuse)
    #expect(try db.rows("SELECT count(*) FROM t").map(\.values) == [[1]])
    for node in cluster.nodes { #expect(node.process.isRunning, "\(node.process.name)") }
  }

  @Test func whatTheNodesConvertReadsAsDocumented() throws {
    let db = try open("conversions")
    try db.execute("CREATE TABLE c(k INTEGER PRIMARY KEY, b BOOLEAN, d DATETIME)")
    try db.execute(
      "INSERT INTO c(k, b, d) VALUES (1, NULL, NULL), (2, 1, ''), (3, 0, 1700000000), (4, 7, '2024-05-01')")
    let read = try db.rows("SELECT b, d, typeof(b), typeof(d) FROM c ORDER BY k").map(\.values)
    #expect(
      read == [
        [0, nil, "null", "null"],  // NULL in BOOLEAN reads as 0; NULL in DATETIME as NULL
        [1, nil, "integer", "text"],  // empty text in DATETIME reads as NULL
        [0, 1_700_000_000, "integer", "integer"],
        [7, "2024-05-01", "integer", "text"],  // as stored: a BOOLEAN is not folded to 0/1
      ])
    // Read through an expression, a column has no declared type: nothing is converted.
    #expect(try db.rows("SELECT b + 0, d || '' FROM c WHERE k = 1").first?.values == [nil, nil])
  }

  @Test func membersAndLeaderDescribeTheCluster() throws {
    let db = try open("members")
    let members = try db.members()
    #expect(members.count == 3)
    #expect(members.allSatisfy { $0.role == .voter })
    #expect(Set(members.map(\.address)) == Set(cluster.nodes.map(\.address)))
    #expect(Set(members.map(\.id)).count == 3)
    let leader = try #require(try db.leader())
    #expect(members.contains(leader))
    #expect(leader.address == db.leaderAddress)
    #expect(ClusterRole.standBy.description == "stand-by")
  }

  @Test func addAssignAndRemoveChangeTheMembership() throws {
    let db = try open("membership")
    // A fourth dqlite-demo node that neither bootstraps (go-dqlite's app
    // bootstraps a node started without --join) nor joins by itself: its
    // --join names an address where nobody listens, so it waits to be
    // added. Its id is the one go-dqlite chose (info.yaml).
    let nowhere = "127.0.0.1:\(try freePort())"
    let fourth = try DemoNode(directory: cluster.directory, join: [nowhere], name: "node4")
    defer { fourth.process.kill() }
    let id = try fourth.id()
    #expect(poll(within: .seconds(60)) { acceptsConnections(port: fourth.port) }, "node4 listens")
    let roleOf = { (id: UInt64) throws -> ClusterRole? in try db.members().first { $0.id == id }?.role }

    try db.add(ClusterMember(id: id, address: fourth.address, role: .standBy))
    #expect(try roleOf(id) == .standBy)
    // (The leader's go-dqlite app promotes an online spare to stand-by
    // every 30 s; the role is read at once.)
    try db.assign(id: id, role: .spare)
    #expect(try roleOf(id) == .spare)
    let twice = databaseError { try db.add(ClusterMember(id: id, address: fourth.address, role: .spare)) }
    #expect(twice?.code != 0)
    try db.remove(id: id)
    #expect(try roleOf(id) == nil)
    #expect(try db.members().count == 3)
    let again = databaseError { try db.remove(id: id) }
    #expect(again?.code != 0)
    let unknown = databaseError { try db.assign(id: id, role: .voter) }
    #expect(unknown?.code != 0)
    #expect(databaseError { try db.add(ClusterMember(id: 0, address: fourth.address)) }?.resultCode == .misuse)
  }
}
