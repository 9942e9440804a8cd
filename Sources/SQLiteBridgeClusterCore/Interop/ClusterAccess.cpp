// interop::ClusterAccess: the cluster client and node as the Swift facade
// calls them. Each entry point is noexcept; what the core's members could
// throw (copies of strings, the write block's rethrow) stops here.
#include "sqlitebridge/cluster/interop/ClusterAccess.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge::interop {

namespace {

Error outOfMemory() noexcept {
  Error error;
  error.code = SQLITE_NOMEM;
  error.extendedCode = SQLITE_NOMEM;
  return error;
}

/// What the core's block calls: the Swift body and its context.
struct WriteThunk {
  ClusterAccess::WriteBody body;
  void* context;
};

}  // namespace

bool ClusterAccess::execute(ClusterDatabase& database, const std::string& sql, const ValueList& arguments,
                            RowList& rows) noexcept {
  return database.execute(sql, arguments, &rows);
}

bool ClusterAccess::write(ClusterDatabase& database, WriteBody body, void* context, Error& error) noexcept {
  WriteThunk thunk{body, context};
  try {
    return database.runWriteBlock(
        [](void* thunkContext, ClusterDatabase&) -> bool {
          const WriteThunk& called = *static_cast<const WriteThunk*>(thunkContext);
          return called.body(called.context);
        },
        &thunk, &error);
  } catch (...) {
    // The body is Swift's and never throws: only a copy of an error can
    // have run out of memory. runWriteBlock rolled back before rethrowing.
    error = outOfMemory();
    return false;
  }
}

Error ClusterAccess::lastError(const ClusterDatabase& database) noexcept {
  try {
    return database.lastError();
  } catch (...) {
    return outOfMemory();
  }
}

std::string ClusterAccess::leaderAddress(const ClusterDatabase& database) noexcept {
  try {
    return database.leaderAddress();
  } catch (...) {
    return std::string();
  }
}

bool ClusterAccess::lastColumnNames(const ClusterDatabase& database, StringList& names) noexcept {
  try {
    names = database.lastColumnNames();
    return true;
  } catch (...) {
    names.clear();
    return false;
  }
}

std::string ClusterAccess::nodeAddress(const ClusterNode& node) noexcept {
  try {
    return node.address();
  } catch (...) {
    return std::string();
  }
}

SyncHubHandle ClusterAccess::makeSyncHub(ClusterDatabase& database, const std::string& table, Error& error) noexcept {
  SyncHubHandle handle;
  try {
    auto hub = std::make_shared<ClusterSyncHub>(std::move(database), table);
    error = hub->error();
    if (!error.isError()) handle.hub = std::move(hub);
  } catch (const std::bad_alloc&) {
    error = Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory", std::string()};
  }
  return handle;
}

}  // namespace sqlitebridge::interop
