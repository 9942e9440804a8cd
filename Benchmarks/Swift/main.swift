// sqlite-bridge-bench: SQLiteBridge's Swift API against the raw sqlite3 C
// API, in the same process, on the same data; then how a DatabasePool's
// reads and a DatabaseQueue's writes scale with threads (ConcurrencyWorkloads).
//
//   swift run -c release sqlite-bridge-bench [--rows N] [--reps N] [--json FILE] [--check-targets]
//                                            [--only WORKLOAD]
import Foundation
import SQLiteBridge

/// Most our/raw may be, per workload (issue 4; issue 14 for the records,
/// the values bound without an array and fetch_decodable's 2.00; issue 38
/// for insert_codable).
let targets: [String: Double] = [
  "fetch_index": 1.10, "fetch_name": 1.00, "fetch_dictionaries": 1.00, "fetch_decodable": 2.00,
  "fetch_record": 1.15, "insert_positional": 1.20, "insert_named": 1.25, "insert_values": 1.10,
  "insert_record": 1.30, "insert_codable": 2.00,
]

/// Most request/SQL text may be (issue 40): a request against the same
/// fetch by SQL text, both through SQLiteBridge (QueryWorkloads.swift).
let requestTargets: [String: Double] = [
  "point_fetch_request_vs_sql": 1.25, "fetch_all_request_vs_sql": 1.05,
]

struct Options {
  var rows = 200_000
  var repetitions = 5
  var jsonPath: String?
  var checkTargets = false
  /// Runs only this workload (for profiling), without scaling or memory
  /// (pool_read_scaling and queue_write_contention: after the main table).
  var only: String?
  var memoryProbe: (path: String, rows: Int, materialize: Bool)?

  init(_ arguments: [String]) throws {
    var remaining = arguments[...]
    func value(_ flag: String) throws -> String {
      guard let next = remaining.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
      return next
    }
    func positive(_ flag: String) throws -> Int {
      guard let number = Int(try value(flag)), number > 0 else {
        throw UsageError(message: "\(flag) needs a number > 0")
      }
      return number
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--rows": rows = try positive(argument)
      case "--reps": repetitions = try positive(argument)
      case "--json": jsonPath = try value(argument)
      case "--check-targets": checkTargets = true
      case "--only": only = try value(argument)
      case "--wall-clock": useWallClock = true
      case "--side": onlySide = try value(argument)
      case "--memory-probe", "--memory-probe-materialize":
        memoryProbe = (try value(argument), try positive(argument), argument.hasSuffix("materialize"))
      default: throw UsageError(message: "unknown argument \(argument)")
      }
    }
  }
}

struct UsageError: Error { let message: String }

/// Peak resident memory of this process, in KiB. On Linux it is VmHWM, the
/// high-water mark of this address space: getrusage's ru_maxrss would carry
/// the parent's peak over fork and exec.
func peakMemoryKiB() -> Int {
  #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    {
      return kib
    }
  #endif
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss)
  #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / 1024
  #endif
}

/// In a fresh process (so the peak is this scan's alone): reads every row
/// of the fetch table by streaming, or by materializing dictionaries, and
/// prints the peak memory growth in KiB.
func runMemoryProbe(path: String, rows: Int, materialize: Bool) throws {
  let database = try Database(path: path)
  let before = peakMemoryKiB()
  var sum: Int64 = 0
  if materialize {
    let result = try database.execute(Workloads.selectAll)
    for row in result { if case .integer(let value) = row["i0"] { sum &+= value } }
  } else {
    try database.forEachRow(Workloads.selectAll) { row in sum &+= try row.get(0, as: Int64.self) }
  }
  let growth = peakMemoryKiB() - before
  let n = Int64(rows)
  guard sum == n * (n + 1) / 2 else { throw UsageError(message: "memory probe read a wrong checksum \(sum)") }
  print(growth)
}

/// Runs this executable again as a memory probe and returns its answer.
func probeMemory(path: String, rows: Int, materialize: Bool) throws -> Int {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
  if !FileManager.default.fileExists(atPath: process.executableURL!.path) {
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
  }
  process.arguments = [materialize ? "--memory-probe-materialize" : "--memory-probe", path, String(rows)]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0,
    let kib = Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  else { throw UsageError(message: "the memory probe failed") }
  return kib
}

