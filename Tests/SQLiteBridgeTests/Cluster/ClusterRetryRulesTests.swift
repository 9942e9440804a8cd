import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// The cluster client's rules from Swift where only a scripted node can
/// force the moment (Tests/Fixtures/fake-dqlite-node.py, a process of its
/// own): what is sent again after NOT_LEADER or a lost connection, what is
/// reported in doubt, when a `write` block runs again, how a silent or
/// hostile server fails the call in time. The fake counts the requests it
/// received; each test checks the counts. Mirrors
/// Tests/CxxTests/Cluster/ClusterRetryRulesTests.cpp.
@Suite("ClusterDatabase retry rules (scripted node)")
struct ClusterRetryRulesTests {
  /// A Swift error a `write` block throws.
  struct BlockFailed: Error, Equatable {}

  @Test func aWriteAnsweredNotLeaderIsSentAgainAndAppliedOnce() throws {
    try withFakeNode("not-leader-once") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("INSERT INTO t VALUES (?)", [1])
      // Refused once (not applied), then applied once.
      #expect(try node.count("EXEC") == 2)
      #expect(try node.executed() == ["INSERT INTO t VALUES (?)", "INSERT INTO t VALUES (?)"])
      #expect(db.lastInsertRowID == 1)
      #expect(db.changes == 1)
    }
  }

  @Test func aWriteWhoseConnectionBreaksAfterSendingIsInDoubtAndNeverSentAgain() throws {
    try withFakeNode("close-after-exec") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let doubt = databaseError { try db.execute("INSERT INTO t VALUES (?)", [1]) }
      #expect(doubt?.extendedResultCode == .ioErrorLeadershipLost)
      #expect(doubt?.resultCode == .ioError)
      #expect(doubt?.message.hasPrefix("outcome in doubt") == true, "\(String(describing: doubt))")
      #expect(doubt?.sql == "INSERT INTO t VALUES (?)")
      #expect(try node.count("EXEC") == 1)
      // The client carries on: the next write reconnects.
      try db.execute("INSERT INTO t VALUES (?)", [2])
      #expect(try node.count("EXEC") == 2)
    }
  }

  @Test func leadershipLostOnAWriteIsInDoubt() throws {
    try withFakeNode("leadership-lost-on-exec") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      var caught = "nothing"
      do {
        try db.execute("DELETE FROM t")
      } catch ResultCode.ioErrorLeadershipLost {
        caught = "in doubt"
      } catch {
        caught = "\(error)"
      }
      #expect(caught == "in doubt")
      #expect(try node.count("EXEC") == 1)
    }
  }

  @Test func aReadWhoseConnectionBreaksIsRunAgain() throws {
    try withFakeNode("close-after-query-once") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let rows = try db.rows("SELECT n FROM t")
      #expect(rows == [Row(columnNames: ["n"], values: [1])])
      #expect(try node.count("QUERY") == 2)
    }
  }

  @Test func aWriteBlockRunsAgainWhenTheLeaderGoesBeforeCommit() throws {
    try withFakeNode("not-leader-on-second-exec") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      var runs = 0
      let value = try db.write { db in
        runs += 1
        try db.execute("INSERT INTO t VALUES (1)")
        return runs
      }
      #expect(runs == 2)
      #expect(value == 2)  // the last run's value
      #expect(
        try node.executed() == ["BEGIN", "INSERT INTO t VALUES (1)", "BEGIN", "INSERT INTO t VALUES (1)", "COMMIT"])
      #expect(!db.isInTransaction)
    }
  }

  @Test func aCommitWhoseOutcomeIsUnknownThrowsInDoubtAndTheBlockRunsOnce() throws {
    try withFakeNode("close-on-commit") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      var runs = 0
      let doubt = databaseError {
        try db.write { db in
          runs += 1
          try db.execute("INSERT INTO t VALUES (1)")
        }
      }
      #expect(doubt?.extendedResultCode == .ioErrorLeadershipLost, "\(String(describing: doubt))")
      #expect(doubt?.message.hasPrefix("outcome in doubt") == true)
      #expect(runs == 1)
      #expect(try node.executed() == ["BEGIN", "INSERT INTO t VALUES (1)", "COMMIT"])
      #expect(!db.isInTransaction)
      #expect(try db.rows("SELECT 1").count == 1)  // carries on
    }
  }

  @Test func aSwiftErrorRollsTheBlockBackAndIsRethrownAsItWas() throws {
    try withFakeNode("healthy") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      var runs = 0
      #expect(throws: BlockFailed()) {
        try db.write { db in
          runs += 1
          try db.execute("INSERT INTO t VALUES (1)")
          throw BlockFailed()
        }
      }
      #expect(runs == 1)
      #expect(try node.executed() == ["BEGIN", "INSERT INTO t VALUES (1)", "ROLLBACK"])
      #expect(!db.isInTransaction)
    }
  }

  @Test func aStatementAfterTheTransactionWasLostFailsUntilRolledBack() throws {
    try withFakeNode("close-on-second-exec") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("BEGIN")
      #expect(db.isInTransaction)
      let lost = databaseError { try db.execute("INSERT INTO t VALUES (1)") }
      #expect(lost?.extendedResultCode == .abortRollback, "\(String(describing: lost))")
      // Not run outside the transaction the caller thinks is open.
      let again = databaseError { try db.execute("INSERT INTO t VALUES (2)") }
      #expect(again?.extendedResultCode == .abortRollback)
      #expect(try node.count("EXEC") == 2)
      try db.execute("ROLLBACK")
      try db.execute("INSERT INTO t VALUES (3)")
      #expect(try node.count("EXEC") == 3)
    }
  }

  @Test func aRollbackWhoseConnectionBreaksEndsTheTransactionAndTheNextWriteBlockStarts() throws {
    // BEGIN, then the ROLLBACK of the block that threw: its connection
    // closes. The transaction went with it, so the next block begins.
    try withFakeNode("close-on-second-exec") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      #expect(throws: BlockFailed()) { try db.write { _ in throw BlockFailed() } }
      #expect(!db.isInTransaction)
      try db.write { db in try db.execute("INSERT INTO t VALUES (1)") }
      #expect(try node.count("EXEC") == 5)  // BEGIN, ROLLBACK (lost); BEGIN, INSERT, COMMIT
    }
  }

  @Test func aServerThatNeverAnswersFailsTheOpenWithinTheTimeouts() throws {
    try withFakeNode("silent") { node in
      let clock = ContinuousClock()
      let started = clock.now
      let error = databaseError {
        _ = try ClusterDatabase(name: "app", configuration: node.configuration(retryTimeout: .milliseconds(1500)))
      }
      #expect(clock.now - started < .seconds(10))
      #expect(error?.resultCode == .cantOpen)
      #expect(error?.message.contains(node.address) == true, "\(String(describing: error))")
    }
  }

  @Test(arguments: 0..<6)
  func garbageFromTheServerFailsCleanlyAndALaterCallWorks(variant: Int) throws {
    try withFakeNode("garbage-query-\(variant)") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration(retryTimeout: .milliseconds(1500)))
      let clock = ContinuousClock()
      let started = clock.now
      // A read may be answered on a new connection after the garbage; what
      // matters is that the call ends in time, with the right rows or an
      // error.
      do {
        #expect(try db.rows("SELECT n FROM t") == [Row(columnNames: ["n"], values: [1])])
      } catch let error as DatabaseError {
        #expect(error.code != 0)
      }
      #expect(clock.now - started < .seconds(10))
      #expect(try db.rows("SELECT n FROM t") == [Row(columnNames: ["n"], values: [1])])
      #expect(try node.count("QUERY") >= 2)
    }
  }

  @Test func noServerOrNoLeaderFailsTheOpenClearly() throws {
    let none = databaseError { _ = try ClusterDatabase(name: "app", configuration: ClusterConfiguration(servers: [])) }
    #expect(none?.resultCode == .misuse)
    try withFakeNode("healthy") { node in
      let unnamed = databaseError { _ = try ClusterDatabase(name: "", configuration: node.configuration()) }
      #expect(unnamed?.resultCode == .misuse)
      let nul = databaseError { _ = try ClusterDatabase(name: "a\0b", configuration: node.configuration()) }
      #expect(nul?.resultCode == .misuse)
      let opened = try node.count("OPEN")
      #expect(opened == 0)
    }
    try withFakeNode("no-leader") { node in
      let error = databaseError {
        _ = try ClusterDatabase(name: "app", configuration: node.configuration(retryTimeout: .milliseconds(500)))
      }
      #expect(error?.resultCode == .cantOpen)
      #expect(error?.message.contains("knows of no leader") == true, "\(String(describing: error))")
    }
  }

  @Test func leaderIsNilWhileTheNodeKnowsOfNone() throws {
    try withFakeNode("leaderless-after-open") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      #expect(try db.leader() == nil)
      #expect(try node.count("LEADER") >= 2)
      // The node itself is still there.
      #expect(try db.members() == [ClusterMember(id: 1, address: node.address, role: .voter)])
    }
  }

  @Test func refusalsHappenBeforeAnythingIsSent() throws {
    try withFakeNode("healthy") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let prepared = try node.count("PREPARE")
      let nulText = databaseError { try db.execute("INSERT INTO t VALUES (?)", [.text("a\0b")]) }
      #expect(nulText?.resultCode == .misuse)
      #expect(nulText?.message.contains("NUL") == true, "\(String(describing: nulText))")
      #expect(databaseError { try db.execute("SELECT 1\0 x") }?.resultCode == .misuse)
      let tooMany = databaseError { try db.execute("SELECT ?", Array(repeating: 1, count: 256)) }
      #expect(tooMany?.resultCode == .range)
      #expect(tooMany?.message.contains("255") == true, "\(String(describing: tooMany))")
      #expect(databaseError { try db.execute("SELECT 1; SELECT 2") }?.resultCode == .misuse)
      #expect(databaseError { try db.execute("  -- nothing\n") }?.resultCode == .misuse)
      #expect(try node.count("PREPARE") == prepared)
      #expect(try node.count("EXEC") == 0)
      #expect(try node.count("QUERY") == 0)
    }
  }

  @Test func aClosedClientRefusesEveryCall() throws {
    try withFakeNode("healthy") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      #expect(db.isOpen)
      db.close()
      db.close()  // twice: nothing
      #expect(!db.isOpen)
      let calls: [(String, () throws -> Void)] = [
        ("execute", { try db.execute("SELECT 1") }),
        ("rows", { _ = try db.rows("SELECT 1") }),
        ("fetch", { _ = try db.fetch(Int.self, "SELECT 1") }),
        ("write", { try db.write { _ in } }),
        ("members", { _ = try db.members() }),
        ("leader", { _ = try db.leader() }),
        ("add", { try db.add(ClusterMember(id: 9, address: "127.0.0.1:1", role: .spare)) }),
        ("assign", { try db.assign(id: 9, role: .voter) }),
        ("remove", { try db.remove(id: 9) }),
      ]
      for (name, call) in calls {
        #expect(databaseError(call)?.resultCode == .misuse, "\(name)")
      }
      #expect(db.leaderAddress == nil)
      #expect(try node.count("PREPARE") == 0)
    }
  }
}
