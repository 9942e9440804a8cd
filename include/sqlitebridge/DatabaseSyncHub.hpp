// A sync hub in a SQLite file: the log as a table, for devices on one
// machine (processes, simulators, tests) or a shared file system.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "Error.hpp"
#include "Export.hpp"
#include "Sync.hpp"

namespace sqlitebridge {

class DatabaseQueue;

/// A `SyncHub` whose log is the table `sync_log` of a SQLite file
/// (made when missing): `position INTEGER PRIMARY KEY, device, sequence,
/// changeset`, with (device, sequence) unique. Appends run in one
/// IMMEDIATE transaction, so processes sharing the file append one at a
/// time (waiting up to the busy timeout, 5 s).
///
///     auto hub = std::make_shared<DatabaseSyncHub>("/path/hub.sqlite");
///     if (hub->error().isError()) std::cerr << hub->error().message << "\n";
///
/// Thread-safe (its own `DatabaseQueue`). Not copyable or movable (engines
/// share it through a `std::shared_ptr`).
class SQLITEBRIDGE_API DatabaseSyncHub final : public SyncHub {
 public:
  /// Opens (or creates) the hub at `path`. `error()` tells how it went:
  /// the file's open error, SQLITE_ERROR when the file holds a `sync_log`
  /// table of another shape.
  explicit DatabaseSyncHub(const std::string& path) noexcept;
  DatabaseSyncHub(const DatabaseSyncHub&) = delete;
  DatabaseSyncHub& operator=(const DatabaseSyncHub&) = delete;
  /// Closes the file.
  ~DatabaseSyncHub() override;

  /// Why the hub did not open; code 0 when it did.
  Error error() const noexcept;
  /// See `SyncHub::append`. Also fails with SQLITE_MISUSE for an entry
  /// with an empty device name or a sequence below 1.
  bool append(const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
              Error* error = nullptr) noexcept override;
  /// See `SyncHub::entries`.
  bool entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out,
               Error* error = nullptr) noexcept override;
  /// The log's last position (0 when empty), into `position`.
  bool lastPosition(std::int64_t& position, Error* error = nullptr) noexcept override;

 private:
  std::unique_ptr<DatabaseQueue> queue_;
  Error openError_;
};

}  // namespace sqlitebridge
