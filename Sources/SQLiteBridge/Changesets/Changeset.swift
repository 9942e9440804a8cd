import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A changeset or a patchset: what transactions changed, as the compact
/// bytes SQLite's session extension writes (the C++ `sqlitebridge::Changeset`).
///
/// A ``DatabaseSession`` makes one; ``Database/apply(_:tables:onConflict:)``
/// applies it. It is a value: store or send ``data`` and make it again with
/// ``init(data:)`` elsewhere. Two changesets are equal when their bytes are.
/// A patchset (``DatabaseSession/patchset()``) leaves out the old values of
/// updates and deletes: smaller, but it cannot be inverted.
///
/// Every throwing call throws `DatabaseError` with `.error`, the message
/// naming the session extension, where this process's SQLite was built
/// without it (see ``isAvailable``).
public struct Changeset: Sendable, Hashable {
  /// The bytes, as SQLite reads them (what ``init(data:)`` takes back).
  public let data: Data
  /// Whether this is a patchset (no old values; cannot be inverted).
  public let isPatchset: Bool

  /// Whether this process's SQLite has the session extension (built with
  /// SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK, as Debian's
  /// is). Without it every changeset call throws `.error` naming the
  /// extension. Never fails.
  public static var isAvailable: Bool { sqlitebridge.sessionExtensionAvailable() }

  /// The changeset (or patchset) `data` holds, checked before SQLite reads
  /// it: every record read, every length inside the bytes, every table of
  /// one sort. Empty `data` is the empty changeset.
  ///
  /// - Throws: `DatabaseError` with `.corrupt` naming the offending record
  ///   when `data` is not a changeset; `.error` without the session
  ///   extension; `.tooBig` beyond SQLite's 2 GiB.
  public init(data: Data) throws {
    var parsed = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    let made = data.withUnsafeBytes { sqlitebridge.Changeset.fromBytes($0.baseAddress, $0.count, &parsed, &error) }
    guard made else { throw DatabaseError(error) }
    self.init(parsed)
  }

  /// A copy of the core's changeset (its bytes, parsed or written by
  /// SQLite).
  init(_ changeset: borrowing sqlitebridge.Changeset) {
    let count = ChangesetInterop.byteCount(changeset)
    data = count == 0 ? Data() : Data(bytes: ChangesetInterop.bytes(changeset)!, count: count)
    isPatchset = changeset.isPatchset()
  }

  /// The core's changeset over these bytes (checked when this value was
  /// made, so not walked again).
  ///
  /// - Throws: `DatabaseError` with `.nomem` when memory runs out.
  func core() throws -> sqlitebridge.Changeset {
    var core = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    let made = data.withUnsafeBytes { ChangesetInterop.parsed($0.baseAddress, $0.count, isPatchset, &core, &error) }
    guard made else { throw DatabaseError(error) }
    return core
  }

  /// The changeset that undoes this one: inserts become deletes, deletes
  /// inserts, and updates swap their old and new values.
  ///
  /// - Throws: `DatabaseError` with `.misuse` for a patchset (it lacks the
  ///   old values); `.error` without the session extension.
  public func inverted() throws -> Changeset {
    let core = try core()
    var out = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    guard core.inverted(&out, &error) else { throw DatabaseError(error) }
    return Changeset(out)
  }

  /// This changeset followed by `other`, as one (SQLite's changegroup:
  /// changes to the same row are merged, so applying the result is applying
  /// both in turn).
  ///
  /// - Throws: `DatabaseError` with `.error` when one is a changeset and the
  ///   other a patchset (both empty or of one sort only) and without the
  ///   session extension; `.schema` when a table's columns differ between
  ///   them.
  public func concatenated(with other: Changeset) throws -> Changeset {
    let core = try core()
    let second = try other.core()
    var out = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    guard core.concatenated(second, &out, &error) else { throw DatabaseError(error) }
    return Changeset(out)
  }

  /// The changes, in the order SQLite stores them (grouped by table).
  ///
  /// - Throws: `DatabaseError` with `.error` without the session extension,
  ///   `.nomem` when memory runs out.
  public func operations() throws -> [ChangesetOperation] {
    let core = try core()
    var list = sqlitebridge.interop.OperationList()
    var error = sqlitebridge.Error()
    guard core.operations(&list, &error) else { throw DatabaseError(error) }
    return (0..<ChangesetInterop.count(list)).map { ChangesetOperation(ChangesetInterop.operation(list, $0)!) }
  }

  /// Whether both hold the same bytes.
  public static func == (a: Changeset, b: Changeset) -> Bool { a.data == b.data }

  /// Hashes the bytes.
  public func hash(into hasher: inout Hasher) { hasher.combine(data) }
}

/// The core's changeset entry points for the facade.
typealias ChangesetInterop = sqlitebridge.interop.ChangesetInterop
