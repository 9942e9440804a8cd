import Dispatch
import Foundation
import SQLiteBridge
import SQLiteBridgeCore

// The concurrency workloads of issue 12: how throughput scales with threads
// sharing one DatabasePool or DatabaseQueue. They are measured against
// SQLiteBridge with one thread (not against the raw C API), in wall time:
// the point is what several threads get done together.

/// How long the benchmark waits for its threads before it fails (far beyond
/// what any run needs): a stuck thread fails the run instead of hanging it.
let threadWaitSeconds = 600
let threadWaitLimit: DispatchTimeInterval = .seconds(threadWaitSeconds)

/// A one-use barrier: each of `parties` threads waits in `arriveAndWait`
/// until all have arrived.
final class Barrier: @unchecked Sendable {
  private let condition = NSCondition()
  private let parties: Int
  private var arrived = 0

  init(parties: Int) { self.parties = parties }

  /// Waits until all parties have arrived; false when they had not within
  /// `threadWaitSeconds`.
  func arriveAndWait() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    arrived += 1
    if arrived == parties { condition.broadcast() }
    let deadline = Date(timeIntervalSinceNow: Double(threadWaitSeconds))
    while arrived < parties {
      if !condition.wait(until: deadline) { return arrived >= parties }
    }
    return true
  }
}

/// One figure of a concurrency workload: `threads` threads together doing
/// `rows` rows of work (over all threads).
struct ScalingMeasurement {
  let workload: String
  let threads: Int
  let rows: Int
  /// Median wall seconds the threads took together.
  let seconds: Double
  /// `rows` / `seconds`.
  var rowsPerSecond: Double { Double(rows) / seconds }
  /// Median of the per-repetition ratios of rows per second against one
  /// thread (each repetition runs every thread count back to back).
  let speedup: Double
  /// The same for the raw C API doing the same work alongside (one
  /// connection per thread), where the workload has such a reference: what
  /// the machine itself allowed at the time (on a shared machine, other
  /// processes take cores).
  let rawSpeedup: Double?
}

enum ConcurrencyFailure: Error, CustomStringConvertible {
  case stuck(workload: String, what: String)
  case wrongResult(workload: String, threads: Int, got: Int64, expected: Int64)
  var description: String {
    switch self {
    case .stuck(let workload, let what):
      return "\(workload): \(what) within \(threadWaitSeconds) s"
    case .wrongResult(let workload, let threads, let got, let expected):
      return "\(workload) (\(threads) threads): checksum \(got), expected \(expected)"
    }
  }
}

/// Seconds of wall time, whatever `--wall-clock` says (thread CPU time
/// would count the calling thread alone).
func wallNow() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// What each thread of a run hands back, behind a lock.
private final class ThreadResults: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<Int64, Error>?]

  init(count: Int) { results = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ result: Result<Int64, Error>) {
    lock.lock()
    defer { lock.unlock() }
    results[index] = result
  }

  var all: [Result<Int64, Error>?] {
    lock.lock()
    defer { lock.unlock() }
    return results
  }
}

/// Starts `threads` plain threads, lets them run `body(index)` together
/// once all have started (a start gate), and returns the wall seconds from
/// the gate opening to the last one finishing and what each returned.
///
/// - Throws: what a body threw; `ConcurrencyFailure.stuck` when the threads
///   did not start or finish within `threadWaitLimit`.
func runTogether(
  workload: String, threads: Int, _ body: @escaping @Sendable (Int) throws -> Int64
) throws -> (seconds: Double, results: [Int64]) {
  let ready = DispatchSemaphore(value: 0)
  let gate = DispatchSemaphore(value: 0)
  let finished = DispatchSemaphore(value: 0)
  let results = ThreadResults(count: threads)
  for index in 0..<threads {
    Thread {
      defer { finished.signal() }
      ready.signal()
      guard gate.wait(timeout: .now() + threadWaitLimit) == .success else {
        results.set(index, .failure(ConcurrencyFailure.stuck(workload: workload, what: "the start gate did not open")))
        return
      }
      results.set(index, Result { try body(index) })
    }.start()
  }
  for _ in 0..<threads where ready.wait(timeout: .now() + threadWaitLimit) != .success {
    throw ConcurrencyFailure.stuck(workload: workload, what: "the threads did not start")
  }
  let start = wallNow()
  for _ in 0..<threads { gate.signal() }
  for _ in 0..<threads where finished.wait(timeout: .now() + threadWaitLimit) != .success {
    throw ConcurrencyFailure.stuck(workload: workload, what: "the threads did not finish")
  }
  let seconds = wallNow() - start
  return (seconds, try results.all.map { try $0!.get() })
}

