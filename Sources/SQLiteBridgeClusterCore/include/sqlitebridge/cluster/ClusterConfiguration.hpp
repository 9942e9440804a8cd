#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sqlitebridge/Export.hpp"

namespace sqlitebridge {

/// What a member of a dqlite cluster does: a `Voter` takes part in
/// elections and in every commit's quorum, a `StandBy` keeps a copy of the
/// log without voting (ready to be promoted), a `Spare` only belongs to the
/// configuration.
enum class ClusterRole { Voter, StandBy, Spare };

/// One member of a dqlite cluster, as the cluster's configuration lists it.
struct ClusterMember {
  /// The member's Raft id (never 0 for a real member).
  std::uint64_t id = 0;
  /// "host:port" the member registered with; clients and the other members
  /// reach it there.
  std::string address;
  /// What the member does in the cluster.
  ClusterRole role = ClusterRole::Voter;
};

/// How a `ClusterDatabase` finds and talks to a cluster.
struct ClusterConfiguration {
  /// "host:port" of any members of the cluster, spelled as they registered
  /// (the client asks them who leads, then follows the leader they name).
  /// IPv6 hosts are written in brackets: "[::1]:9001".
  std::vector<std::string> servers;
  /// How long one attempt to connect to one member may take.
  int connectTimeoutMilliseconds = 5000;
  /// How long the client looks for a leader (after a leader change or a
  /// broken connection) before the call fails; also how long a request may
  /// wait for its answer.
  int retryTimeoutMilliseconds = 30000;
};

/// The dqlite protocol's name of a role: "voter", "stand-by", "spare".
SQLITEBRIDGE_API const char* describe(ClusterRole role) noexcept;

}  // namespace sqlitebridge
