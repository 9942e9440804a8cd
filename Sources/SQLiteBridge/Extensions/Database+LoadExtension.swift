import CxxStdlib
import SQLiteBridgeCore

extension Database {
  /// Loads the extension at `path` into this connection, calling its init
  /// function `entryPoint` (nil: SQLite's default rule, see
  /// `SQLiteExtension`), through SQLite's C API only: loading is enabled for
  /// this one call and disabled again right after, whatever happened, so the
  /// SQL function `load_extension()` is never enabled. What the extension
  /// registers (functions, collations, virtual tables) is on this connection
  /// only; a VFS it registers is the process's. `Configuration.extensions`
  /// loads extensions at every open. The core does the work
  /// (`Database::loadExtension`).
  ///
  /// - Throws: `DatabaseError` with `.error` and a message naming `path`
  ///   (and `entryPoint` when given) with SQLite's reason when the file
  ///   cannot be loaded (missing, not a shared library), lacks the entry
  ///   point, or its init fails ("error during initialization: " and the
  ///   extension's message); `.misuse` when the database is closed, `path`
  ///   is empty, or `path` or `entryPoint` holds a NUL character.
  public func loadExtension(path: String, entryPoint: String? = nil) throws {
    guard core.loadExtension(std.string(path), std.string(entryPoint ?? "")) else { throw lastError }
  }
}
