import Foundation
import SQLiteBridge
import Testing

/// Transactions and savepoints from Swift: the core's steps behind
/// `inTransaction`, `transaction`, `inSavepoint`; a failed commit; errors
/// thrown by the body; user_version. (TransactionTests.cpp checks the same.)
@Suite("Transactions and savepoints")
struct TransactionTests {
  struct BodyFailed: Error {}

  /// `t(x INTEGER UNIQUE)` and a deferred foreign key (`child` → `parent`),
  /// whose violation fails the COMMIT rather than the INSERT.
  private func database() throws -> Database {
    let database = try memoryDatabase()
    try database.executeScript(
      """
      PRAGMA foreign_keys = ON;
      CREATE TABLE t(x INTEGER UNIQUE);
      CREATE TABLE parent(id INTEGER PRIMARY KEY);
      CREATE TABLE child(parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
      """)
    return database
  }

  private func values(_ database: Database) throws -> [Int64] {
    try database.rows("SELECT x FROM t ORDER BY x").map { try $0.get(0, as: Int64.self) }
  }

  @Test func inTransactionCommitsOnCommitAndRollsBackOnRollbackOrAThrow() throws {
    let database = try database()
    try database.inTransaction {
      try database.execute("INSERT INTO t VALUES (1)")
      #expect(database.isInTransaction)
      return .commit
    }
    try database.inTransaction(.immediate) {
      try database.execute("INSERT INTO t VALUES (2)")
      return .rollback
    }
    #expect(throws: BodyFailed.self) {
      try database.inTransaction(.exclusive) {
        try database.execute("INSERT INTO t VALUES (3)")
        throw BodyFailed()
      }
    }
    let unique = try #require(throws: DatabaseError.self) {
      try database.inTransaction {
        try database.execute("INSERT INTO t VALUES (4)")
        try database.execute("INSERT INTO t VALUES (1)")
        return .commit
      }
    }
    #expect(unique.extendedResultCode == .constraintUnique)
    #expect(try values(database) == [1])
    #expect(!database.isInTransaction)
  }

  @Test func transactionReturnsTheBodysValueAndRollsBackWhenItThrows() throws {
    let database = try database()
    let id = try database.transaction {
      try database.execute("INSERT INTO t VALUES (10)")
      return database.lastInsertRowID
    }
    #expect(id == 1)
    #expect(throws: BodyFailed.self) {
      _ = try database.transaction(.immediate) { () -> Int in
        try database.execute("INSERT INTO t VALUES (11)")
        throw BodyFailed()
      }
    }
    #expect(try values(database) == [10])
  }

  @Test func insideATransactionTheyRunAsSavepoints() throws {
    let database = try database()
    try database.inTransaction {
      try database.execute("INSERT INTO t VALUES (1)")
      try database.inTransaction {
        try database.execute("INSERT INTO t VALUES (2)")
        return .rollback
      }
      #expect(database.isInTransaction, "the inner rollback must not end the outer transaction")
      try database.inSavepoint {
        try database.execute("INSERT INTO t VALUES (3)")
        return .commit
      }
      #expect(throws: BodyFailed.self) {
        try database.inSavepoint {
          try database.execute("INSERT INTO t VALUES (4)")
          throw BodyFailed()
        }
      }
      _ = try database.transaction { try database.execute("INSERT INTO t VALUES (5)") }
      return .commit
    }
    #expect(try values(database) == [1, 3, 5])
  }

  @Test func aFailedCommitRollsBackAndThrows() throws {
    let database = try database()
    let error = try #require(throws: DatabaseError.self) {
      try database.inTransaction {
        try database.execute("INSERT INTO child VALUES (42)")  // no parent 42: fails at COMMIT
        return .commit
      }
    }
    #expect(error.extendedResultCode == .constraintForeignKey)
    #expect(!database.isInTransaction)
    #expect(try scalar(database, "SELECT count(*) FROM child") == .integer(0))
  }

  @Test func aTransactionCannotBeginOnAClosedDatabaseOrAsABeginInsideOne() throws {
    let database = try database()
    try database.execute("BEGIN")
    // inSavepoint nests; a raw BEGIN does not.
    #expect(throws: DatabaseError.self) { try database.execute("BEGIN") }
    try database.execute("ROLLBACK")
    database.close()
    let closed = try #require(throws: DatabaseError.self) { try database.inTransaction { .commit } }
    #expect(closed.resultCode == .misuse)
  }

  @Test func userVersionReadsBackAndMustFitThirtyTwoBits() throws {
    let database = try database()
    #expect(try database.userVersion() == 0)
    for version in [4, -7, Int(Int32.max), Int(Int32.min)] {
      try database.setUserVersion(version)
      #expect(try database.userVersion() == version)
    }
    let error = try #require(throws: DatabaseError.self) { try database.setUserVersion(Int(Int32.max) + 1) }
    #expect(error.resultCode == .range)
    #expect(try database.userVersion() == Int(Int32.min))
  }
}
