import Foundation
import SQLiteBridge
import Testing

/// Threads sharing a `DatabasePool` or a `DatabaseQueue`, with the
/// interleavings forced by signals and latches (never by sleeping): a
/// reader's snapshot, readers overlapping each other and the writer, no lost
/// write, and an invariant no reader sees broken.
@Suite("Concurrent access")
struct ConcurrentAccessTests {
  @Test func aPoolReaderKeepsItsSnapshotWhileAWriterCommits() throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/s.db")
      try pool.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
      let inside = Signal()
      let committed = Signal()
      let counts = Locked<[Int64]>([])
      let reader = TestThread("the reader") {
        do {
          try pool.read { db in
            let before = try integer(db, "SELECT count(*) FROM t")
            inside.send()
            #expect(committed.wait(), "the writer did not commit")
            let after = try integer(db, "SELECT count(*) FROM t")
            let sum = try integer(db, "SELECT sum(x) FROM t")
            counts.withLock { $0 = [before, after, sum] }
          }
        } catch {
          Issue.record("the read failed: \(error)")
        }
      }
      #expect(inside.wait(), "the reader did not start")
      try pool.write { db in try db.execute("INSERT INTO t VALUES (2)") }
      committed.send()
      #expect(reader.join())
      #expect(counts.current == [1, 1, 1], "the reader saw the commit made after its snapshot")
      // A read that starts afterwards sees it.
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 2)
    }
  }

  /// Each reader waits inside its block until all of them are inside: they
  /// can only all get there if the pool runs them at the same time.
  @Test func readersRunAtTheSameTime() throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/r.db")
      try pool.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
      let readerCount = 4
      let allInside = Latch(readerCount)
      let results = Locked<[Int64]>([])
      let readers = (0..<readerCount).map { index in
        TestThread("reader \(index)") {
          do {
            let value = try pool.read { db -> Int64 in
              let value = try integer(db, "SELECT x FROM t")
              #expect(allInside.arriveAndWait(), "reader \(index) was alone: the readers did not overlap")
              return value
            }
            results.withLock { $0.append(value) }
          } catch {
            Issue.record("reader \(index) failed: \(error)")
          }
        }
      }
      for reader in readers { #expect(reader.join()) }
      #expect(results.current == Array(repeating: 1, count: readerCount))
    }
  }

  /// A reader runs, and finishes, while the writer holds its transaction
  /// open; the reader sees the last commit, not the open transaction.
  @Test func aReaderRunsWhileTheWriterIsInsideItsTransaction() throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/w.db")
      try pool.write { db in try db.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1);") }
      let writing = Signal()
      let readDone = Signal()
      let writer = TestThread("the writer") {
        do {
          try pool.write { db in
            try db.execute("INSERT INTO t VALUES (2)")
            writing.send()
            #expect(readDone.wait(), "the reader did not finish while the writer was inside its transaction")
          }
        } catch {
          Issue.record("the write failed: \(error)")
        }
      }
      let seen = Locked<Int64?>(nil)
      let reader = TestThread("the reader") {
        #expect(writing.wait(), "the writer did not start")
        seen.withLock { $0 = try? pool.read { db in try integer(db, "SELECT count(*) FROM t") } }
        readDone.send()
      }
      #expect(reader.join())
      #expect(writer.join())
      #expect(seen.current == 1)
      #expect(try pool.read { db in try integer(db, "SELECT count(*) FROM t") } == 2)
    }
  }

  /// 8 threads × 1,000 write transactions, each inserting its own number:
  /// every row is there (count and sum).
  @Test(arguments: SharedKind.allCases)
  func writesFromEightThreadsLoseNothing(_ kind: SharedKind) throws {
    try withTemporaryDirectory { directory in
      let shared = try SharedAccess.open(kind, path: directory + "/many.db")
      let (write, read) = (shared.write, shared.read)
      // The test counts transactions, not fsyncs.
      try shared.writeWithoutTransaction { db in try db.execute("PRAGMA synchronous = OFF") }
      try write { db in try db.execute("CREATE TABLE t(thread INTEGER, value INTEGER)") }
      let threadCount = 8
      let perThread = 1000
      let start = Latch(threadCount)
      let failures = Locked(0)
      let threads = (0..<threadCount).map { thread in
        TestThread("writer \(thread)") {
          #expect(start.arriveAndWait())
          for index in 0..<perThread {
            do {
              try write { db in
                try db.execute(
                  "INSERT INTO t VALUES (?, ?)", [.integer(Int64(thread)), .integer(Int64(thread * perThread + index))])
              }
            } catch {
              failures.withLock { $0 += 1 }
              Issue.record("writer \(thread), transaction \(index): \(error)")
              return
            }
          }
        }
      }
      for thread in threads { #expect(thread.join()) }
      #expect(failures.current == 0)
      let total = threadCount * perThread
      #expect(try read { db in try integer(db, "SELECT count(*) FROM t") } == Int64(total))
      #expect(try read { db in try integer(db, "SELECT sum(value) FROM t") } == Int64(total * (total - 1) / 2))
      #expect(try read { db in try integer(db, "SELECT count(DISTINCT value) FROM t") } == Int64(total))
    }
  }

  /// Writers move amounts between two accounts (two UPDATEs per
  /// transaction) while readers read both balances (two SELECTs per read)
  /// 10,000 times in all: no reader ever sees a total other than 2,000.
  @Test func readersNeverSeeABrokenTransfer() throws {
    try withTemporaryDirectory { directory in
      let pool = try DatabasePool(path: directory + "/bank.db")
      try pool.writeWithoutTransaction { db in try db.execute("PRAGMA synchronous = OFF") }
      try pool.write { db in
        try db.executeScript(
          "CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER); INSERT INTO account VALUES (1, 1000), (2, 1000);"
        )
      }
      let readerCount = 4
      let readsPerReader = 2500
      let writerCount = 2
      let started = Latch(readerCount + writerCount)
      let readersDone = Latch(readerCount)
      let broken = Locked<[Int64]>([])
      let reads = Locked(0)
      let transfers = Locked(0)
      let readers = (0..<readerCount).map { index in
        TestThread("reader \(index)") {
          defer { readersDone.countDown() }
          #expect(started.arriveAndWait())
          for _ in 0..<readsPerReader {
            do {
              let (first, second) = try pool.read { db in
                (
                  try integer(db, "SELECT balance FROM account WHERE id = 1"),
                  try integer(db, "SELECT balance FROM account WHERE id = 2")
                )
              }
              reads.withLock { $0 += 1 }
              if first + second != 2000 { broken.withLock { $0.append(first + second) } }
            } catch {
              Issue.record("reader \(index): \(error)")
              return
            }
          }
        }
      }
      let writers = (0..<writerCount).map { index in
        TestThread("writer \(index)") {
          #expect(started.arriveAndWait())
          var amount = Int64(index + 1)
          // Until the readers are done and at least 100 transfers each
          // (at most 1,000,000): four readers may finish before a writer
          // is scheduled at all.
          var count = 0
          while count < 100 || (count < 1_000_000 && !readersDone.wait(within: .zero)) {
            count += 1
            amount = (amount * 7 + 3) % 50 - 25
            do {
              try pool.write { db in
                try db.execute("UPDATE account SET balance = balance - ? WHERE id = 1", [.integer(amount)])
                try db.execute("UPDATE account SET balance = balance + ? WHERE id = 2", [.integer(amount)])
              }
              transfers.withLock { $0 += 1 }
            } catch {
              Issue.record("writer \(index): \(error)")
              return
            }
          }
        }
      }
      for thread in readers + writers { #expect(thread.join()) }
      #expect(reads.current == readerCount * readsPerReader)
      #expect(broken.current == [])
      #expect(transfers.current >= writerCount * 100)
      #expect(
        try pool.read { db in try integer(db, "SELECT sum(balance) FROM account") } == 2000)
    }
  }
}
