import CxxStdlib
import SQLiteBridgeCore

extension Database {
  /// Creates the FTS5 table `name` with `columns`, `tokenizer` and `content`
  /// (`CREATE VIRTUAL TABLE "name" USING fts5(…)`); search it with MATCH and
  /// an ``FTS5Pattern``. With `.external` content it also creates the
  /// triggers `<name>_ai`, `<name>_ad` and `<name>_au` that keep the index
  /// in step with the content table, and indexes the rows it already holds,
  /// all in one savepoint: on failure nothing is left.
  ///
  /// - Throws: `DatabaseError` with `.error` naming the missing fts5 module
  ///   when this SQLite was built without FTS5 (no SQLITE_ENABLE_FTS5);
  ///   `.misuse` for no columns or a name holding NUL; SQLite's error
  ///   otherwise (the table exists, a reserved column name such as "rank",
  ///   a tokenizer this SQLite lacks, a content table without one of the
  ///   columns).
  public func createFTS5Table(
    named name: String, columns: [String], tokenizer: FTS5Tokenizer = .unicode61(), content: FTS5Content = .own
  ) throws {
    var options = sqlitebridge.FTS5TableOptions()
    options.tokenizer = tokenizer.cxx()
    switch content {
    case .own:
      options.content = .Own
    case .contentless:
      options.content = .Contentless
    case .external(let table, let rowID):
      options.content = .External
      options.contentTable = std.string(table)
      options.contentRowID = std.string(rowID)
    }
    guard core.createFTS5Table(std.string(name), Database.stringList(columns), options) else { throw lastError }
  }

  /// Rebuilds FTS5 table `name`'s index from its content (FTS5's 'rebuild').
  ///
  /// - Throws: `DatabaseError`: `.error` naming the missing fts5 module, or
  ///   SQLite's error (no such table; a contentless table cannot be rebuilt).
  public func rebuildFTS5Table(named name: String) throws {
    guard core.rebuildFTS5Table(std.string(name)) else { throw lastError }
  }

  /// Merges FTS5 table `name`'s index into one b-tree (FTS5's 'optimize'),
  /// for faster queries after many writes.
  ///
  /// - Throws: `DatabaseError`, as ``rebuildFTS5Table(named:)``.
  public func optimizeFTS5Table(named name: String) throws {
    guard core.optimizeFTS5Table(std.string(name)) else { throw lastError }
  }
}
