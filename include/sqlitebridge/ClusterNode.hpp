// Deprecated path, kept for one release: the cluster client is its own
// library now (CMake SQLiteBridge::Cluster, pkg-config sqlitebridge-cluster,
// SwiftPM SQLiteBridgeClusterCore), and its headers live in
// <sqlitebridge/cluster/>. This header only forwards there; include
// <sqlitebridge/cluster/ClusterNode.hpp> instead. It goes away in the next release.
#pragma once

#include "sqlitebridge/cluster/ClusterNode.hpp"
