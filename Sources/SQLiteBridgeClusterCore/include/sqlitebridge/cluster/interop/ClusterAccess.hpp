// For the Swift facade only; no stability promise. The cluster client
// (`ClusterDatabase`) and node (`ClusterNode`) as the Swift facade calls
// them; the row and value lists their calls fill are the core's
// (interop/RowListAccess.hpp). Swift imports it with the explicit submodule
// SQLiteBridgeClusterCore.Interop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sqlitebridge/cluster/ClusterDatabase.hpp"
#include "sqlitebridge/cluster/ClusterNode.hpp"
#include "sqlitebridge/cluster/ClusterSyncHub.hpp"
#include "sqlitebridge/interop/Sync.hpp"
#include "sqlitebridge/interop/RowListAccess.hpp"

namespace sqlitebridge::interop {

/// The members of a cluster, named so that Swift can make the list
/// `ClusterDatabase::members` fills.
using ClusterMemberList = std::vector<ClusterMember>;

/// `ClusterDatabase` and `ClusterNode` for the Swift facade: every rule
/// (the retry rules, refusals, guards, conversions, the wording of errors)
/// is theirs; these entry points only give Swift the shapes it can call, and
/// each is `noexcept` (the members that are not report memory running out
/// as SQLITE_NOMEM instead of throwing).
struct SQLITEBRIDGE_API ClusterAccess {
  /// A write block's body as Swift gives it: true to commit, false (the
  /// Swift error kept by the caller) to roll back.
  using WriteBody = bool (*)(void* context);

  /// `database.execute(sql, arguments, &rows)`: same failures, reported in
  /// `lastError`.
  static bool execute(ClusterDatabase& database, const std::string& sql, const ValueList& arguments,
                      RowList& rows) noexcept;
  /// `database.runWriteBlock` calling `body(context)` as the block (which
  /// may run more than once, as `ClusterDatabase::write` says). True when
  /// COMMIT succeeded; otherwise false with `error` saying why.
  static bool write(ClusterDatabase& database, WriteBody body, void* context, Error& error) noexcept;
  /// `database.lastError()`; SQLITE_NOMEM (without a message) when it
  /// cannot be copied.
  static Error lastError(const ClusterDatabase& database) noexcept;
  /// `database.leaderAddress()`; empty when not connected (or when memory
  /// runs out).
  static std::string leaderAddress(const ClusterDatabase& database) noexcept;
  /// Sets `names` to `database.lastColumnNames()`; false (`names` empty)
  /// only when memory runs out.
  static bool lastColumnNames(const ClusterDatabase& database, StringList& names) noexcept;
  /// `node.address()`; empty when not running (or when memory runs out).
  static std::string nodeAddress(const ClusterNode& node) noexcept;
  /// A `ClusterSyncHub` taking `database`'s connection (the client is then
  /// closed) for the log `table`; a null hub, with `error` set (its
  /// `error()`, or SQLITE_NOMEM), when it is not usable.
  static SyncHubHandle makeSyncHub(ClusterDatabase& database, const std::string& table, Error& error) noexcept;
};
}  // namespace sqlitebridge::interop
