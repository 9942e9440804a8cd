// Changesets: what transactions changed, recorded by SQLite's session
// extension as compact bytes that can be listed, inverted, combined, sent
// elsewhere and applied with a rule for each conflict. This header holds the
// values; the recorder (`Session`), the rebaser (`ChangesetRebaser`) and
// undo/redo (`UndoHistory`) have headers of their own, included at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "Error.hpp"
#include "Export.hpp"
#include "Tracing.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// Whether this process's SQLite has the session extension (built with
/// SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK, as Debian's and
/// the engines `scripts/build-engine` makes are). Without it every call of
/// the changeset API fails with `sessionExtensionUnavailableError()`.
SQLITEBRIDGE_API bool sessionExtensionAvailable() noexcept;

/// The error every changeset call fails with where the session extension is
/// missing: SQLITE_ERROR, the message naming the module and the SQLite
/// version. Throws std::bad_alloc only when memory runs out.
SQLITEBRIDGE_API Error sessionExtensionUnavailableError();

/// One change a changeset holds: a row inserted, updated or deleted.
struct ChangesetOperation {
  /// The table, as the changeset names it.
  std::string table;
  /// What happened to the row.
  ChangeKind kind = ChangeKind::Insert;
  /// Whether the change was recorded as indirect (`Session::setIndirect`,
  /// or made by a trigger or a foreign key action).
  bool isIndirect = false;
  /// The row's values before the change, one per column, empty for an
  /// insert. A column with no value recorded (an update leaves the columns
  /// it did not change out; a patchset keeps only the key) is `nullopt`,
  /// never confused with NULL (a `Value()`).
  std::vector<std::optional<Value>> oldValues;
  /// The row's values after the change, empty for a delete; `nullopt` for
  /// a column an update did not change.
  std::vector<std::optional<Value>> newValues;
  /// Which columns make the table's primary key, one flag per column.
  std::vector<bool> primaryKey;

  /// Whether every field is equal (values compared as `Value ==` does).
  friend bool operator==(const ChangesetOperation& a, const ChangesetOperation& b) noexcept {
    return a.table == b.table && a.kind == b.kind && a.isIndirect == b.isIndirect && a.oldValues == b.oldValues &&
           a.newValues == b.newValues && a.primaryKey == b.primaryKey;
  }
  /// Whether any field differs.
  friend bool operator!=(const ChangesetOperation& a, const ChangesetOperation& b) noexcept { return !(a == b); }
};

/// Why applying a change met a conflict (SQLite's SQLITE_CHANGESET_* kinds).
enum class ChangesetConflictKind {
  /// The row to update or delete is there, but its values are not the
  /// change's old values.
  Data,
  /// The row to update or delete is not there.
  NotFound,
  /// The row to insert is there already (same primary key).
  Conflict,
  /// The change breaks a constraint (UNIQUE, CHECK, NOT NULL).
  Constraint,
  /// Once every change is made, foreign keys are broken: told once per
  /// apply, with the count, not the operation.
  ForeignKey,
};

/// A conflict met while applying a changeset, as the handler is told.
struct ChangesetConflict {
  /// Why the change could not be made as it is.
  ChangesetConflictKind kind = ChangesetConflictKind::Data;
  /// The change that met it; `nullopt` for `ForeignKey` when an apply
  /// reports one (a sync round's report gives the operation it dropped).
  std::optional<ChangesetOperation> operation;
  /// The row in the database the change conflicts with (Data and
  /// Conflict); `nullopt` for the other kinds.
  std::optional<std::vector<Value>> conflictingValues;
  /// For `ForeignKey`: how many foreign key constraints are broken; 0
  /// otherwise.
  std::int64_t foreignKeyViolations = 0;
};

