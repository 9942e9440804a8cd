import SQLiteBridgeCore

/// How a connection is set up when it opens, before anything reads the file
/// (the C++ `sqlitebridge::Configuration`, whose defaults these are).
public struct Configuration: Sendable, Equatable {
  /// How long the open and every later statement wait for another
  /// connection's lock (a writer, a commit, a WAL recovery or checkpoint)
  /// before failing with `.busy`. 5 seconds by default; zero or
  /// less fails at once; kept to whole milliseconds (at most `Int32.max`).
  public var busyTimeout: Duration

  /// The defaults: a 5-second busy timeout.
  public init() {
    let defaults = sqlitebridge.Configuration()
    busyTimeout = .milliseconds(defaults.busyTimeoutMilliseconds)
  }

  var cxx: sqlitebridge.Configuration {
    var configuration = sqlitebridge.Configuration()
    configuration.busyTimeoutMilliseconds = busyTimeout.wholeMilliseconds
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
