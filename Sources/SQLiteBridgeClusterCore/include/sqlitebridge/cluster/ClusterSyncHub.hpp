// A sync hub on a dqlite cluster: the log as a table of a replicated
// database, strongly consistent, surviving the loss of a minority of the
// cluster's nodes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/Export.hpp"
#include "sqlitebridge/Sync.hpp"
#include "sqlitebridge/cluster/ClusterDatabase.hpp"

namespace sqlitebridge {

/// A `SyncHub` whose log is a table (`sync_log` unless named otherwise) of
/// a database on a dqlite cluster, made when missing, with the rows of
/// `DatabaseSyncHub`'s: position, device, sequence, changeset; (device,
/// sequence) unique.
///
///     ClusterConfiguration configuration;
///     configuration.servers = {"127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"};
///     auto hub = std::make_shared<ClusterSyncHub>(ClusterDatabase::open("notes-hub", configuration));
///     if (hub->error().isError()) std::cerr << hub->error().message << "\n";
///
/// An append is one write block on the leader: the last position read, the
/// entries checked and inserted, committed together (Raft replicates the
/// commit). An append whose COMMIT's outcome is unknown (the leader lost
/// while committing) fails with SQLITE_IOERR_LEADERSHIP_LOST, "outcome in
/// doubt"; the engine then pulls before it pushes again: the entries are
/// either in the log (acknowledged then) or not (pushed again), never
/// twice. Reads follow the leader as `ClusterDatabase` does.
///
/// Takes ownership of the client and serializes its use: thread-safe. Not
/// copyable or movable (engines share it through a `std::shared_ptr`).
class SQLITEBRIDGE_API ClusterSyncHub final : public SyncHub {
 public:
  /// Uses `database` (open) for the log `table`, made when missing.
  /// `error()` tells how it went: the client's open error, SQLITE_MISUSE
  /// for an empty table name, SQLITE_ERROR when the table has other
  /// columns, the cluster's failure when it could not be made.
  explicit ClusterSyncHub(ClusterDatabase database, const std::string& table = "sync_log") noexcept;
  ClusterSyncHub(const ClusterSyncHub&) = delete;
  ClusterSyncHub& operator=(const ClusterSyncHub&) = delete;
  /// Closes the client.
  ~ClusterSyncHub() override;

  /// Why the hub is not usable; code 0 when it is.
  Error error() const noexcept;
  /// See `SyncHub::append`. Also fails with SQLITE_MISUSE for an entry
  /// with an empty device name or a sequence below 1, and with the
  /// cluster's errors (SQLITE_IOERR_LEADERSHIP_LOST: in doubt).
  bool append(const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
              Error* error = nullptr) noexcept override;
  /// See `SyncHub::entries`.
  bool entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out,
               Error* error = nullptr) noexcept override;
  /// The log's last position (0 when empty), into `position`.
  bool lastPosition(std::int64_t& position, Error* error = nullptr) noexcept override;

 private:
  mutable std::mutex mutex_;
  ClusterDatabase database_;
  std::string table_;
  Error openError_;
};

}  // namespace sqlitebridge
