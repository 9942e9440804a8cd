import SQLiteBridgeCore

/// The journal mode `Configuration.journalMode` asks for at open
/// (`PRAGMA journal_mode`), its raw value as SQLite spells it.
///
/// SQLite keeps some modes where it cannot honour others (an in-memory
/// database stays in `memory` unless asked for `off`; a read-only connection
/// cannot switch to `wal`, `.readOnly`): the open then throws `.error` naming
/// the mode asked and the mode SQLite kept. WAL is written in the file and
/// stays after the connection closes; the other modes last as long as the
/// connection.
public enum JournalMode: String, Sendable {
  /// The rollback journal is deleted at each commit (SQLite's default).
  case delete
  /// The rollback journal is truncated to zero bytes at each commit.
  case truncate
  /// The rollback journal stays, its header zeroed at each commit.
  case persist
  /// The rollback journal is kept in memory (a crash mid-write can corrupt
  /// the file).
  case memory
  /// Write-ahead logging: readers alongside one writer.
  case wal
  /// No journal: ROLLBACK is undefined and a crash can corrupt the file.
  case off

  var cxx: sqlitebridge.JournalMode {
    switch self {
    case .delete: return .Delete
    case .truncate: return .Truncate
    case .persist: return .Persist
    case .memory: return .Memory
    case .wal: return .Wal
    case .off: return .Off
    }
  }
}
