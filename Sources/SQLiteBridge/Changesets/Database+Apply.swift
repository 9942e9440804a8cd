import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

extension Database {
  /// Applies `changeset` (or a patchset) in one transaction (a savepoint
  /// inside an open transaction): every change made, or none.
  ///
  /// `tables` names the tables to apply (SQLite's ASCII case-insensitive
  /// names; nil: all); changes to the others are skipped. Each conflict is
  /// handed to `onConflict`, on this thread, inside the apply: it must not
  /// use the database, and its answer decides (see
  /// ``ChangesetConflictResolution``); by default every conflict aborts.
  /// Observers are told of the changes as of any write. Returns the rebase
  /// data: what a ``ChangesetRebaser`` needs to rebase a changeset made
  /// beside this one (empty when no conflict was omitted or replaced).
  ///
  /// - Throws: `DatabaseError`, with nothing applied (the database file is
  ///   left byte for byte as it was): `.abort` when the handler answered
  ///   ``ChangesetConflictResolution/abort`` (the message names the table
  ///   and the conflict kind); `.misuse` when it answered
  ///   ``ChangesetConflictResolution/replace`` for a kind other than
  ///   ``ChangesetConflictKind/data`` and ``ChangesetConflictKind/conflict``
  ///   (naming the kind), or when the database is closed or inside a
  ///   read-only block; `.schema` when a table to apply is missing here or
  ///   its columns or primary key differ from the changeset's; `.error`
  ///   without the session extension; what a statement throws (`.busy`,
  ///   `.full`, ...).
  @discardableResult
  public func apply(
    _ changeset: Changeset, tables: Set<String>? = nil,
    onConflict: (ChangesetConflict) -> ChangesetConflictResolution = { _ in .abort }
  ) throws -> Data {
    let changes = try changeset.core()
    var filter = sqlitebridge.interop.StringList()
    for table in tables ?? [] { filter.push_back(std.string(table)) }
    var rebaseData = std.string()
    let applied = withoutActuallyEscaping(onConflict) { onConflict in
      ConflictHandlerContext.with(onConflict) { callback, context in
        ChangesetInterop.apply(&core, changes, tables != nil, filter, callback, context, &rebaseData)
      }
    }
    guard applied else { throw lastError }
    let count = ChangesetInterop.byteCount(rebaseData)
    return count == 0 ? Data() : Data(bytes: ChangesetInterop.bytes(rebaseData)!, count: count)
  }
}
