import SQLiteBridgeCore

/// How often SQLite waits for the disk, as `Configuration.synchronous` asks
/// at open (`PRAGMA synchronous`, which reads back 0, 1, 2 or 3).
public enum Synchronous: Sendable {
  /// 0: never; a power loss can corrupt the file.
  case off
  /// 1: at the critical moments only (in WAL, a power loss can lose the last
  /// commits but never corrupts).
  case normal
  /// 2: at every commit (SQLite's default).
  case full
  /// 3: as `full`, and also the directory after the rollback journal is
  /// removed.
  case extra

  var cxx: sqlitebridge.Synchronous {
    switch self {
    case .off: return .Off
    case .normal: return .Normal
    case .full: return .Full
    case .extra: return .Extra
    }
  }
}