/// Runs `run(threads)` for every thread count once to warm up, then
/// `repetitions` times (the order of the counts rotating), and returns the
/// medians. `run` returns the wall seconds of one run (and of its raw C
/// reference, if any), having checked its result; `rows(threads)` is the
/// work a run of `threads` does.
func measureScaling(
  workload: String, threadCounts: [Int], repetitions: Int, rows: (Int) -> Int,
  run: (Int) throws -> (ours: Double, raw: Double?)
) throws -> [ScalingMeasurement] {
  precondition(threadCounts.first == 1, "the baseline is one thread")
  for threads in threadCounts { _ = try run(threads) }
  var seconds = Array(repeating: [Double](), count: threadCounts.count)
  var speedups = Array(repeating: [Double](), count: threadCounts.count)
  var rawSpeedups = Array(repeating: [Double](), count: threadCounts.count)
  for repetition in 0..<repetitions {
    var times = Array(repeating: (ours: 0.0, raw: Double?.none), count: threadCounts.count)
    for step in 0..<threadCounts.count {
      let index = (step + repetition) % threadCounts.count
      times[index] = try run(threadCounts[index])
    }
    for index in threadCounts.indices {
      let work = Double(rows(threadCounts[index]))
      seconds[index].append(times[index].ours)
      speedups[index].append(work / times[index].ours / (Double(rows(1)) / times[0].ours))
      if let raw = times[index].raw, let rawBaseline = times[0].raw {
        rawSpeedups[index].append(work / raw / (Double(rows(1)) / rawBaseline))
      }
    }
  }
  return threadCounts.indices.map {
    ScalingMeasurement(
      workload: workload, threads: threadCounts[$0], rows: rows(threadCounts[$0]), seconds: median(seconds[$0]),
      speedup: median(speedups[$0]), rawSpeedup: rawSpeedups[$0].isEmpty ? nil : median(rawSpeedups[$0]))
  }
}

enum ConcurrencyWorkloads {
  static let poolReadScalingName = "pool_read_scaling"
  static let queueWriteContentionName = "queue_write_contention"

  /// 7. `pool_read_scaling`: 1, 2 and 4 threads, each doing the fetch_index
  /// workload (every value of the `rows` rows of the fetch table, by column
  /// index, summed) inside `pool.read { db in ... }` of one DatabasePool.
  /// Each reader's checksum is checked, and the readers meet at a barrier
  /// inside their blocks before scanning, so a pool that did not let them
  /// read at the same time fails the run (after `threadWaitLimit`) instead
  /// of reporting a figure. Alongside, as a reference, the same threads
  /// run the raw fetch_index loop, each on a raw connection of its own
  /// (meeting at a barrier before their first step), the two alternating
  /// which goes first.
  static func poolReadScaling(path: String, rows: Int, repetitions: Int) throws -> [ScalingMeasurement] {
    let name = poolReadScalingName
    Workloads.makeFetchDatabase(path: path, rows: rows)
    let pool = try DatabasePool(path: path)
    let raw = (0..<4).map { _ in RawConnection(path: path) }
    let expected = Workloads.checksum(rows: rows)
    var rawFirst = false
    return try measureScaling(
      workload: name, threadCounts: [1, 2, 4], repetitions: repetitions, rows: { $0 * rows },
      run: { threads in
        rawFirst.toggle()
        let rawSeconds = rawFirst ? try rawReaders(raw, threads: threads, expected: expected) : 0
        let inside = Barrier(parties: threads)
        let (seconds, sums) = try runTogether(workload: name, threads: threads) { _ in
          try pool.read { db in
            guard inside.arriveAndWait() else {
              throw ConcurrencyFailure.stuck(workload: name, what: "the readers were not inside pool.read at once")
            }
            var sum: Int64 = 0
            try db.forEachRow(Workloads.selectAll) { row in
              for column in 0..<10 { sum &+= try row.get(column, as: Int64.self) }
            }
            return sum
          }
        }
        if let wrong = sums.first(where: { $0 != expected }) {
          throw ConcurrencyFailure.wrongResult(workload: name, threads: threads, got: wrong, expected: expected)
        }
        return (seconds, rawFirst ? rawSeconds : try rawReaders(raw, threads: threads, expected: expected))
      })
  }

