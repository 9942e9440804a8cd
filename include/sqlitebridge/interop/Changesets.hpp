// For the Swift facade only; no stability promise. Changesets as Swift
// drives them: a Swift `Changeset` (bytes) back to the core's, the parts of a
// `ChangesetOperation` and a `ChangesetConflict` Swift cannot read itself
// (`std::vector<bool>`, optional values), `Database::apply` and an
// `UndoHistory`'s undo and redo with a C conflict callback, and an
// `UndoHistory` made from a queue or pool Swift holds as a constant. Never
// included by <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the
// explicit submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Changesets/ChangesetInterop.cpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// A changeset's operations, named so that Swift can make one
/// (`Changeset::operations` fills it).
using OperationList = std::vector<ChangesetOperation>;

/// The changeset API with C callbacks and by-index accessors. Every rule
/// (which answers are valid, the error wording, the table checks, what undo
/// and redo refuse) is the core's: these only carry Swift's arguments to it.
struct SQLITEBRIDGE_API ChangesetInterop {
  /// The conflict handler: `box` is the facade's (never read by the core),
  /// `conflict` the core's, for the call only. Called on the applying
  /// thread, inside the apply; it must not use the database.
  using ConflictCallback = ChangesetConflictResolution (*)(SwiftBox box, const ChangesetConflict* conflict);

  // MARK: Changeset values

  /// Sets `out` to the changeset a Swift `Changeset` holds: `size` bytes at
  /// `bytes`, parsed by `Changeset::fromBytes` when the Swift value was made
  /// (or written by SQLite), so not walked again; `patchset` as that parse
  /// said. False with SQLITE_NOMEM in `error` only when memory runs out.
  static bool parsed(const void* bytes, std::size_t size, bool patchset, Changeset& out, Error& error) noexcept;
  /// The first byte of `changeset` (null when it is empty); valid while
  /// `changeset` is neither changed nor destroyed.
  static const void* bytes(const Changeset& changeset) noexcept;
  /// How many bytes `changeset` holds.
  static std::size_t byteCount(const Changeset& changeset) noexcept { return changeset.bytes().size(); }
  /// The first byte of `bytes` (rebase data), valid while it is neither
  /// changed nor destroyed.
  static const void* bytes(const std::string& bytes) noexcept { return bytes.data(); }
  /// How many bytes `bytes` holds.
  static std::size_t byteCount(const std::string& bytes) noexcept { return bytes.size(); }

  // MARK: Operations

  /// How many operations `operations` holds.
  static std::size_t count(const OperationList& operations) noexcept { return operations.size(); }
  /// Operation `index` (below `count`), read in place.
  static const ChangesetOperation* operation(const OperationList& operations, std::size_t index) noexcept {
    return &operations[index];
  }
  /// How many columns `operation`'s table has (its primary key flags).
  static std::size_t columnCount(const ChangesetOperation* operation) noexcept { return operation->primaryKey.size(); }
  /// Whether column `index` (below `columnCount`) is part of the primary key.
  static bool isPrimaryKey(const ChangesetOperation* operation, std::size_t index) noexcept {
    return operation->primaryKey[index];
  }
  /// How many old values `operation` lists (0 for an insert).
  static std::size_t oldValueCount(const ChangesetOperation* operation) noexcept { return operation->oldValues.size(); }
  /// How many new values `operation` lists (0 for a delete).
  static std::size_t newValueCount(const ChangesetOperation* operation) noexcept { return operation->newValues.size(); }
  /// Whether old value `index` (below `oldValueCount`) is recorded (false:
  /// not present, never NULL).
  static bool hasOldValue(const ChangesetOperation* operation, std::size_t index) noexcept {
    return operation->oldValues[index].has_value();
  }
  /// Old value `index`, which `hasOldValue`, read in place.
  static ColumnView oldValue(const ChangesetOperation* operation, std::size_t index) noexcept {
    return operation->oldValues[index]->view();
  }
  /// Whether new value `index` (below `newValueCount`) is recorded.
  static bool hasNewValue(const ChangesetOperation* operation, std::size_t index) noexcept {
    return operation->newValues[index].has_value();
  }
  /// New value `index`, which `hasNewValue`, read in place.
  static ColumnView newValue(const ChangesetOperation* operation, std::size_t index) noexcept {
    return operation->newValues[index]->view();
  }

  // MARK: Conflicts

  /// The operation that met `conflict`; null for a foreign key conflict.
  static const ChangesetOperation* conflictOperation(const ChangesetConflict* conflict) noexcept {
    return conflict->operation ? &*conflict->operation : nullptr;
  }
  /// Whether `conflict` carries the database's conflicting row (data
  /// conflicts and conflicts).
  static bool hasConflictingValues(const ChangesetConflict* conflict) noexcept {
    return conflict->conflictingValues.has_value();
  }
  /// How many values the conflicting row holds (0 when there is none).
  static std::size_t conflictingValueCount(const ChangesetConflict* conflict) noexcept {
    return conflict->conflictingValues ? conflict->conflictingValues->size() : 0;
  }
  /// Value `index` (below `conflictingValueCount`) of the conflicting row,
  /// read in place.
  static ColumnView conflictingValue(const ChangesetConflict* conflict, std::size_t index) noexcept {
    return (*conflict->conflictingValues)[index].view();
  }

  // MARK: Applying

  /// `Database::apply(changeset, tables, onConflict, &rebaseData)`, the
  /// table filter `tables` when `filtered` (all tables otherwise), each
  /// conflict handed to `onConflict(box, …)` (null: every conflict aborts).
  /// Fails as `apply` does, the error in `database.lastError()`; SQLITE_NOMEM
  /// there when the arguments cannot be copied.
  static bool apply(Database& database, const Changeset& changeset, bool filtered, const StringList& tables,
                    ConflictCallback onConflict, SwiftBox box, std::string& rebaseData) noexcept;

  // MARK: Rebasing

  /// `rebaser.configure` with the `size` bytes at `bytes` (rebase data
  /// `apply` returned); fails as it does, and with SQLITE_NOMEM when the
  /// bytes cannot be copied.
  static bool configure(ChangesetRebaser& rebaser, const void* bytes, std::size_t size, Error& error) noexcept;

  // MARK: Undo history

  /// `UndoHistory(queue, tables, depth)`, all tables with a primary key when
  /// not `filtered`. The history only records on the queue's writer: the
  /// queue itself is not changed. Its `error()` says how it started (when
  /// the arguments cannot be copied: a history without state, whose
  /// `error()` says it could not be made).
  static UndoHistory makeHistory(const DatabaseQueue& queue, bool filtered, const StringList& tables,
                                 std::size_t depth) noexcept;
  /// The same over the writer of `pool`.
  static UndoHistory makeHistory(const DatabasePool& pool, bool filtered, const StringList& tables,
                                 std::size_t depth) noexcept;
  /// `history.undo(&error, handler)` (`redo` when `redo`), each conflict
  /// handed to `onConflict(box, …)` (null: every conflict refuses the
  /// step). True when a step moved; false with `error` clear when there was
  /// none; false with `error` set when it failed (SQLITE_NOMEM when the
  /// handler cannot be made).
  static bool move(const UndoHistory& history, bool redo, ConflictCallback onConflict, SwiftBox box,
                   Error& error) noexcept;
};

}  // namespace sqlitebridge::interop
