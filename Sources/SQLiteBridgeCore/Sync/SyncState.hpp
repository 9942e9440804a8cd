// What a SyncEngine, its rounds and its recorder share. Internal.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "SyncRecorder.hpp"
#include "sqlitebridge/Sync.hpp"

namespace sqlitebridge {

class ConnectionPool;

struct SyncState {
  ConnectionPool* pool = nullptr;
  std::vector<std::string> tables;
  std::string device;
  std::shared_ptr<SyncHub> hub;
  SyncConflictPolicy policy;
  Error startError;
  std::shared_ptr<SyncRecorder> recorder;
  /// Whether a round runs (one at a time).
  std::atomic<bool> roundRunning{false};
  /// `SyncEngine::sync` callers wait here for each other's rounds.
  std::mutex syncMutex;
};

/// The engine's state, for its rounds (null for a moved-from engine).
struct SyncAccess {
  static std::shared_ptr<SyncState> state(SyncEngine& engine) noexcept { return engine.state_; }
};

}  // namespace sqlitebridge
