import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

extension Database {
  /// The version of the SQLite library in use ("3.40.1"), as the core
  /// reports it (`Database::sqliteVersion`).
  public static var sqliteVersion: String {
    var version = std.string()
    _ = sqlitebridge.interop.LibraryInfo.sqliteVersion(&version)
    return String(version)
  }

  /// The options the SQLite library was compiled with, as `PRAGMA
  /// compile_options` lists them, without the "SQLITE_" prefix
  /// (`"THREADSAFE=1"`, ...). Empty only when memory ran out.
  public static func compileOptions() -> [String] {
    var options = sqlitebridge.interop.StringList()
    _ = sqlitebridge.interop.LibraryInfo.compileOptions(&options)
    return (0..<options.size()).map { String(options[$0]) }
  }

  /// The connection's `sqlite3*` handle, for calling sqlite3 yourself; the
  /// Database still owns it (never close it, and do not keep it past
  /// `close()`). Nil when closed.
  public var sqliteHandle: OpaquePointer? { sqlitebridge.interop.LibraryInfo.handle(core) }
}
