#include "SessionAPI.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <new>

#include "sqlitebridge/Changeset.hpp"
#include "sqlitebridge/interop/Testing.hpp"

namespace sqlitebridge {

namespace {

std::atomic<bool> hiddenByTest{false};

// The shared object (or executable) that defines the function at `address`;
// null when the loader cannot tell.
const char* definingObject(const void* address) noexcept {
  Dl_info info;
  if (dladdr(address, &info) == 0) return nullptr;
  return info.dli_fname;
}

bool sessionFunctionsPresent() noexcept {
  const void* functions[] = {
      reinterpret_cast<const void*>(&sqlite3session_create),
      reinterpret_cast<const void*>(&sqlite3session_delete),
      reinterpret_cast<const void*>(&sqlite3session_enable),
      reinterpret_cast<const void*>(&sqlite3session_indirect),
      reinterpret_cast<const void*>(&sqlite3session_attach),
      reinterpret_cast<const void*>(&sqlite3session_changeset),
      reinterpret_cast<const void*>(&sqlite3session_patchset),
      reinterpret_cast<const void*>(&sqlite3session_diff),
      reinterpret_cast<const void*>(&sqlite3session_isempty),
      reinterpret_cast<const void*>(&sqlite3session_table_filter),
      reinterpret_cast<const void*>(&sqlite3changeset_start),
      reinterpret_cast<const void*>(&sqlite3changeset_next),
      reinterpret_cast<const void*>(&sqlite3changeset_op),
      reinterpret_cast<const void*>(&sqlite3changeset_pk),
      reinterpret_cast<const void*>(&sqlite3changeset_old),
      reinterpret_cast<const void*>(&sqlite3changeset_new),
      reinterpret_cast<const void*>(&sqlite3changeset_conflict),
      reinterpret_cast<const void*>(&sqlite3changeset_fk_conflicts),
      reinterpret_cast<const void*>(&sqlite3changeset_finalize),
      reinterpret_cast<const void*>(&sqlite3changeset_invert),
      reinterpret_cast<const void*>(&sqlite3changeset_concat),
      reinterpret_cast<const void*>(&sqlite3changeset_apply_v2),
      reinterpret_cast<const void*>(&sqlite3rebaser_create),
      reinterpret_cast<const void*>(&sqlite3rebaser_configure),
      reinterpret_cast<const void*>(&sqlite3rebaser_rebase),
      reinterpret_cast<const void*>(&sqlite3rebaser_delete),
  };
  for (const void* function : functions) {
    if (function == nullptr) return false;
  }
  // A process holding two SQLite libraries could resolve the session
  // functions from one and the connection functions from the other.
  const char* sessions = definingObject(functions[0]);
  const char* connections = definingObject(reinterpret_cast<const void*>(&sqlite3_open_v2));
  return sessions == nullptr || connections == nullptr || std::strcmp(sessions, connections) == 0;
}

}  // namespace

bool sessionAPIAvailable() noexcept {
  static const bool present = sessionFunctionsPresent();
  return present && !hiddenByTest.load(std::memory_order_relaxed);
}

bool sessionExtensionAvailable() noexcept { return sessionAPIAvailable(); }

Error sessionExtensionUnavailableError() {
  Error error;
  error.code = SQLITE_ERROR;
  error.extendedCode = SQLITE_ERROR;
  error.message = std::string("SQLite's session extension is not available: SQLite ") + sqlite3_libversion() +
                  " in this process was built without SQLITE_ENABLE_SESSION and SQLITE_ENABLE_PREUPDATE_HOOK "
                  "(changesets, Session, Database::apply and UndoHistory need it)";
  return error;
}

bool requireSessionAPI(Error* error) noexcept {
  if (sessionAPIAvailable()) return true;
  if (error != nullptr) {
    try {
      *error = sessionExtensionUnavailableError();
    } catch (const std::bad_alloc&) {
      error->code = error->extendedCode = SQLITE_NOMEM;
    }
  }
  return false;
}

bool changesetFailure(Error* error, int code, const char* message) noexcept {
  if (error == nullptr) return false;
  error->code = code & 0xff;
  error->extendedCode = code;
  error->sql.clear();
  try {
    error->message = message;
  } catch (const std::bad_alloc&) {
    error->message.clear();
  }
  return false;
}

bool changesetFailure(Error* error, int code, const std::string& message) noexcept {
  return changesetFailure(error, code, message.c_str());
}

void interop::ChangesetTesting::hideSessionExtension(bool hidden) noexcept {
  hiddenByTest.store(hidden, std::memory_order_relaxed);
}

}  // namespace sqlitebridge
