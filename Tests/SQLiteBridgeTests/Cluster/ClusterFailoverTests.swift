import Foundation
import SQLiteBridge
import SQLiteBridgeCluster
import Testing

/// Kill the leader: a client writes 300 rows, each in a `write` of its own,
/// into a three-node dqlite-demo cluster whose leader gets SIGKILL from
/// another thread once a third are written. The client must carry on
/// against the new leader by itself, and afterwards every write that
/// returned is there exactly once, every write that threw
/// `.ioErrorLeadershipLost` at most once, and nothing else. Mirrors
/// Tests/CxxTests/Cluster/ClusterFailoverTests.cpp (which also restarts the
/// killed node). Skipped where dqlite-demo is not installed (Debian package
/// go-dqlite).
@Suite(
  "ClusterDatabase when the leader is killed",
  .enabled(if: DemoCluster.isInstalled, "dqlite-demo is not installed (Debian package go-dqlite)"),
  .demoCluster(nodes: 3))
struct ClusterFailoverTests {
  static let rows = 300

  /// How one write ended: returned, threw in doubt, threw otherwise.
  enum Outcome { case succeeded, inDoubt, failed }

  @Test func killingTheLeaderLosesNoAcknowledgedWriteAndAppliesNoneTwice() throws {
    let cluster = try #require(DemoCluster.current)
    var configuration = cluster.configuration
    configuration.retryTimeout = .seconds(60)
    let db = try ClusterDatabase(name: "failover", configuration: configuration)
    try db.execute("CREATE TABLE rows(n INTEGER NOT NULL)")

    // The leader dies while the writes go on: a thread of its own kills it
    // as soon as the writer has passed a third, so that the kill lands
    // inside some write, wherever it happens to be.
    let victim = Locked<Int?>(nil)
    let passedAThird = Signal()
    let killed = Locked(false)
    let killer = TestThread("killer") {
      guard passedAThird.wait(), let index = victim.current else { return }
      cluster.nodes[index].process.kill()
      killed.withLock { $0 = true }
    }
    var outcomes: [Outcome] = []
    var writesAfterTheKill = 0
    // At least `rows` writes, and on (within the thread wait limit) until
    // one began after the kill: a loaded machine may run the killer late.
    let deadline = ContinuousClock.now + threadWaitLimit
    var n = 0
    while n < Self.rows || (writesAfterTheKill == 0 && ContinuousClock.now < deadline) {
      defer { n += 1 }
      if killed.current { writesAfterTheKill += 1 }
      if n == Self.rows / 3 {
        let leader = cluster.index(of: db.leaderAddress)
        #expect(leader != nil, "connected to \(String(describing: db.leaderAddress))")
        victim.withLock { $0 = leader ?? 0 }
        passedAThird.send()
      }
      do {
        try db.write { db in try db.execute("INSERT INTO rows(n) VALUES (?)", [.integer(Int64(n))]) }
        outcomes.append(.succeeded)
      } catch ResultCode.ioErrorLeadershipLost {
        outcomes.append(.inDoubt)
      } catch {
        outcomes.append(.failed)
        Issue.record("write \(n) failed: \(error)")
      }
    }
    killer.join()
    let dead = try #require(victim.current)
    #expect(!cluster.nodes[dead].process.isRunning)
    #expect(db.leaderAddress != cluster.nodes[dead].address)
    // The kill landed while the writes went on, not after them.
    #expect(writesAfterTheKill > 0)

    var copies: [Int64: Int64] = [:]
    for row in try db.rows("SELECT n, count(*) FROM rows GROUP BY n") {
      guard case .integer(let n) = row[0], case .integer(let count) = row[1] else {
        Issue.record("unexpected row \(row)")
        continue
      }
      copies[n] = count
    }
    var lost = 0
    var duplicated = 0
    var stray = 0
    for (n, outcome) in outcomes.enumerated() {
      let count = copies.removeValue(forKey: Int64(n)) ?? 0
      switch outcome {
      case .succeeded: lost += count == 1 ? 0 : 1
      case .inDoubt: duplicated += count > 1 ? 1 : 0
      case .failed: stray += count > 0 ? 1 : 0
      }
    }
    stray += copies.count
    let succeeded = outcomes.filter { $0 == .succeeded }.count
    let inDoubt = outcomes.filter { $0 == .inDoubt }.count
    print(
      "[failover] succeeded \(succeeded), in doubt \(inDoubt), lost \(lost), duplicated \(duplicated), stray \(stray); "
        + "\(writesAfterTheKill) writes began after the kill")
    #expect(lost == 0)
    #expect(duplicated == 0)
    #expect(stray == 0)
    #expect(succeeded + inDoubt == outcomes.count)
    #expect(outcomes.count >= Self.rows)
    // The two nodes left still commit.
    try db.write { db in try db.execute("INSERT INTO rows(n) VALUES (-1)") }
    #expect(try db.rows("SELECT count(*) FROM rows WHERE n = -1").first?[0] == 1)
  }
}
