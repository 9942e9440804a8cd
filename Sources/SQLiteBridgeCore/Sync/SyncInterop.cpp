// interop::SyncInterop: the sync API as the Swift facade calls it (a hub
// handle, entry lists by index, engines made from queues and pools Swift
// holds as constants, a C conflict callback). Only carries Swift's
// arguments to the core's own calls.
#include "sqlitebridge/interop/Sync.hpp"

#include <new>
#include <utility>

#include "SessionAPI.hpp"

namespace sqlitebridge::interop {

namespace {

// The Swift box of a conflict policy, released once with the last copy of
// the handler.
struct PolicyBox {
  SyncInterop::ConflictCallback callback = nullptr;
  SwiftBox box = nullptr;
  ReleaseBox release = nullptr;
  ~PolicyBox() {
    if (release != nullptr) release(box);
  }
};

// The policy calling `onConflict(box, …)`, or `hubOrderWins` for a null
// callback. `release(box)` runs exactly once either way (now, when nothing
// holds the box, or when memory runs out).
SyncConflictPolicy policyOf(SyncInterop::ConflictCallback onConflict, SwiftBox box, ReleaseBox release) noexcept {
  if (onConflict == nullptr) {
    if (release != nullptr) release(box);
    return SyncConflictPolicy::hubOrderWins();
  }
  std::shared_ptr<PolicyBox> held;
  try {
    held = std::make_shared<PolicyBox>();
  } catch (const std::bad_alloc&) {
    if (release != nullptr) release(box);
    // Every conflict then aborts: the round fails, the copy untouched.
    return SyncConflictPolicy::custom(
        [](const ChangesetConflict&, bool) { return ChangesetConflictResolution::Abort; });
  }
  held->callback = onConflict;
  held->box = box;
  held->release = release;
  return SyncConflictPolicy::custom([held](const ChangesetConflict& conflict, bool isLocal) {
    return held->callback(held->box, &conflict, isLocal);
  });
}

// `SyncEngine(writer, …)` for the queue or pool Swift holds as a constant:
// the engine records on the writer's connection but never changes the
// queue or pool object itself (as UndoHistory's interop explains).
template <typename Writer>
SyncEngine makeEngineOn(const Writer& writer, const StringList& tables, const std::string& device,
                        SyncInterop::ConflictCallback onConflict, SwiftBox box, ReleaseBox release) noexcept {
  Writer& target = const_cast<Writer&>(writer);
  return SyncEngine(target, tables, device, nullptr, policyOf(onConflict, box, release));
}

}  // namespace

namespace {

// What a call on a handle without a hub fails with.
bool noHub(Error& error) noexcept { return changesetFailure(&error, SQLITE_MISUSE, "the hub could not be made"); }

}  // namespace

SyncHubHandle SyncInterop::openHub(const std::string& path, Error& error) noexcept {
  SyncHubHandle handle;
  try {
    auto hub = std::make_shared<DatabaseSyncHub>(path);
    error = hub->error();
    if (!error.isError()) handle.hub = std::move(hub);
  } catch (const std::bad_alloc&) {
    changesetFailure(&error, SQLITE_NOMEM, "out of memory");
  }
  return handle;
}

bool SyncInterop::append(const SyncHubHandle& handle, const SyncEntryList& entries, std::int64_t after, bool& appended,
                         Error& error) noexcept {
  return handle.hub ? handle.hub->append(entries, after, appended, &error) : noHub(error);
}

bool SyncInterop::entries(const SyncHubHandle& handle, std::int64_t after, std::size_t limit, SyncEntryList& out,
                          Error& error) noexcept {
  return handle.hub ? handle.hub->entries(after, limit, out, &error) : noHub(error);
}

bool SyncInterop::lastPosition(const SyncHubHandle& handle, std::int64_t& position, Error& error) noexcept {
  return handle.hub ? handle.hub->lastPosition(position, &error) : noHub(error);
}

ChangesetConflictResolution SyncInterop::hubOrderWinsResolution(ChangesetConflictKind kind, bool isLocal) noexcept {
  ChangesetConflict conflict;
  conflict.kind = kind;
  return SyncConflictPolicy::hubOrderWinsResolution(conflict, isLocal);
}

bool SyncInterop::add(SyncEntryList& list, std::int64_t position, const std::string& device, std::int64_t sequence,
                      const Changeset& changeset) noexcept {
  try {
    SyncEntry entry;
    entry.position = position;
    entry.device = device;
    entry.sequence = sequence;
    entry.changeset = changeset;
    list.push_back(std::move(entry));
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

SyncEngine SyncInterop::makeEngine(const DatabaseQueue& queue, const StringList& tables, const std::string& device,
                                   ConflictCallback onConflict, SwiftBox box, ReleaseBox release) noexcept {
  return makeEngineOn(queue, tables, device, onConflict, box, release);
}

SyncEngine SyncInterop::makeEngine(const DatabasePool& pool, const StringList& tables, const std::string& device,
                                   ConflictCallback onConflict, SwiftBox box, ReleaseBox release) noexcept {
  return makeEngineOn(pool, tables, device, onConflict, box, release);
}

bool SyncInterop::pendingCount(const SyncEngine& engine, std::int64_t& count, Error& error) noexcept {
  return engine.pendingCount(count, &error);
}

bool SyncInterop::recordExistingRows(const SyncEngine& engine, std::int64_t& rows, Error& error) noexcept {
  // Recording changes the engine's database, never the engine object.
  return const_cast<SyncEngine&>(engine).recordExistingRows(rows, &error);
}

SyncRound SyncInterop::startRound(const SyncEngine& engine) noexcept {
  // The round changes the engine's shared state (its round flag), never
  // the engine object.
  return SyncRound(const_cast<SyncEngine&>(engine));
}

}  // namespace sqlitebridge::interop
