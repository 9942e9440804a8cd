import Dispatch
import Foundation
import SQLiteBridge

/// `watch DB SQL [ARG...] [--format json|table|csv] [--external-interval MS] [--count N]`:
/// prints the statement's rows once, then again each time they change,
/// until interrupted (SIGINT or SIGTERM: exit 0) or after N prints.
///
/// A `ValueObservation` on a `DatabaseQueue` does the work: the queue looks
/// for commits of other processes every MS milliseconds (100 by default;
/// such a commit counts as a change of the whole database), fetches again,
/// and a result equal to the last one printed is not printed again. JSON
/// prints one array per line; a table is followed by an empty line; CSV
/// prints the header and the records each time.
enum WatchCommand {
  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let format = try RowFormat(named: arguments.option("format") ?? "json", for: "--format")
    let interval = try positiveInteger(arguments.option("external-interval") ?? "100", for: "--external-interval")
    let count = try arguments.option("count").map { try positiveInteger($0, for: "--count") }
    let path = try arguments.positional("DB")
    let sql = try arguments.positional("SQL")
    let values = try arguments.rest().map(QueryCommand.argumentValue)
    var configuration = Configuration()
    configuration.externalChangeCheckInterval = .milliseconds(interval)
    let queue = try opener.openQueue(path, configuration: configuration)
    // Fails now (bad SQL, a missing table) rather than as the first change.
    try queue.read { db in _ = try db.makeStatement(sql) }

    let observation = ValueObservation.tracking { db in
      let statement = try db.makeStatement(sql)
      return format.renderForWatch(columns: statement.columnNames, rows: try statement.rows(values))
    }.removeDuplicates()
    let done = DispatchSemaphore(value: 0)
    let outcome = WatchOutcome(remaining: count)
    // Caught before the first print: an interrupt that follows it ends the
    // watch cleanly (the handler only sets a flag the wait below polls).
    signal(SIGINT) { _ in watchInterrupted = 1 }
    signal(SIGTERM) { _ in watchInterrupted = 1 }
    let cancellable = observation.start(
      in: queue,
      onError: { error in
        outcome.fail(error)
        done.signal()
      },
      onChange: { text in
        if outcome.print(text) { done.signal() }
      })
    while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut, watchInterrupted == 0 {}
    cancellable.cancel()
    if let error = outcome.error { throw error }
  }

  static func positiveInteger(_ text: String, for option: String) throws -> Int {
    guard let value = Int(text), value > 0 else {
      throw UsageError("\(option) must be a positive whole number, not '\(text)'")
    }
    return value
  }
}

/// Set by the SIGINT and SIGTERM handlers of `watch` (a `sig_atomic_t`, as a
/// signal handler may write).
nonisolated(unsafe) private var watchInterrupted: sig_atomic_t = 0

/// What the observation's callbacks share with the waiting main thread.
private final class WatchOutcome: @unchecked Sendable {
  private let lock = NSLock()
  private var remaining: Int?
  private(set) var error: (any Error)?

  init(remaining: Int?) { self.remaining = remaining }

  /// Prints `text` and flushes it (stdout may be a pipe); true once the
  /// last print asked for is made.
  func print(_ text: String) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    FileHandle.standardOutput.write(Data(text.utf8))
    guard let left = remaining else { return false }
    remaining = left - 1
    return left <= 1
  }

  func fail(_ error: any Error) {
    lock.lock()
    defer { lock.unlock() }
    self.error = error
  }
}

extension RowFormat {
  /// `render(columns:rows:)` for `watch`: JSON on one line, a table with an
  /// empty line after it, CSV as it is; each print ends with a line break.
  func renderForWatch(columns: [String], rows: [Row]) -> String {
    switch self {
    case .json: return RowPrinting.jsonLine(rows) + "\n"
    case .table: return render(columns: columns, rows: rows) + "\n\n"
    case .csv: return render(columns: columns, rows: rows)
    }
  }
}
