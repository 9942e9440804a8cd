// An orders app that runs under Litestream (see README.md's "Continuous
// replication (Litestream)" and scripts/litestream-ci, which drives it).
//
//   litestream-orders write DB [--count N] [--pause-ms M] [--auto-checkpoint PAGES]
//       Writes orders to DB through a DatabasePool in WAL mode, one order per
//       transaction, and prints `committed ID UNIX_MS` (flushed) after each
//       commit returns: what it printed was acknowledged. N orders (0, the
//       default: until killed), M milliseconds apart (0 by default). Ends
//       with `wrote N orders in MS ms`.
//   litestream-orders replica EXTENSION
//       Opens the replica named by LITESTREAM_REPLICA_URL through the
//       `litestream` VFS that the extension registers, read-only; prints
//       `replica orders=N last=ID`, then tries to write and prints
//       `write refused: readOnly` (exit 1 when the write is not refused so).
//   litestream-orders follow EXTENSION --until ID [--interval-ms MS] [--timeout-s S]
//       Opens the replica the same way and follows it with a ValueObservation
//       (the queue looks for other processes' commits every MS ms, 50 by
//       default): prints `seen ID UNIX_MS` each time the last order id it
//       sees changes; exits 0 once it has seen ID, 1 after S seconds (60).
import Foundation
import SQLiteBridge

/// Prints a line with one write(2): unbuffered, so a harness that kills the
/// process has read every line it printed.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("litestream-orders: \(message)\n".utf8))
  exit(1)
}

func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

/// The value of `--name VALUE` in the arguments after the mode, or nil.
func option(_ name: String, _ arguments: [String]) -> String? {
  guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

func intOption(_ name: String, _ arguments: [String], default value: Int) -> Int {
  guard let text = option(name, arguments) else { return value }
  guard let number = Int(text), number >= 0 else { fail("--\(name) must be a whole number >= 0, not '\(text)'") }
  return number
}

func integer(_ value: DatabaseValue?) -> Int64 {
  if case .integer(let number) = value { return number }
  return 0
}

/// The app's configuration under Litestream: WAL (a pool always is), the
/// default 5-second busy timeout spelled out (Litestream holds a read
/// transaction and checkpoints itself: a writer may wait for it), and no
/// automatic checkpoints by the app, so that only Litestream checkpoints and
/// it never misses WAL frames (Litestream's recommendation under heavy writes).
func primaryConfiguration(autoCheckpointPages: Int) -> Configuration {
  var configuration = Configuration()
  configuration.busyTimeout = .seconds(5)
  configuration.autoCheckpointPages = autoCheckpointPages
  return configuration
}

/// A read-only connection to the replica through Litestream's VFS (the
/// replica's URL comes from LITESTREAM_REPLICA_URL, read by the extension).
func replicaConfiguration(extensionPath: String, checkInterval: Duration?) -> Configuration {
  var configuration = Configuration()
  configuration.vfs = "litestream"
  configuration.extensions = [SQLiteExtension(path: extensionPath, entryPoint: "sqlite3_litestreamvfs_init")]
  configuration.readOnly = true
  configuration.externalChangeCheckInterval = checkInterval
  return configuration
}

func write(_ arguments: [String]) throws {
  guard let path = arguments.first else { fail("write needs DB") }
  let count = intOption("count", arguments, default: 0)
  let pause = intOption("pause-ms", arguments, default: 0)
  let autoCheckpoint = intOption("auto-checkpoint", arguments, default: 0)
  let pool = try DatabasePool(path: path, configuration: primaryConfiguration(autoCheckpointPages: autoCheckpoint))
  try pool.write { db in
    try db.executeScript(
      """
      CREATE TABLE IF NOT EXISTS orders(
        id INTEGER PRIMARY KEY, item TEXT NOT NULL, quantity INTEGER NOT NULL, placed_ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS totals(id INTEGER PRIMARY KEY CHECK (id = 1), orders INTEGER NOT NULL);
      INSERT OR IGNORE INTO totals(id, orders) VALUES (1, 0);
      """)
  }
  let started = nowMilliseconds()
  var written = 0
  while count == 0 || written < count {
    // One order per transaction, and the running total in the same one: a
    // restored file whose total differs from its order count holds half a
    // transaction.
    let id = try pool.write { db -> Int64 in
      try db.execute(
        "INSERT INTO orders(item, quantity, placed_ms) VALUES (?, ?, ?)",
        [.text("item-\(written % 97)"), .integer(Int64(written % 5 + 1)), .integer(nowMilliseconds())])
      let id = db.lastInsertRowID
      try db.execute("UPDATE totals SET orders = orders + 1 WHERE id = 1")
      return id
    }
    say("committed \(id) \(nowMilliseconds())")
    written += 1
    if pause > 0 { usleep(useconds_t(pause * 1000)) }
  }
  say("wrote \(written) orders in \(nowMilliseconds() - started) ms")
}

func replica(_ arguments: [String]) throws {
  guard let extensionPath = arguments.first else { fail("replica needs EXTENSION") }
  let queue = try DatabaseQueue(
    path: "orders.db", configuration: replicaConfiguration(extensionPath: extensionPath, checkInterval: nil))
  let row = try queue.read { db in try db.execute("SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM orders")[0] }
  say("replica orders=\(integer(row["n"])) last=\(integer(row["last"]))")
  do {
    try queue.write { db in
      try db.execute("INSERT INTO orders(item, quantity, placed_ms) VALUES ('replica', 1, 0)")
    }
    fail("a write to the replica succeeded")
  } catch let error as DatabaseError where error.resultCode == .readOnly {
    say("write refused: readOnly")
  }
}

/// What the follower has seen, shared with the observation's callbacks.
final class Followed: @unchecked Sendable {
  let lock = NSLock()
  var error: (any Error)?
  var reached = false
}

func follow(_ arguments: [String]) throws {
  guard let extensionPath = arguments.first else { fail("follow needs EXTENSION") }
  guard let until = option("until", arguments).flatMap({ Int64($0) }) else { fail("follow needs --until ID") }
  let interval = intOption("interval-ms", arguments, default: 50)
  let timeout = intOption("timeout-s", arguments, default: 60)
  let queue = try DatabaseQueue(
    path: "orders.db",
    configuration: replicaConfiguration(extensionPath: extensionPath, checkInterval: .milliseconds(max(1, interval))))
  let followed = Followed()
  let done = DispatchSemaphore(value: 0)
  let observation = ValueObservation.tracking { db in
    integer(try db.execute("SELECT coalesce(max(id), 0) AS last FROM orders")[0]["last"])
  }.removeDuplicates()
  let cancellable = observation.start(
    in: queue,
    onError: { error in
      followed.lock.withLock { followed.error = error }
      done.signal()
    },
    onChange: { last in
      say("seen \(last) \(nowMilliseconds())")
      if last >= until {
        followed.lock.withLock { followed.reached = true }
        done.signal()
      }
    })
  let outcome = done.wait(timeout: .now() + .seconds(timeout))
  cancellable.cancel()
  if let error = followed.lock.withLock({ followed.error }) { throw error }
  if outcome == .timedOut { fail("did not see order \(until) within \(timeout) s") }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "write": try write(Array(arguments.dropFirst()))
  case "replica": try replica(Array(arguments.dropFirst()))
  case "follow": try follow(Array(arguments.dropFirst()))
  default:
    fail(
      "usage: litestream-orders write DB [--count N] [--pause-ms M] | replica EXTENSION | follow EXTENSION --until ID")
  }
} catch {
  fail("\(error)")
}