/// What a conflict handler answers.
///
/// (Named for changesets: `ConflictResolution` is the INSERT OR … clause of
/// the table helpers, in the same namespace.)
enum class ChangesetConflictResolution {
  /// Skip this change (for `ForeignKey`: keep the changes, foreign keys
  /// broken, as SQLite does).
  Omit,
  /// Valid for `Data` and `Conflict` only: make the change anyway,
  /// overwriting the conflicting row. For any other kind the apply is rolled
  /// back and fails with SQLITE_MISUSE naming the kind.
  Replace,
  /// Roll every change of this apply back; it fails with SQLITE_ABORT naming
  /// the table and the kind.
  Abort,
};

/// Called for each conflict an apply meets, on the applying thread, inside
/// the apply: it must not use the database. An exception it throws counts
/// as `Abort`. Empty: every conflict aborts.
using ChangesetConflictHandler = std::function<ChangesetConflictResolution(const ChangesetConflict&)>;

/// A changeset or a patchset (a changeset without the old values of
/// updates and deletes): the bytes SQLite's session extension writes, held
/// by value. Made from bytes only after they parse; `Session` makes them,
/// `Database::apply` applies them.
///
/// A default-constructed changeset is empty (no bytes, no change). Copies
/// share nothing. Every call that can fail returns false and sets `*error`
/// (when not null), never throws, and leaves `out` unchanged.
class SQLITEBRIDGE_API Changeset {
 public:
  /// The empty changeset.
  Changeset() noexcept = default;

  /// Parses `size` bytes at `bytes` into `out`: every record read, every
  /// length inside the buffer, all tables of one sort (the first table
  /// header says whether it is a patchset). Fails with
  /// SQLITE_CORRUPT (the offending record named) on bytes that are not a
  /// changeset, and as `sessionExtensionUnavailableError()` without the
  /// session extension. Zero bytes make the empty changeset.
  static bool fromBytes(const void* bytes, std::size_t size, Changeset& out, Error* error = nullptr) noexcept;
  /// `fromBytes` of a string's bytes.
  static bool fromBytes(const std::string& bytes, Changeset& out, Error* error = nullptr) noexcept;

  /// The bytes, as SQLite reads them (what `fromBytes` takes back).
  const std::string& bytes() const noexcept { return bytes_; }
  /// Whether this is a patchset (from `Session::patchset`): no old values,
  /// cannot be inverted.
  bool isPatchset() const noexcept { return patchset_; }
  /// Whether it holds no change.
  bool isEmpty() const noexcept { return bytes_.empty(); }

  /// The changeset that undoes this one (inserts become deletes, updates
  /// swap old and new values), into `out`. Fails with SQLITE_MISUSE for a
  /// patchset (it lacks the old values), SQLITE_NOMEM when memory runs out.
  bool inverted(Changeset& out, Error* error = nullptr) const noexcept;
  /// This changeset followed by `other`, as one (SQLite's changegroup:
  /// changes to the same row merged), into `out`. Both must be changesets
  /// or both patchsets (SQLITE_ERROR otherwise); a table whose columns
  /// differ between them fails with SQLITE_SCHEMA.
  bool concatenated(const Changeset& other, Changeset& out, Error* error = nullptr) const noexcept;
  /// The changes, in order, into `out`. Fails only without the session
  /// extension or when memory runs out (the bytes parsed when made).
  bool operations(std::vector<ChangesetOperation>& out, Error* error = nullptr) const noexcept;

  /// Whether both hold the same bytes.
  friend bool operator==(const Changeset& a, const Changeset& b) noexcept { return a.bytes_ == b.bytes_; }
  /// Whether their bytes differ.
  friend bool operator!=(const Changeset& a, const Changeset& b) noexcept { return a.bytes_ != b.bytes_; }

 private:
  friend struct ChangesetAccess;
  std::string bytes_;
  bool patchset_ = false;
};

}  // namespace sqlitebridge

#include "ChangesetRebaser.hpp"
#include "Session.hpp"
#include "UndoHistory.hpp"