func report(_ measurement: Measurement) {
  let target = targets[measurement.workload].map { formatted($0, decimals: 2) } ?? "-"
  let columns = [
    measurement.workload.padding(toLength: 20, withPad: " ", startingAt: 0),
    String(measurement.rows).leftPadded(9),
    formatted(measurement.raw, decimals: 4).leftPadded(9),
    formatted(measurement.ours, decimals: 4).leftPadded(9),
    formatted(measurement.ratio, decimals: 2).leftPadded(8),
    target.leftPadded(7),
  ]
  print(columns.joined(separator: "  "))
}

/// A line of the requests-against-SQL-text table.
func reportAgainstSQL(_ measurement: Measurement) {
  let target = requestTargets[measurement.workload].map { formatted($0, decimals: 2) } ?? "-"
  let columns = [
    measurement.workload.padding(toLength: 26, withPad: " ", startingAt: 0),
    String(measurement.rows).leftPadded(9),
    formatted(measurement.raw, decimals: 4).leftPadded(9),
    formatted(measurement.ours, decimals: 4).leftPadded(9),
    formatted(measurement.ratio, decimals: 2).leftPadded(8),
    target.leftPadded(7),
  ]
  print(columns.joined(separator: "  "))
}

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

func main() throws -> Int32 {
  let options = try Options(Array(CommandLine.arguments.dropFirst()))
  if let probe = options.memoryProbe {
    try runMemoryProbe(path: probe.path, rows: probe.rows, materialize: probe.materialize)
    return 0
  }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-bridge-bench-\(getpid())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }

  #if DEBUG
    print("warning: a debug build; use `swift run -c release sqlite-bridge-bench` for real numbers")
  #endif
  print("SQLiteBridge vs raw sqlite3 (Swift), median of \(options.repetitions) runs after a warm-up, seconds")
  print(
    [
      "workload".padding(toLength: 20, withPad: " ", startingAt: 0), "rows".leftPadded(9), "raw".leftPadded(9),
      "ours".leftPadded(9), "ours/raw".leftPadded(8), "target".leftPadded(7),
    ].joined(separator: "  "))

  var measurements: [Measurement] = []
  func run(_ workload: Workload) throws {
    if let only = options.only, workload.name != only { return }
    let measurement = try measure(workload, repetitions: options.repetitions)
    measurements.append(measurement)
    report(measurement)
  }

  let path = directory.appendingPathComponent("fetch.db").path
  let workloads = Workloads(path: path)
  Workloads.makeFetchDatabase(path: path, rows: options.rows)
  try run(try workloads.fetchIndex(rows: options.rows))
  try run(try workloads.fetchName(rows: options.rows))
  try run(try workloads.fetchDictionaries(rows: options.rows))
  try run(try workloads.fetchDecodable(rows: options.rows))
  try run(try workloads.fetchRecord(rows: options.rows))
  try run(try workloads.fetchRecordByName(rows: options.rows))
  Workloads.makeKeyedTable(path: path, rows: options.rows)
  let lookups = max(1, options.rows / 4)
  let pointSQL = try workloads.pointFetchSQL(rows: options.rows, lookups: lookups)
  let pointRequest = try workloads.pointFetchRequest(rows: options.rows, lookups: lookups)
  let allSQL = try workloads.fetchAllSQL(rows: options.rows)
  let allRequest = try workloads.fetchAllRequest(rows: options.rows)
  for workload in [pointSQL, pointRequest, allSQL, allRequest] { try run(workload) }
  let insertRows = max(1, options.rows / 4)
  try run(try workloads.insertPositional(rows: insertRows))
  try run(try workloads.insertNamed(rows: insertRows))
  try run(try workloads.insertValues(rows: insertRows))
  try run(try workloads.insertRecord(rows: insertRows))
  try run(try workloads.insertCodable(rows: insertRows))

  // Requests against their SQL-text twins (issue 40), paired the same way.
  var requestMeasurements: [Measurement] = []
  let againstSQL = [
    Workloads.requestAgainstSQL(request: pointRequest, sql: pointSQL),
    Workloads.requestAgainstSQL(request: allRequest, sql: allSQL),
  ]
  if options.only == nil || againstSQL.contains(where: { $0.name == options.only }) {
    print("\nRequests against the same fetch by SQL text (\"sql\": SQL text, \"request\": the request):")
    print(
      [
        "workload".padding(toLength: 26, withPad: " ", startingAt: 0), "rows".leftPadded(9), "sql".leftPadded(9),
        "request".leftPadded(9), "req/sql".leftPadded(8), "target".leftPadded(7),
      ].joined(separator: "  "))
    for workload in againstSQL where options.only == nil || workload.name == options.only {
      let measurement = try measure(workload, repetitions: options.repetitions)
      requestMeasurements.append(measurement)
      reportAgainstSQL(measurement)
    }
  }

  // The concurrency workloads (all, or the one --only names).
  var concurrency: [ScalingMeasurement] = []
  func runConcurrency(only: String?) throws {
    if only == nil || only == ConcurrencyWorkloads.poolReadScalingName {
      concurrency += try ConcurrencyWorkloads.poolReadScaling(
        path: directory.appendingPathComponent("pool.db").path, rows: options.rows, repetitions: options.repetitions)
    }
    if only == nil || only == ConcurrencyWorkloads.queueWriteContentionName {
      concurrency += try ConcurrencyWorkloads.queueWriteContention(
        path: directory.appendingPathComponent("queue.db").path, rows: insertRows, repetitions: options.repetitions)
    }
    reportConcurrency(concurrency, repetitions: options.repetitions)
  }

  if let only = options.only {
    if [ConcurrencyWorkloads.poolReadScalingName, ConcurrencyWorkloads.queueWriteContentionName].contains(only) {
      try runConcurrency(only: only)
    }
    // The one workload's figures, as a full run writes them.
    if let jsonPath = options.jsonPath, onlySide == nil {
      try json(measurements, againstSQL: requestMeasurements, concurrency: concurrency).write(
        toFile: jsonPath, atomically: true, encoding: .utf8)
    }
    return 0
  }
  print("\nScaling (fetch by index and into dictionaries):")
  var scaling: [Measurement] = []
  for rows in [options.rows / 20, options.rows / 2, options.rows * 5] where rows > 0 {
    let scaled = Workloads(path: directory.appendingPathComponent("scale-\(rows).db").path)
    Workloads.makeFetchDatabase(path: scaled.path, rows: rows)
    for workload in [try scaled.fetchIndex(rows: rows), try scaled.fetchDictionaries(rows: rows)] {
      let measurement = try measure(workload, repetitions: options.repetitions)
      scaling.append(measurement)
      report(measurement)
    }
  }
  let memoryRows = options.rows * 5
  let memoryPath = directory.appendingPathComponent("scale-\(memoryRows).db").path
  let streamed = try probeMemory(path: memoryPath, rows: memoryRows, materialize: false)
  let materialized = try probeMemory(path: memoryPath, rows: memoryRows, materialize: true)
  print(
    "\nPeak memory growth over \(memoryRows) rows: forEachRow \(streamed) KiB, execute (dictionaries) \(materialized) KiB"
  )

  try runConcurrency(only: nil)

  if let jsonPath = options.jsonPath {
    try json(measurements + scaling, againstSQL: requestMeasurements, concurrency: concurrency).write(
      toFile: jsonPath, atomically: true, encoding: .utf8)
  }
  if options.checkTargets {
    let allTargets = targets.merging(requestTargets) { first, _ in first }
    let missed = (measurements + requestMeasurements).filter { $0.ratio > (allTargets[$0.workload] ?? .infinity) }
    for measurement in missed {
      print(
        "target missed: \(measurement.workload) \(formatted(measurement.ratio, decimals: 2)) > \(allTargets[measurement.workload]!)"
      )
    }
    return missed.isEmpty ? 0 : 1
  }
  return 0
}

do {
  exit(try main())
} catch let error as UsageError {
  FileHandle.standardError.write(Data("sqlite-bridge-bench: \(error.message)\n".utf8))
  exit(2)
} catch {
  FileHandle.standardError.write(Data("sqlite-bridge-bench: \(error)\n".utf8))
  exit(1)
}
