/// A loadable SQLite extension (a shared library) that
/// `Configuration.extensions` loads into every connection at open, as
/// `Database.loadExtension(path:entryPoint:)` does into one (the C++
/// `sqlitebridge::Extension`).
///
/// Loading goes through SQLite's C API only, enabled for that one call and
/// disabled right after: the SQL function `load_extension()` stays disabled
/// on every connection. A missing file, an entry point the file lacks or an
/// init that fails throws `.error` with SQLite's reason and a message naming
/// the path, and fails the open; an empty path, or a path or entry point
/// holding a NUL character, throws `.misuse`.
public struct SQLiteExtension: Sendable, Hashable {
  /// The file to load: SQLite tries it as given, then with the platform's
  /// suffix (`.so`, `.dylib`, `.dll`) appended. A relative path is resolved
  /// by the dynamic loader (the working directory when it holds a `/`;
  /// otherwise the loader's search path).
  public var path: String
  /// The name of the init function to call; nil uses SQLite's default rule
  /// (`sqlite3_extension_init`, then `sqlite3_X_init` where X is the file
  /// name's letters, lower-cased, without a leading `lib` and from the first
  /// `.` on).
  public var entryPoint: String?

  /// The extension at `path`, initialised by `entryPoint` (nil: SQLite's
  /// default rule). Nothing is checked or loaded until an open or
  /// `loadExtension` uses it.
  public init(path: String, entryPoint: String? = nil) {
    self.path = path
    self.entryPoint = entryPoint
  }
}