  /// The raw reference of pool_read_scaling: `threads` threads, thread i
  /// scanning the fetch table on `connections[i]`; the wall seconds, each
  /// checksum checked.
  private static func rawReaders(_ connections: [RawConnection], threads: Int, expected: Int64) throws -> Double {
    let name = poolReadScalingName + " (raw)"
    let inside = Barrier(parties: threads)
    let (seconds, sums) = try runTogether(workload: name, threads: threads) { index in
      let statement = connections[index].prepare(Workloads.selectAll)
      defer { sqlite3_finalize(statement) }
      guard inside.arriveAndWait() else {
        throw ConcurrencyFailure.stuck(workload: name, what: "the raw readers did not meet")
      }
      var sum: Int64 = 0
      while sqlite3_step(statement) == SQLITE_ROW {
        for column in 0..<Int32(10) { sum &+= sqlite3_column_int64(statement, column) }
      }
      return sum
    }
    if let wrong = sums.first(where: { $0 != expected }) {
      throw ConcurrencyFailure.wrongResult(workload: name, threads: threads, got: wrong, expected: expected)
    }
    return seconds
  }

  /// How many rows one `queue.write` of `queue_write_contention` inserts.
  static let writeBatch = 100

  /// 8. `queue_write_contention`: `rows` rows inserted into an empty table
  /// of a file in the default Configuration (rollback journal) through one
  /// DatabaseQueue, by 1 thread and by 4 threads each inserting a quarter;
  /// every `queue.write` (one IMMEDIATE transaction) inserts a batch of up to
  /// `writeBatch` rows with positional arguments, as insert_positional.
  /// After each run the table's count and sum are checked.
  static func queueWriteContention(path: String, rows: Int, repetitions: Int) throws -> [ScalingMeasurement] {
    let name = queueWriteContentionName
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
      try db.execute("DROP TABLE IF EXISTS item")
      try db.execute("CREATE TABLE item(" + Workloads.columns.map { "\($0) INT" }.joined(separator: ", ") + ")")
    }
    let checker = RawConnection(path: path)
    let expected = Workloads.checksum(rows: rows)
    return try measureScaling(
      workload: name, threadCounts: [1, 4], repetitions: repetitions, rows: { _ in rows },
      run: { threads in
        try queue.write { db in try db.execute("DELETE FROM item") }
        let (seconds, inserted) = try runTogether(workload: name, threads: threads) { index in
          // Thread `index` inserts rows first...last, batch by batch.
          let first = rows * index / threads + 1
          let last = rows * (index + 1) / threads
          var batchStart = first
          while batchStart <= last {
            let batchEnd = min(last, batchStart + writeBatch - 1)
            try queue.write { db in
              for row in batchStart...batchEnd {
                let r = Int64(row)
                try db.execute(
                  Workloads.insertPositional,
                  [
                    .integer(r), .integer(r + 1), .integer(r + 2), .integer(r + 3), .integer(r + 4),
                    .integer(r + 5), .integer(r + 6), .integer(r + 7), .integer(r + 8), .integer(r + 9),
                  ])
              }
            }
            batchStart = batchEnd + 1
          }
          return Int64(max(0, last - first + 1))
        }
        let statement = checker.prepare("SELECT count(*), total(i0+i1+i2+i3+i4+i5+i6+i7+i8+i9) FROM item")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { fatalError("cannot read back \(name)") }
        let count = sqlite3_column_int64(statement, 0)
        let sum = Int64(sqlite3_column_double(statement, 1))
        let reported = inserted.reduce(0, +)
        guard count == Int64(rows), reported == Int64(rows) else {
          throw ConcurrencyFailure.wrongResult(
            workload: name + " (row count, rows the threads reported: \(reported))", threads: threads, got: count,
            expected: Int64(rows))
        }
        guard sum == expected else {
          throw ConcurrencyFailure.wrongResult(workload: name, threads: threads, got: sum, expected: expected)
        }
        return (seconds, nil)
      })
  }
}

/// Prints the concurrency table: one line per workload and thread count.
func reportConcurrency(_ measurements: [ScalingMeasurement], repetitions: Int) {
  print("\nConcurrency (wall time, median of \(repetitions) runs after a warm-up; against one thread):")
  print(
    [
      "workload".padding(toLength: 22, withPad: " ", startingAt: 0), "threads".leftPadded(7), "rows".leftPadded(9),
      "seconds".leftPadded(9), "rows/s".leftPadded(10), "vs 1".leftPadded(6), "raw C vs 1".leftPadded(10),
    ].joined(separator: "  "))
  for measurement in measurements {
    print(
      [
        measurement.workload.padding(toLength: 22, withPad: " ", startingAt: 0),
        String(measurement.threads).leftPadded(7), String(measurement.rows).leftPadded(9),
        formatted(measurement.seconds, decimals: 4).leftPadded(9),
        String(Int(measurement.rowsPerSecond.rounded())).leftPadded(10),
        formatted(measurement.speedup, decimals: 2).leftPadded(6),
        (measurement.rawSpeedup.map { formatted($0, decimals: 2) } ?? "-").leftPadded(10),
      ].joined(separator: "  "))
  }
}
