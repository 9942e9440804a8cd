import SQLiteBridgeCore

/// What `Database.insert(into:_:onConflict:)` does when the row would break
/// a UNIQUE, NOT NULL, CHECK or PRIMARY KEY constraint (SQLite's
/// `INSERT OR …`). Always written out, so it overrides an `ON CONFLICT`
/// clause of the table's own.
public enum ConflictResolution: Sendable {
  /// Fails and undoes the statement; an open transaction stays open.
  case abort
  /// Deletes the rows in the way, then inserts.
  case replace
  /// Skips the row without an error (the insert returns rowid 0).
  case ignore
  /// Fails, keeping what the statement already changed.
  case fail
  /// Fails and rolls back the whole transaction.
  case rollback

  var cxx: sqlitebridge.ConflictResolution {
    switch self {
    case .abort: return .Abort
    case .replace: return .Replace
    case .ignore: return .Ignore
    case .fail: return .Fail
    case .rollback: return .Rollback
    }
  }
}
