#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which clock times the runs: this thread's CPU time (the default: on a
/// shared machine, time other processes take is not counted) or wall time.
nonisolated(unsafe) var useWallClock = false

/// For instruction-count profiling: run only "raw", only "ours", or "none"
/// (setup alone, to subtract), instead of both.
nonisolated(unsafe) var onlySide: String?

/// Seconds on the chosen clock.
func now() -> Double {
  var time = timespec()
  clock_gettime(useWallClock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// What a timed run hands back: a closure, run after the clock stops, that
/// computes a checksum of what the run read or wrote (so no work can be
/// skipped or optimized away).
typealias Check = () throws -> Int64

/// One workload: the raw sqlite3 C API and SQLiteBridge doing the same job
/// on the same data.
struct Workload {
  let name: String
  let rows: Int
  /// Runs before each timed run, outside the clock (e.g. empties a table).
  var prepare: () throws -> Void = {}
  let raw: () throws -> Check
  let ours: () throws -> Check
  /// The checksum both must produce.
  let expected: Int64
}

struct Measurement {
  let workload: String
  let rows: Int
  /// Median seconds of the raw C API.
  let raw: Double
  /// Median seconds of SQLiteBridge.
  let ours: Double
  /// Median of the per-repetition ratios ours/raw. Each repetition runs both
  /// sides back to back, so a slow spell of a shared machine hits both.
  let ratio: Double
}

enum BenchmarkFailure: Error, CustomStringConvertible {
  case wrongResult(workload: String, side: String, got: Int64, expected: Int64)
  case notAnInteger
  var description: String {
    switch self {
    case .wrongResult(let workload, let side, let got, let expected):
      return "\(workload) (\(side)): checksum \(got), expected \(expected)"
    case .notAnInteger:
      return "a value read back is not an integer"
    }
  }
}

/// Runs each side once to warm up, then `repetitions` times interleaved
/// (alternating which goes first), and returns the medians.
func measure(_ workload: Workload, repetitions: Int) throws -> Measurement {
  func timed(_ side: String, _ body: () throws -> Check) throws -> Double {
    try workload.prepare()
    let start = now()
    let check = try body()
    let elapsed = now() - start
    let checksum = try check()
    guard checksum == workload.expected else {
      throw BenchmarkFailure.wrongResult(
        workload: workload.name, side: side, got: checksum, expected: workload.expected)
    }
    return elapsed
  }
  if let onlySide {
    for _ in 0..<repetitions {
      if onlySide == "raw" { _ = try timed("raw", workload.raw) }
      if onlySide == "ours" { _ = try timed("ours", workload.ours) }
    }
    return Measurement(workload: workload.name, rows: workload.rows, raw: 0, ours: 0, ratio: 0)
  }
  _ = try timed("raw", workload.raw)
  _ = try timed("ours", workload.ours)
  var raw: [Double] = []
  var ours: [Double] = []
  for repetition in 0..<repetitions {
    if repetition % 2 == 0 {
      raw.append(try timed("raw", workload.raw))
      ours.append(try timed("ours", workload.ours))
    } else {
      ours.append(try timed("ours", workload.ours))
      raw.append(try timed("raw", workload.raw))
    }
  }
  let ratios = zip(ours, raw).map { $0 / $1 }
  return Measurement(
    workload: workload.name, rows: workload.rows, raw: median(raw), ours: median(ours), ratio: median(ratios))
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The measurements as a JSON array of {workload, rows, raw_s, ours_s, ratio}.
///
/// The requests against their SQL-text twins (issue 40) follow, with the
/// same five keys plus `"kind": "request_vs_sql"`: there `raw_s` is the
/// SQL-text fetch's median seconds (through SQLiteBridge, not the raw C
/// API), `ours_s` the request's, and `ratio` the median of request/SQL text
/// per repetition.
///
/// The concurrency figures follow, in the same array with the same five
/// keys (so a reader of the older output still reads every entry) plus
/// `"kind": "concurrency"`, `threads`, `rows_per_s`, `speedup` (rows per
/// second against one thread) and, for pool_read_scaling, `raw_speedup`
/// (the raw C reference's). For them the baseline is SQLiteBridge with
/// one thread, not the raw C API: `raw_s` is the wall seconds one thread
/// would take for this entry's rows at its median rate, `ours_s` the median
/// wall seconds the threads took, and `ratio` = 1 / `speedup` (below 1:
/// faster than one thread, as for the other entries).
func json(_ measurements: [Measurement], againstSQL: [Measurement] = [], concurrency: [ScalingMeasurement] = [])
  -> String
{
  var objects = measurements.map {
    "  {\"workload\": \"\($0.workload)\", \"rows\": \($0.rows), \"raw_s\": \($0.raw), \"ours_s\": \($0.ours), "
      + "\"ratio\": \($0.ratio)}"
  }
  objects += againstSQL.map {
    "  {\"workload\": \"\($0.workload)\", \"rows\": \($0.rows), \"raw_s\": \($0.raw), \"ours_s\": \($0.ours), "
      + "\"ratio\": \($0.ratio), \"kind\": \"request_vs_sql\"}"
  }
  objects += concurrency.map {
    "  {\"workload\": \"\($0.workload)\", \"rows\": \($0.rows), \"raw_s\": \($0.seconds * $0.speedup), "
      + "\"ours_s\": \($0.seconds), \"ratio\": \(1 / $0.speedup), \"kind\": \"concurrency\", \"threads\": \($0.threads), "
      + "\"rows_per_s\": \($0.rowsPerSecond), \"speedup\": \($0.speedup)"
      + ($0.rawSpeedup.map { ", \"raw_speedup\": \($0)" } ?? "") + "}"
  }
  return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
}

func formatted(_ value: Double, decimals: Int) -> String {
  var text = String(Int((value * pow(10, Double(decimals))).rounded()))
  while text.count <= decimals { text = "0" + text }
  let split = text.index(text.endIndex, offsetBy: -decimals)
  return text[..<split] + "." + text[split...]
}
