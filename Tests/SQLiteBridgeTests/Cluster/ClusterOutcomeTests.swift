import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// What the cluster client reports about a write whose outcome it cannot
/// know (issue 36), from Swift, against the scripted node
/// (Tests/Fixtures/fake-dqlite-node.py): a lost answer to the RELEASE that
/// commits, dqlite 1.11's answers when Raft's apply fails, Raft's own
/// numbers, PRAGMAs that write, a transaction the node rolled back by
/// itself. Mirrors Tests/CxxTests/Cluster/ClusterOutcomeTests.cpp.
@Suite("ClusterDatabase outcomes (scripted node)")
struct ClusterOutcomeTests {
  // MARK: The RELEASE that commits

  @Test func aLostAnswerToTheReleaseThatCommitsIsInDoubt() throws {
    try withFakeNode("close-on-release-a") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("SAVEPOINT a")
      try db.execute("INSERT INTO t VALUES (1)")
      let doubt = databaseError { try db.execute("RELEASE a") }
      #expect(doubt?.extendedResultCode == .ioErrorLeadershipLost, "\(String(describing: doubt))")
      #expect(doubt?.message.hasPrefix("outcome in doubt") == true)
      #expect(!db.isInTransaction)
      try db.execute("INSERT INTO t VALUES (2)")
      #expect(
        try node.executed() == ["SAVEPOINT a", "INSERT INTO t VALUES (1)", "RELEASE a", "INSERT INTO t VALUES (2)"])
    }
  }

  @Test(arguments: ["SAVEPOINT a", "BEGIN"])
  func aLostAnswerToAReleaseThatDoesNotCommitLosesTheTransaction(opening: String) throws {
    try withFakeNode("close-on-release-b") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute(opening)
      try db.execute("SAVEPOINT b")
      let lost = databaseError { try db.execute("RELEASE b") }
      #expect(lost?.extendedResultCode == .abortRollback, "\(String(describing: lost))")
      try db.execute("ROLLBACK")
    }
  }

  // MARK: dqlite's answers when Raft's apply fails

  @Test(arguments: ["ioerr-on-insert", "ioerr-write-on-insert", "abort-on-insert", "raft-ioerr-on-insert"])
  func applyFailuresOnAnAutocommitWriteAreInDoubtAndNotSentAgain(scenario: String) throws {
    try withFakeNode(scenario) { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let doubt = databaseError { try db.execute("INSERT INTO t VALUES (1)") }
      #expect(doubt?.extendedResultCode == .ioErrorLeadershipLost, "\(String(describing: doubt))")
      #expect(doubt?.message.hasPrefix("outcome in doubt") == true)
      #expect(try node.executed() == ["INSERT INTO t VALUES (1)"])
    }
  }

  @Test func anApplyFailureOnCommitIsInDoubtAndTheBlockRunsOnce() throws {
    try withFakeNode("ioerr-write-on-commit") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      var runs = 0
      let doubt = databaseError {
        try db.write { db in
          runs += 1
          try db.execute("INSERT INTO t VALUES (1)")
        }
      }
      #expect(doubt?.extendedResultCode == .ioErrorLeadershipLost, "\(String(describing: doubt))")
      #expect(runs == 1)
      #expect(try node.executed() == ["BEGIN", "INSERT INTO t VALUES (1)", "COMMIT"])
      #expect(!db.isInTransaction)
    }
  }

  @Test func raftsNotLeaderNumberIsMappedAndTheWriteSentAgain() throws {
    try withFakeNode("raft-not-leader-once") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("INSERT INTO t VALUES (1)")
      #expect(try node.executed() == ["INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (1)"])
    }
  }

  // MARK: PRAGMAs that write

  @Test func aPragmaThatWritesWithoutAnEqualsSignGoesByExec() throws {
    try withFakeNode("healthy") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let writes = [
        "PRAGMA user_version(7)", "PRAGMA main.application_id(3)", "PRAGMA optimize", "PRAGMA incremental_vacuum(2)",
      ]
      for pragma in writes { try db.execute(pragma) }
      #expect(try node.executed() == writes)
      #expect(try node.count("QUERY") == 0)
      for pragma in ["PRAGMA user_version", "PRAGMA journal_mode", "PRAGMA table_info(t)"] {
        _ = try db.rows(pragma)
      }
      #expect(try node.executed() == writes)  // reads stay reads
      #expect(try node.count("QUERY") == 3)
    }
  }

  @Test func aPragmaThatWritesIsNotSentAgainAfterALostAnswer() throws {
    try withFakeNode("close-on-pragma-write") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      let doubt = databaseError { try db.execute("PRAGMA user_version(7)") }
      #expect(doubt?.extendedResultCode == .ioErrorLeadershipLost, "\(String(describing: doubt))")
      #expect(try node.executed() == ["PRAGMA user_version(7)"])
      #expect(try node.count("QUERY") == 0)
    }
  }

  // MARK: A transaction the node rolled back by itself

  @Test func afterTheNodeRolledTheTransactionBackTheRestOfItFails() throws {
    try withFakeNode("full-on-insert") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      try db.execute("BEGIN")
      let full = databaseError { try db.execute("INSERT INTO t VALUES (1)") }
      #expect(full?.resultCode == .full, "\(String(describing: full))")
      #expect(full?.message.contains("rolled the transaction back") == true)
      let after = databaseError { try db.execute("INSERT INTO t VALUES (2)") }
      #expect(after?.extendedResultCode == .abortRollback, "\(String(describing: after))")
      let commit = databaseError { try db.execute("COMMIT") }
      #expect(commit?.extendedResultCode == .abortRollback)
      // The client's probe (a BEGIN the node accepted: none was open), ended.
      #expect(try node.executed() == ["BEGIN", "INSERT INTO t VALUES (1)", "BEGIN", "ROLLBACK"])
      try db.execute("INSERT INTO t VALUES (3)")
      #expect(try node.executed().last == "INSERT INTO t VALUES (3)")
    }
  }

  @Test func aWriteBlockWhoseTransactionTheNodeRolledBackThrowsOnceAndIsNotRunAgain() throws {
    try withFakeNode("or-rollback-conflict") { node in
      let db = try ClusterDatabase(name: "app", configuration: node.configuration())
      var runs = 0
      let failure = databaseError {
        try db.write { db in
          runs += 1
          _ = try? db.execute("INSERT OR ROLLBACK INTO t VALUES (1)")  // its failure ignored
          try db.execute("INSERT INTO t VALUES (2)")
        }
      }
      #expect(failure?.extendedResultCode == .abortRollback, "\(String(describing: failure))")
      #expect(runs == 1)
      #expect(try !node.executed().contains("INSERT INTO t VALUES (2)"))
      #expect(try !node.executed().contains("COMMIT"))
      #expect(!db.isInTransaction)
    }
  }
}
