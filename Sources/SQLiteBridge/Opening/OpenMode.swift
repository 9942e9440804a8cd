import SQLiteBridgeCore

/// How `Database(path:mode:)` opens a file.
public enum OpenMode: Sendable {
  /// Reads only; writes fail with `.readOnly`. A missing file fails
  /// with `.cantOpen`.
  case readOnly
  /// Reads and writes an existing file; a missing file fails with
  /// `.cantOpen`.
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
