#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/Export.hpp"

namespace sqlitebridge {

/// How a `ClusterNode` starts.
struct ClusterNodeConfiguration {
  /// The node's Raft id. 0: the bootstrap id (1) when `join` is empty;
  /// otherwise the id this data directory was first started with, or a new
  /// one derived from `address` (kept in the data directory, so that a
  /// restart keeps its id).
  std::uint64_t id = 0;
  /// "host:port" (IPv4) the node listens on and registers with, for
  /// example "127.0.0.1:9001".
  std::string address;
  /// Where the node keeps its Raft log and snapshots (created when missing;
  /// it must be on a file system with O_DIRECT, or tmpfs). The databases
  /// themselves live in the node's memory.
  std::string dataDirectory;
  /// Members ("host:port") to join the cluster through; empty: bootstrap a
  /// new cluster (or restart one from `dataDirectory`).
  std::vector<std::string> join;
};

/// A dqlite node running in this process (dqlite 1.11, libdqlite): it
/// serves `ClusterDatabase` clients and replicates to the other members.
/// Only builds configured with `SQLITEBRIDGE_DQLITE` (CMake
/// `-DSQLITEBRIDGE_DQLITE=ON`, SwiftPM trait `Dqlite`) have one; elsewhere
/// `start` fails with SQLITE_MISUSE saying so (`isAvailable()` is false).
///
/// Threads: libdqlite runs the node on a thread of its own; `stop` and the
/// accessors may be called from any one thread at a time.
///
/// Signals: a node writes to members that may have died, so the first
/// `start` sets SIGPIPE to be ignored in the process when it has its
/// default action (which would end the process); a handler of your own is
/// left alone.
class SQLITEBRIDGE_API ClusterNode {
 public:
  /// Whether this build can run a node (it links libdqlite).
  static bool isAvailable() noexcept;
  /// Starts a node: creates `dataDirectory` when missing, listens on
  /// `address`, bootstraps a new cluster when `join` is empty (and the
  /// directory holds none), or joins through `join`: the leader adds it
  /// as a spare and assigns it the voter role (a restart of a member that
  /// is already in the configuration skips that). On failure the node is
  /// not running and `*error` (when given) says why: SQLITE_MISUSE for a
  /// build without dqlite or a bad configuration, SQLITE_CANTOPEN when the
  /// directory cannot be made or dqlite refuses to start (its message
  /// kept), the client's error when joining fails.
  static ClusterNode start(const ClusterNodeConfiguration& configuration, Error* error = nullptr) noexcept;

  /// A node that is not running.
  ClusterNode() noexcept;
  /// Takes over the other node; the moved-from one is not running.
  ClusterNode(ClusterNode&&) noexcept;
  /// Stops this node (as `stop`), then takes over the other.
  ClusterNode& operator=(ClusterNode&&) noexcept;
  ClusterNode(const ClusterNode&) = delete;
  ClusterNode& operator=(const ClusterNode&) = delete;
  /// Stops the node when it runs (as `stop`).
  ~ClusterNode();

  /// True from a successful `start` until `stop`.
  bool isRunning() const noexcept;
  /// The node's Raft id; 0 when it is not running.
  std::uint64_t id() const noexcept;
  /// The address the node listens on; empty when it is not running.
  std::string address() const;
  /// Stops the node. When it is the leader it first hands leadership over
  /// to another voter (when there is one), so that the cluster does not
  /// wait for an election. Fails (returning false, `*error` set, the node
  /// stopped all the same) when dqlite reports an error while stopping.
  bool stop(Error* error = nullptr) noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sqlitebridge
