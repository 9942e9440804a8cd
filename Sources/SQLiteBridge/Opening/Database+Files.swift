import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

extension Database {
  /// Copies this database (its `main` schema) into `destination`, replacing
  /// what it held, with SQLite's online backup API: `pagesPerStep` pages at
  /// a time (-1: all at once), calling `progress(remaining, total)` (in
  /// pages) after each step, and returning when the copy is complete. Either
  /// side may be a file or in memory. The core runs the copy
  /// (`Database::backup`); `progress` is called from it.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when either database is
  ///   closed, when `destination` is this database, or when `pagesPerStep`
  ///   is 0; SQLite's error when the destination cannot be written (`.error`
  ///   "destination database is in use" while it has a transaction open,
  ///   `.readOnly`, `.busy` past the busy timeout). A failed copy leaves the
  ///   destination as it was.
  public func backup(
    to destination: Database, pagesPerStep: Int = -1, progress: ((_ remaining: Int, _ total: Int) -> Void)? = nil
  ) throws {
    let pages = Int32(clamping: pagesPerStep)
    guard let progress else {
      guard sqlitebridge.interop.BackupAccess.backup(&core, &destination.core, pages, nil, nil) else {
        throw lastError
      }
      return
    }
    let copied = withoutActuallyEscaping(progress) { progress in
      var report = progress
      return withUnsafeMutablePointer(to: &report) { context in
        sqlitebridge.interop.BackupAccess.backup(
          &core, &destination.core, pages,
          { context, remaining, total in
            context!.assumingMemoryBound(to: ((Int, Int) -> Void).self).pointee(Int(remaining), Int(total))
            return true
          }, context)
      }
    }
    guard copied else { throw lastError }
  }

  /// The size in bytes of the database file plus its write-ahead log (the
  /// `-wal` file, when there is one); 0 for in-memory and temporary
  /// databases.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when closed, `.ioError` when the
  ///   file's size cannot be read (it was removed, say).
  public func fileSize() throws -> Int64 {
    var bytes: Int64 = 0
    guard core.fileSize(&bytes) else { throw lastError }
    return bytes
  }

  /// Removes the database called `name` in `location.documentsDirectory`
  /// (as `Database(name:…)` finds it) and its `-wal`, `-shm` and `-journal`
  /// files; never anything else, never outside the documents directory
  /// (`location.bundleDirectory` and `location.seedName` play no part: the
  /// seed is never touched). Does nothing when there is nothing to remove.
  ///
  /// Under Litestream: `litestream replicate` keeps a WAL database open, so
  /// this throws `.busy` while it runs (stop it first). Removing the file
  /// never touches the replica, which still restores the removed database.
  ///
  /// - Throws: `DatabaseError` with `.busy` while a `Database` of this
  ///   process holds it open or another process holds a lock on it (nothing
  ///   is removed); `.misuse` for a name `Database(name:…)` refuses or an
  ///   empty documents directory; `.ioError` when a file cannot be removed.
  public static func removeDatabase(name: String, location: DatabaseLocation = .default) throws {
    var error = sqlitebridge.Error()
    guard sqlitebridge.Database.removeDatabase(std.string(name), location.cxx, &error) else {
      throw DatabaseError(error)
    }
  }

  /// Removes the database file at `path` and its `-wal`, `-shm` and
  /// `-journal` files (the companions first). Does nothing when there is
  /// nothing to remove.
  ///
  /// Under Litestream: `litestream replicate` keeps a WAL database open, so
  /// this throws `.busy` while it runs (stop it first). Removing the file
  /// never touches the replica, which still restores the removed database.
  ///
  /// - Throws: `DatabaseError` with `.busy` while a `Database` of this
  ///   process holds it open or another process holds a lock on it (nothing
  ///   is removed); `.misuse` when `path` is empty, `":memory:"`, a `file:`
  ///   URI or holds NUL; `.ioError` when `path` is a directory or a file cannot
  ///   be removed.
  public static func removeDatabase(atPath path: String) throws {
    var error = sqlitebridge.Error()
    guard sqlitebridge.Database.removeDatabase(std.string(path), &error) else { throw DatabaseError(error) }
  }
}
