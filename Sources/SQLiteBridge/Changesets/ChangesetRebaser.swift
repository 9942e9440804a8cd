import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Rewrites changesets made before some remote changes were applied so that
/// they apply after them (SQLite's `sqlite3_rebaser`; the C++
/// `sqlitebridge::ChangesetRebaser`).
///
/// ``Database/apply(_:tables:onConflict:)`` returns rebase data (how it
/// resolved each conflict by omitting or replacing);
/// ``configure(with:)`` takes it, and ``rebase(_:)`` rewrites a local
/// changeset accordingly: a local change the remote one replaced keeps the
/// remote values where the remote change set them, ... so that the remote
/// winners stay winners on both sides.
///
/// A value: copies are independent. `@unchecked Sendable`: it holds only the
/// core's rebaser, a list of byte strings that a copy duplicates and that
/// ``rebase(_:)`` only reads.
public struct ChangesetRebaser: @unchecked Sendable {
  private var core = sqlitebridge.ChangesetRebaser()

  /// A rebaser configured with nothing: ``rebase(_:)`` returns changesets
  /// unchanged. Never fails.
  public init() {}

  /// Adds the rebase data one apply returned.
  ///
  /// - Throws: `DatabaseError` with `.corrupt` for bytes that are not
  ///   rebase data (nothing added); `.error` without the session extension.
  public mutating func configure(with rebaseData: Data) throws {
    var error = sqlitebridge.Error()
    let configured = rebaseData.withUnsafeBytes {
      ChangesetInterop.configure(&core, $0.baseAddress, $0.count, &error)
    }
    guard configured else { throw DatabaseError(error) }
  }

  /// `changeset` rebased on every apply configured so far (unchanged when
  /// nothing was).
  ///
  /// - Throws: `DatabaseError` with `.misuse` for a patchset (it cannot be
  ///   rebased); `.error` without the session extension.
  public func rebase(_ changeset: Changeset) throws -> Changeset {
    let changes = try changeset.core()
    var out = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    guard core.rebase(changes, &out, &error) else { throw DatabaseError(error) }
    return Changeset(out)
  }
}
