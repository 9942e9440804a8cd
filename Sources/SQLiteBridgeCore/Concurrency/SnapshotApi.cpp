#include "SnapshotApi.hpp"

#if !defined(SQLITEBRIDGE_CURRENT_SQLITE) && !defined(SQLITEBRIDGE_CURRENT_SQLCIPHER)
#include <dlfcn.h>
#endif

#include "ConnectionPool.hpp"
#include "sqlitebridge/DatabaseSnapshot.hpp"

namespace sqlitebridge {

namespace detail {

namespace {

#if defined(SQLITEBRIDGE_CURRENT_SQLITE) || defined(SQLITEBRIDGE_CURRENT_SQLCIPHER)

// scripts/build-engine builds both engines with SQLITE_ENABLE_SNAPSHOT.
const SnapshotApi* findSnapshotApi() noexcept {
  static const SnapshotApi api{sqlite3_snapshot_get, sqlite3_snapshot_open, sqlite3_snapshot_free,
                               sqlite3_snapshot_cmp};
  return &api;
}

#else

// Looked up by name: a direct call would not link against an SQLite whose
// library lacks the functions, although its header declares them.
template <typename Function>
Function lookUp(const char* name) noexcept {
  return reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
}

const SnapshotApi* findSnapshotApi() noexcept {
  static const SnapshotApi api{
      lookUp<int (*)(sqlite3*, const char*, sqlite3_snapshot**)>("sqlite3_snapshot_get"),
      lookUp<int (*)(sqlite3*, const char*, sqlite3_snapshot*)>("sqlite3_snapshot_open"),
      lookUp<void (*)(sqlite3_snapshot*)>("sqlite3_snapshot_free"),
      lookUp<int (*)(sqlite3_snapshot*, sqlite3_snapshot*)>("sqlite3_snapshot_cmp"),
  };
  const bool complete = api.get != nullptr && api.open != nullptr && api.free != nullptr && api.cmp != nullptr;
  return complete ? &api : nullptr;
}

#endif

}  // namespace

const SnapshotApi* snapshotApi() noexcept {
  static const SnapshotApi* const api = findSnapshotApi();
  return api;
}

Error snapshotsUnavailableError() noexcept {
  try {
    return poolError(SQLITE_ERROR, std::string("database snapshots need SQLite built with SQLITE_ENABLE_SNAPSHOT, and "
                                               "this build runs on SQLite ") +
                                       sqlite3_libversion() + ", which has no sqlite3_snapshot_get");
  } catch (...) {
    return poolError(SQLITE_ERROR, std::string());
  }
}

}  // namespace detail

bool snapshotsAvailable() noexcept { return detail::snapshotApi() != nullptr; }

}  // namespace sqlitebridge
