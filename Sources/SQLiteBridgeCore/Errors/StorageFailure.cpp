#include "StorageFailure.hpp"

#include "sqlitebridge/SQLite.hpp"

#include "sqlitebridge/ResultCode.hpp"

namespace sqlitebridge {

namespace {

// What failed, by SQLITE_IOERR subcode (the extended code's high bits), as
// SQLite 3.40 defines them.
const char* const kIoErrorWhat[] = {
    nullptr,                                         // 0: plain SQLITE_IOERR
    "reading from a file failed",                    // READ
    "a read from a file came back short",            // SHORT_READ
    "writing to a file failed",                      // WRITE
    "syncing a file to disk failed",                 // FSYNC
    "syncing a directory to disk failed",            // DIR_FSYNC
    "truncating a file failed",                      // TRUNCATE
    "reading a file's status failed",                // FSTAT
    "releasing a file lock failed",                  // UNLOCK
    "taking a shared file lock failed",              // RDLOCK
    "deleting a file failed",                        // DELETE
    "a file lock was blocked",                       // BLOCKED
    "the file system ran out of memory",             // NOMEM
    "checking a file's existence or access failed",  // ACCESS
    "checking a file lock failed",                   // CHECKRESERVEDLOCK
    "taking a file lock failed",                     // LOCK
    "closing a file failed",                         // CLOSE
    "closing a directory failed",                    // DIR_CLOSE
    "opening the shared-memory file failed",         // SHMOPEN
    "sizing the shared-memory file failed",          // SHMSIZE
    "locking shared memory failed",                  // SHMLOCK
    "mapping shared memory failed",                  // SHMMAP
    "seeking in a file failed",                      // SEEK
    "deleting a file that was not there failed",     // DELETE_NOENT
    "memory-mapping a file failed",                  // MMAP
    "finding a folder for temporary files failed",   // GETTEMPPATH
    "converting a path failed",                      // CONVPATH
    "a file's node changed",                         // VNODE
    "the file system refused access",                // AUTH
    "beginning an atomic write failed",              // BEGIN_ATOMIC
    "committing an atomic write failed",             // COMMIT_ATOMIC
    "rolling back an atomic write failed",           // ROLLBACK_ATOMIC
    "a page failed its checksum",                    // DATA
    "the file system reported corruption",           // CORRUPTFS
};

}  // namespace

std::string describeStorageFailure(int extendedCode, const std::string& message) noexcept {
  try {
    const int primary = primaryResultCode(extendedCode);
    if (primary == SQLITE_FULL) return message + " (" + resultCodeName(SQLITE_FULL) + ")";
    if (primary != SQLITE_IOERR) return message;
    const int subcode = extendedCode >> 8;
    const char* name = resultCodeName(extendedCode);
    if (subcode == 0) return message + " (" + name + ")";
    if (subcode < 0 || subcode >= static_cast<int>(sizeof kIoErrorWhat / sizeof kIoErrorWhat[0]) || name == nullptr) {
      return message;
    }
    return message + " (" + kIoErrorWhat[subcode] + "; " + name + ")";
  } catch (...) {
    return message;
  }
}

}  // namespace sqlitebridge
