import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One entry of a hub's log: a device's transaction, as a changeset, at its
/// place in the one order every copy applies (the C++
/// `sqlitebridge::SyncEntry`).
///
/// A ``SyncHub`` stores and returns these; a ``SyncEngine`` makes the ones
/// it pushes and applies the ones it pulls. A value: two entries are equal
/// when every field is.
public struct SyncEntry: Sendable, Hashable {
  /// The entry's place in the log: 1, 2, 3, ... with no gap. Ignored by
  /// ``SyncHub/append(_:after:)``, which gives the places.
  public var position: Int64
  /// The device that committed the transaction (``SyncEngine``'s `device`).
  public var device: String
  /// The transaction's number on its device: 1, 2, 3, ... with no gap.
  public var sequence: Int64
  /// What the transaction changed in the synced tables (empty when every
  /// change it made was overruled before it reached the log).
  public var changeset: Changeset

  /// An entry with these fields. Never fails (a hub checks the fields when
  /// it appends: ``DatabaseSyncHub/append(_:after:)`` throws `.misuse` for
  /// an empty device name or a sequence below 1).
  public init(position: Int64, device: String, sequence: Int64, changeset: Changeset) {
    self.position = position
    self.device = device
    self.sequence = sequence
    self.changeset = changeset
  }

  /// A copy of the core's entry, read in place.
  init(_ entry: UnsafePointer<sqlitebridge.SyncEntry>) {
    position = entry.pointee.position
    device = String(entry.pointee.device)
    sequence = entry.pointee.sequence
    changeset = Changeset(entry.pointee.changeset)
  }

  /// The core's entry with these fields.
  ///
  /// - Throws: `DatabaseError` with `.noMemory` when memory runs out.
  func core() throws -> sqlitebridge.SyncEntry {
    var entry = sqlitebridge.SyncEntry()
    entry.position = position
    entry.device = std.string(device)
    entry.sequence = sequence
    entry.changeset = try changeset.core()
    return entry
  }
}

extension Array where Element == SyncEntry {
  /// The entries of the core's `list`, in order.
  init(_ list: sqlitebridge.interop.SyncEntryList) {
    let count = SyncInterop.count(list)
    self.init()
    reserveCapacity(count)
    for index in 0..<count { append(SyncEntry(SyncInterop.entry(list, index)!)) }
  }

  /// The core's list of these entries, in order.
  ///
  /// - Throws: `DatabaseError` with `.noMemory` when memory runs out.
  func coreList() throws -> sqlitebridge.interop.SyncEntryList {
    var list = sqlitebridge.interop.SyncEntryList()
    for entry in self {
      guard SyncInterop.add(&list, entry.position, std.string(entry.device), entry.sequence, try entry.changeset.core())
      else { throw DatabaseError(code: ResultCode.noMemory.rawValue, message: "out of memory") }
    }
    return list
  }
}

/// The core's sync entry points for the facade.
typealias SyncInterop = sqlitebridge.interop.SyncInterop
