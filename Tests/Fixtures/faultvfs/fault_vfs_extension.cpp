// The power-loss harness's fault VFS (Tests/PowerLoss/FaultVfs.cpp) as a
// loadable extension, for the Swift suite, which cannot link the C++ test
// code: it is compiled against the extension API of whichever SQLite loads
// it (the system SQLite, or SQLCipher in the SQLCipher build).
//
// Entry point sqlite3_faultvfs_init: registers the VFS "powerloss" (the
// default VFS, wrapped; nothing fails until armed) and stays loaded for the
// life of the process. SQL functions on the loading connection:
//   powerloss_fault(kind, at, full, persistent)  fail the at-th call of kind
//       ('read', 'write', 'sync', 'truncate', 'lock', 'unlock', 'filesize',
//       'open', 'delete', 'access', 'shm') from now on, with a
//       full disk when full is 1 (writes and truncates), and every later one
//       of that kind too when persistent is 1; returns 1
//   powerloss_disarm()  every call succeeds again; returns 1
//   powerloss_faults()  how many calls the armed fault failed
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <cstring>

// The VFS itself, compiled here against the extension API (sqlite3ext.h
// turns its sqlite3_* calls into calls through the loading library).
#include "../../PowerLoss/FaultVfs.cpp"

namespace {

powerloss::CallKind kindNamed(const char* name, bool& known) {
  known = true;
  for (int i = 0; i < powerloss::kCallKinds; ++i) {
    const auto kind = static_cast<powerloss::CallKind>(i);
    if (name != nullptr && std::strcmp(name, powerloss::callKindName(kind)) == 0) return kind;
  }
  known = false;
  return powerloss::CallKind::Read;
}

void fault(sqlite3_context* context, int, sqlite3_value** arguments) {
  bool known = false;
  powerloss::Plan plan;
  plan.mode = powerloss::Plan::Mode::Fault;
  plan.kind = kindNamed(reinterpret_cast<const char*>(sqlite3_value_text(arguments[0])), known);
  if (!known) {
    sqlite3_result_error(context,
                         "powerloss_fault: kind is read, write, sync, truncate, lock, unlock, filesize, open, "
                         "delete, access or shm",
                         -1);
    return;
  }
  plan.at = sqlite3_value_int64(arguments[1]);
  plan.diskFull = sqlite3_value_int(arguments[2]) != 0;
  plan.persistent = sqlite3_value_int(arguments[3]) != 0;
  powerloss::FaultVfs::shared().arm(plan);
  sqlite3_result_int(context, 1);
}

void disarm(sqlite3_context* context, int, sqlite3_value**) {
  powerloss::FaultVfs::shared().disarm();
  sqlite3_result_int(context, 1);
}

void faults(sqlite3_context* context, int, sqlite3_value**) {
  sqlite3_result_int64(context, powerloss::FaultVfs::shared().counts().faults);
}

}  // namespace

extern "C" int sqlite3_faultvfs_init(sqlite3* db, char**, const sqlite3_api_routines* api) {
  SQLITE_EXTENSION_INIT2(api);
  powerloss::FaultVfs::shared();  // registers the VFS
  int rc = sqlite3_create_function(db, "powerloss_fault", 4, SQLITE_UTF8, nullptr, fault, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "powerloss_disarm", 0, SQLITE_UTF8, nullptr, disarm, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "powerloss_faults", 0, SQLITE_UTF8, nullptr, faults, nullptr, nullptr);
  // The VFS must outlive this connection: never unload the library.
  return rc == SQLITE_OK ? SQLITE_OK_LOAD_PERMANENTLY : rc;
}
