import SQLiteBridgeCore

/// How `DatabasePool.checkpoint(_:)` copies the write-ahead log into the
/// database file (the C++ `sqlitebridge::CheckpointMode`).
public enum CheckpointMode: Sendable {
  /// Copies what it can without waiting for readers or the writer; never
  /// fails for being blocked.
  case passive
  /// Waits (up to the busy timeout) until no writer is active, then copies
  /// every frame; throws `.busy` when a reader still needs an older frame.
  case full
  /// As `full`, then waits until no reader uses the log, so that the next
  /// writer starts it from the beginning.
  case restart
  /// As `restart`, and truncates the `-wal` file to zero bytes.
  case truncate

  var cxx: sqlitebridge.CheckpointMode {
    switch self {
    case .passive: return .Passive
    case .full: return .Full
    case .restart: return .Restart
    case .truncate: return .Truncate
    }
  }
}
