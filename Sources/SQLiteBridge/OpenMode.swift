import SQLiteBridgeCore

/// How `Database(path:mode:)` opens a file.
public enum OpenMode: Sendable {
  /// Reads only; writes fail with SQLITE_READONLY (8). A missing file fails
  /// with SQLITE_CANTOPEN (14).
  case readOnly
  /// Reads and writes an existing file; a missing file fails with
  /// SQLITE_CANTOPEN (14).
  case readWrite
  /// Reads and writes, creating the file when missing.
  case readWriteCreate

  var cxx: sqlitebridge.OpenMode {
    switch self {
    case .readOnly: return .ReadOnly
    case .readWrite: return .ReadWrite
    case .readWriteCreate: return .ReadWriteCreate
    }
  }
}
