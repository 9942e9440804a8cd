#include "sqlitebridge/ResultCode.hpp"

#include <cstddef>

namespace sqlitebridge {

namespace {

struct CodeName {
  int code;
  const char* name;
};

// Every result code SQLite 3.40 defines, by number (stable across versions,
// so an older or newer sqlite3.h changes nothing here), sorted.
constexpr CodeName kCodeNames[] = {
    {0, "SQLITE_OK"},
    {1, "SQLITE_ERROR"},
    {2, "SQLITE_INTERNAL"},
    {3, "SQLITE_PERM"},
    {4, "SQLITE_ABORT"},
    {5, "SQLITE_BUSY"},
    {6, "SQLITE_LOCKED"},
    {7, "SQLITE_NOMEM"},
    {8, "SQLITE_READONLY"},
    {9, "SQLITE_INTERRUPT"},
    {10, "SQLITE_IOERR"},
    {11, "SQLITE_CORRUPT"},
    {12, "SQLITE_NOTFOUND"},
    {13, "SQLITE_FULL"},
    {14, "SQLITE_CANTOPEN"},
    {15, "SQLITE_PROTOCOL"},
    {16, "SQLITE_EMPTY"},
    {17, "SQLITE_SCHEMA"},
    {18, "SQLITE_TOOBIG"},
    {19, "SQLITE_CONSTRAINT"},
    {20, "SQLITE_MISMATCH"},
    {21, "SQLITE_MISUSE"},
    {22, "SQLITE_NOLFS"},
    {23, "SQLITE_AUTH"},
    {24, "SQLITE_FORMAT"},
    {25, "SQLITE_RANGE"},
    {26, "SQLITE_NOTADB"},
    {27, "SQLITE_NOTICE"},
    {28, "SQLITE_WARNING"},
    {100, "SQLITE_ROW"},
    {101, "SQLITE_DONE"},
    {256, "SQLITE_OK_LOAD_PERMANENTLY"},
    {257, "SQLITE_ERROR_MISSING_COLLSEQ"},
    {261, "SQLITE_BUSY_RECOVERY"},
    {262, "SQLITE_LOCKED_SHAREDCACHE"},
    {264, "SQLITE_READONLY_RECOVERY"},
    {266, "SQLITE_IOERR_READ"},
    {267, "SQLITE_CORRUPT_VTAB"},
    {270, "SQLITE_CANTOPEN_NOTEMPDIR"},
    {275, "SQLITE_CONSTRAINT_CHECK"},
    {279, "SQLITE_AUTH_USER"},
    {283, "SQLITE_NOTICE_RECOVER_WAL"},
    {284, "SQLITE_WARNING_AUTOINDEX"},
    {512, "SQLITE_OK_SYMLINK"},
    {513, "SQLITE_ERROR_RETRY"},
    {516, "SQLITE_ABORT_ROLLBACK"},
    {517, "SQLITE_BUSY_SNAPSHOT"},
    {518, "SQLITE_LOCKED_VTAB"},
    {520, "SQLITE_READONLY_CANTLOCK"},
    {522, "SQLITE_IOERR_SHORT_READ"},
    {523, "SQLITE_CORRUPT_SEQUENCE"},
    {526, "SQLITE_CANTOPEN_ISDIR"},
    {531, "SQLITE_CONSTRAINT_COMMITHOOK"},
    {539, "SQLITE_NOTICE_RECOVER_ROLLBACK"},
    {769, "SQLITE_ERROR_SNAPSHOT"},
    {773, "SQLITE_BUSY_TIMEOUT"},
    {776, "SQLITE_READONLY_ROLLBACK"},
    {778, "SQLITE_IOERR_WRITE"},
    {779, "SQLITE_CORRUPT_INDEX"},
    {782, "SQLITE_CANTOPEN_FULLPATH"},
    {787, "SQLITE_CONSTRAINT_FOREIGNKEY"},
    {1032, "SQLITE_READONLY_DBMOVED"},
    {1034, "SQLITE_IOERR_FSYNC"},
    {1038, "SQLITE_CANTOPEN_CONVPATH"},
    {1043, "SQLITE_CONSTRAINT_FUNCTION"},
    {1288, "SQLITE_READONLY_CANTINIT"},
    {1290, "SQLITE_IOERR_DIR_FSYNC"},
    {1294, "SQLITE_CANTOPEN_DIRTYWAL"},
    {1299, "SQLITE_CONSTRAINT_NOTNULL"},
    {1544, "SQLITE_READONLY_DIRECTORY"},
    {1546, "SQLITE_IOERR_TRUNCATE"},
    {1550, "SQLITE_CANTOPEN_SYMLINK"},
    {1555, "SQLITE_CONSTRAINT_PRIMARYKEY"},
    {1802, "SQLITE_IOERR_FSTAT"},
    {1811, "SQLITE_CONSTRAINT_TRIGGER"},
    {2058, "SQLITE_IOERR_UNLOCK"},
    {2067, "SQLITE_CONSTRAINT_UNIQUE"},
    {2314, "SQLITE_IOERR_RDLOCK"},
    {2323, "SQLITE_CONSTRAINT_VTAB"},
    {2570, "SQLITE_IOERR_DELETE"},
    {2579, "SQLITE_CONSTRAINT_ROWID"},
    {2826, "SQLITE_IOERR_BLOCKED"},
    {2835, "SQLITE_CONSTRAINT_PINNED"},
    {3082, "SQLITE_IOERR_NOMEM"},
    {3091, "SQLITE_CONSTRAINT_DATATYPE"},
    {3338, "SQLITE_IOERR_ACCESS"},
    {3594, "SQLITE_IOERR_CHECKRESERVEDLOCK"},
    {3850, "SQLITE_IOERR_LOCK"},
    {4106, "SQLITE_IOERR_CLOSE"},
    {4362, "SQLITE_IOERR_DIR_CLOSE"},
    {4618, "SQLITE_IOERR_SHMOPEN"},
    {4874, "SQLITE_IOERR_SHMSIZE"},
    {5130, "SQLITE_IOERR_SHMLOCK"},
    {5386, "SQLITE_IOERR_SHMMAP"},
    {5642, "SQLITE_IOERR_SEEK"},
    {5898, "SQLITE_IOERR_DELETE_NOENT"},
    {6154, "SQLITE_IOERR_MMAP"},
    {6410, "SQLITE_IOERR_GETTEMPPATH"},
    {6666, "SQLITE_IOERR_CONVPATH"},
    {6922, "SQLITE_IOERR_VNODE"},
    {7178, "SQLITE_IOERR_AUTH"},
    {7434, "SQLITE_IOERR_BEGIN_ATOMIC"},
    {7690, "SQLITE_IOERR_COMMIT_ATOMIC"},
    {7946, "SQLITE_IOERR_ROLLBACK_ATOMIC"},
    {8202, "SQLITE_IOERR_DATA"},
    {8458, "SQLITE_IOERR_CORRUPTFS"},
    // dqlite's own (SQLITE_IOERR | 40 << 8, | 41 << 8): a node that is not
    // the leader, and a write whose leader was lost before it committed.
    {10250, "SQLITE_IOERR_NOT_LEADER"},
    {10506, "SQLITE_IOERR_LEADERSHIP_LOST"},
};

}  // namespace

const char* resultCodeName(int code) noexcept {
  std::size_t low = 0;
  std::size_t high = sizeof kCodeNames / sizeof kCodeNames[0];
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (kCodeNames[middle].code < code) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < sizeof kCodeNames / sizeof kCodeNames[0] && kCodeNames[low].code == code ? kCodeNames[low].name
                                                                                        : nullptr;
}

const char* describe(ResultCode code) noexcept {
  const int value = static_cast<int>(code);
  const char* name = value == primaryResultCode(value) ? resultCodeName(value) : nullptr;
  return name != nullptr ? name : "SQLITE_UNKNOWN";
}

}  // namespace sqlitebridge
