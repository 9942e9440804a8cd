import SQLiteBridgeCore

/// How a connection is set up when it opens, before anything reads the file
/// (the C++ `sqlitebridge::Configuration`, whose defaults these are).
public struct Configuration: Sendable, Equatable {
  /// How long the open and every later statement wait for another
  /// connection's lock (a writer, a commit, a WAL recovery or checkpoint)
  /// before failing with `.busy`. 5 seconds by default; zero or
  /// less fails at once; kept to whole milliseconds (at most `Int32.max`).
  public var busyTimeout: Duration
  /// Whether the connection enforces foreign keys (`PRAGMA foreign_keys`,
  /// set at open); on by default.
  public var foreignKeysEnabled: Bool
  /// Opens the file read-only: every write throws `.readOnly`, and a missing
  /// file is not created (`.cantOpen`); by name, a database not copied or
  /// created yet throws `.cantOpen` instead of being made.
  public var readOnly: Bool
  /// How many reader connections a database pool opens at most.
  public var maximumReaderCount: Int

  /// The defaults (the core's): a 5-second busy timeout, foreign keys
  /// enforced, read-write, 5 readers.
  public init() {
    let defaults = sqlitebridge.Configuration()
    busyTimeout = .milliseconds(defaults.busyTimeoutMilliseconds)
    foreignKeysEnabled = defaults.foreignKeys
    readOnly = defaults.readOnly
    maximumReaderCount = Int(defaults.maximumReaderCount)
  }

  var cxx: sqlitebridge.Configuration {
    var configuration = sqlitebridge.Configuration()
    configuration.busyTimeoutMilliseconds = busyTimeout.wholeMilliseconds
    configuration.foreignKeys = foreignKeysEnabled
    configuration.readOnly = readOnly
    configuration.maximumReaderCount = Int32(clamping: maximumReaderCount)
    return configuration
  }
}

extension Duration {
  /// Whole milliseconds, rounded toward zero and clamped to `Int32`, as the
  /// core takes a timeout.
  var wholeMilliseconds: Int32 {
    let (seconds, attoseconds) = components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    guard !milliseconds.overflow else { return seconds < 0 ? Int32.min : Int32.max }
    let (total, overflow) = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
    guard !overflow else { return seconds < 0 ? Int32.min : Int32.max }
    return Int32(clamping: total)
  }
}
