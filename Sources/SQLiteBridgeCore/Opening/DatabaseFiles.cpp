// Database::fileSize and Database::removeDatabase: a database as files.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "Connection.hpp"
#include "DatabaseName.hpp"
#include "FileSystem.hpp"
#include "OpenFiles.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

// The byte ranges SQLite's unix VFS locks (see os_unix.c): in the database
// file, the pending, reserved and shared bytes at 1 GiB; in the WAL-index
// (-shm) file, the eight WAL locks from byte 120 and the byte at 128 that
// every connection holding the WAL index open keeps a shared lock on.
constexpr off_t kPendingByte = 0x40000000;
constexpr off_t kDatabaseLockBytes = 2 + 510;
constexpr off_t kShmLockOffset = 120;
constexpr off_t kShmLockBytes = 9;

// Whether another process holds a POSIX lock on `length` bytes of `path`
// from `offset` (F_GETLK: locks of this process never conflict). A file
// that cannot be opened holds no lock.
bool anotherProcessLocks(const std::string& path, off_t offset, off_t length) noexcept {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock probe{};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  probe.l_start = offset;
  probe.l_len = length;
  const bool locked = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  // Closing drops this process's locks on the file; none is held (no
  // Database of this process has it open: checked first).
  ::close(fd);
  return locked;
}

bool fail(Error* error, int code, const std::string& message) noexcept {
  if (error != nullptr) {
    error->code = code & 0xff;
    error->extendedCode = code;
    try {
      error->message = message;
    } catch (...) {
      error->message.clear();
    }
    error->sql.clear();
  }
  return false;
}

}  // namespace

bool Database::fileSize(std::int64_t& bytes) noexcept {
  bytes = 0;
  if (!beginCall()) return false;
  sqlite3* db = connection_->db;
  const char* file = sqlite3_db_filename(db, "main");
  if (file == nullptr || *file == '\0') return true;  // in memory or temporary
  struct stat status{};
  if (::stat(file, &status) != 0) {
    const int code = errno;
    return connection_->fail(
        SQLITE_IOERR_FSTAT,
        std::string("cannot read the size of the database file: ") + std::strerror(code) + ": " + file, "");
  }
  bytes = status.st_size;
  const char* wal = sqlite3_filename_wal(file);
  if (wal != nullptr && ::stat(wal, &status) == 0) bytes += status.st_size;
  return true;
}

bool Database::removeDatabase(const std::string& name, const Location& location, Error* error) noexcept {
  try {
    if (const char* problem = databaseNameProblem(name)) {
      return fail(error, SQLITE_MISUSE, invalidDatabaseNameMessage(name, problem));
    }
    if (location.documentsDirectory.empty()) {
      return fail(error, SQLITE_MISUSE, "no documents directory is set for database \"" + name + "\"");
    }
    return removeDatabase(joinPath(location.documentsDirectory, name), error);
  } catch (...) {
    return fail(error, SQLITE_NOMEM, "out of memory");
  }
}

bool Database::removeDatabase(const std::string& path, Error* error) noexcept {
  try {
    if (path.empty() || path == ":memory:" || path.compare(0, 5, "file:") == 0) {
      return fail(error, SQLITE_MISUSE,
                  "removeDatabase takes the path of a database file (not \"\", \":memory:\" or a file: URI): " + path);
    }
    if (path.find('\0') != std::string::npos) {
      return fail(error, SQLITE_MISUSE, "the database path holds a NUL byte");
    }
    if (isFileOpenInThisProcess(FileIdentity::of(path))) {
      return fail(error, SQLITE_BUSY,
                  "the database is open in this process; close every connection to it first: " + path);
    }
    if (anotherProcessLocks(path, kPendingByte, kDatabaseLockBytes) ||
        anotherProcessLocks(path + "-shm", kShmLockOffset, kShmLockBytes)) {
      return fail(error, SQLITE_BUSY, "another process is using the database (it holds a lock on it): " + path);
    }
    if (isDirectory(path)) return fail(error, SQLITE_IOERR_DELETE, "cannot remove " + path + ": it is a directory");
    // Companions first: a log left beside a later database of the same name
    // would be read as that database's.
    for (const char* suffix : {"-wal", "-journal", "-shm", ""}) {
      const std::string file = path + suffix;
      if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
        const int code = errno;
        return fail(error, SQLITE_IOERR_DELETE, "cannot remove " + file + ": " + std::strerror(code));
      }
    }
    if (error != nullptr) *error = Error();
    return true;
  } catch (...) {
    return fail(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
