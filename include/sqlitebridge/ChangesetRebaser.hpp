// Rebasing: rewriting a local changeset so that it applies on top of
// changes applied before it (SQLite's sqlite3_rebaser).
#pragma once

#include <string>
#include <vector>

#include "Changeset.hpp"
#include "Error.hpp"
#include "Export.hpp"

namespace sqlitebridge {

/// Rewrites changesets made before some remote changes were applied so
/// that they apply after them: `Database::apply` returns rebase data (how
/// it resolved each conflict with OMIT or REPLACE), `configure` takes it,
/// `rebase` rewrites a local changeset accordingly (a local change the
/// remote one replaced loses the columns the remote change set, ...). A
/// value: copies are independent. Fails as `sessionExtensionUnavailableError()`
/// where SQLite lacks the extension; each failing call returns false, sets
/// `*error` (when not null) and changes nothing.
class SQLITEBRIDGE_API ChangesetRebaser {
 public:
  ChangesetRebaser() noexcept = default;
  /// Adds the rebase data one apply returned. Fails with SQLITE_CORRUPT for
  /// bytes that are not rebase data (nothing added).
  bool configure(const std::string& rebaseData, Error* error = nullptr) noexcept;
  /// `changeset` rebased on every apply configured so far, into `out`
  /// (unchanged when nothing was configured). A patchset cannot be
  /// rebased (SQLITE_MISUSE).
  bool rebase(const Changeset& changeset, Changeset& out, Error* error = nullptr) const noexcept;

 private:
  std::vector<std::string> rebaseData_;
};

}  // namespace sqlitebridge
