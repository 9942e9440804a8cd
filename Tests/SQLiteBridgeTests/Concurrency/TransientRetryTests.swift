import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Testing
import Testing

@testable import SQLiteBridge

/// The transient SQLITE_BUSY / SQLITE_PROTOCOL answers SQLite can give a WAL
/// transaction under contention are retried by the queue and the pool, not
/// handed to the block's caller: injected through the core's test hook,
/// they are counted and the call succeeds.
@Suite("Transient retries")
struct TransientRetryTests {
  typealias Access = sqlitebridge.interop.ConcurrencyTesting

  // SQLITE_PROTOCOL, SQLITE_BUSY
  @Test(arguments: [15, 5])
  func aPoolRetriesTransientAnswers(code: Int32) throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/p.db")
      try pool.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
      let before = Access.transientRetryCount(pool.core)
      Access.injectTransientFailures(pool.core, 3, code)
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
      #expect(Access.transientRetryCount(pool.core) == before + 3)

      Access.injectTransientFailures(pool.core, 3, code)
      try pool.write { db in try db.execute("INSERT INTO t VALUES (2)") }
      #expect(Access.transientRetryCount(pool.core) == before + 6)
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 2)
    }
  }

  @Test func aQueueRetriesTransientAnswers() async throws {
    let queue = try DatabaseQueue(path: ":memory:")
    try await queue.write { db in try db.execute("CREATE TABLE t(x)") }
    let before = Access.transientRetryCount(queue.core)
    Access.injectTransientFailures(queue.core, 3, 15)
    try await queue.write { db in try db.execute("INSERT INTO t VALUES (1)") }
    #expect(Access.transientRetryCount(queue.core) == before + 3)
    #expect(try await queue.read { db in try integer(db, "SELECT count(*) FROM t") } == 1)
  }
}
