#include "FileSystem.hpp"

#include "FileOperationObserver.hpp"
#include "sqlitebridge/SQLite.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <random>
#include <vector>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

namespace sqlitebridge {

namespace {

std::atomic<FileOperationObserver*> installedObserver{nullptr};

// Runs `body` (which returns whether the operation succeeded, leaving errno
// set when not) under the installed observer, if any: it may refuse the
// operation, which then fails with the errno it gives.
template <typename Body>
bool observed(const FileOperation& operation, Body body) {
  FileOperationObserver* observer = installedObserver.load(std::memory_order_acquire);
  if (observer == nullptr) return body();
  if (const int refused = observer->refusal(operation)) {
    errno = refused;
    return false;
  }
  const bool succeeded = body();
  const int reason = errno;
  observer->done(operation, succeeded);
  errno = reason;
  return succeeded;
}

// Sets `failure` from errno: what failed, on which path, and the code that
// fits the reason (`ioCode` for an I/O error).
bool fail(FileFailure& failure, int ioCode, const std::string& what, const std::string& path) {
  const int reason = errno;
  failure.code = reason == ENOSPC || reason == EDQUOT ? SQLITE_FULL : reason == EIO ? ioCode : SQLITE_CANTOPEN;
  failure.message = what + " " + path + ": " + std::strerror(reason);
  return false;
}

bool removeFile(const std::string& path) noexcept {
  return observed(FileOperation{FileOperation::Kind::Remove, path}, [&] { return ::unlink(path.c_str()) == 0; });
}

// Makes what was written to `fd` durable. On Apple platforms fsync only
// hands the data to the drive, whose cache may still lose it at a power
// cut; F_FULLFSYNC asks the drive to write its cache out too (falling back
// to fsync on file systems that do not support it, as SQLite does).
bool syncDescriptor(int fd) noexcept {
#if defined(__APPLE__)
  if (::fcntl(fd, F_FULLFSYNC) == 0) return true;
#endif
  return ::fsync(fd) == 0;
}

// fsync of the file or directory at `path`, opened read-only for it.
bool syncPath(const std::string& path) noexcept {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  const bool synced = syncDescriptor(fd);
  const int reason = errno;
  ::close(fd);
  errno = reason;
  return synced;
}

// Makes a rename or link durable: fsync the directory that holds it.
bool syncDirectory(const std::string& directory) noexcept {
  return observed(FileOperation{FileOperation::Kind::SyncDirectory, directory}, [&] { return syncPath(directory); });
}

const char kTemporaryPrefix[] = ".sqlitebridge-";

// A temporary file whose owner process is gone may still be written by a
// process in another pid namespace sharing the directory; one written
// within this many seconds is left alone.
constexpr std::time_t kOwnerGoneIdleSeconds = 60;
// No copy or creation leaves its files unwritten this long, so files idle
// this long are abandoned whatever process id they carry (ids are reused,
// and a container may give a restarted app the id of the killed one).
constexpr std::time_t kAbandonedIdleSeconds = 24 * 60 * 60;

// Reads a name temporaryPath made: ".sqlitebridge-<pid>-<n>-<n>.tmp",
// possibly followed by "-journal", "-wal" or "-shm". Sets the length of the
// part without that suffix and the owner's process id.
bool parseTemporaryName(const std::string& name, std::size_t& baseLength, long& pid) {
  const std::size_t prefixLength = sizeof kTemporaryPrefix - 1;
  if (name.compare(0, prefixLength, kTemporaryPrefix) != 0) return false;
  std::size_t at = prefixLength;
  for (int part = 0; part < 3; ++part) {
    const std::size_t start = at;
    while (at < name.size() && name[at] >= '0' && name[at] <= '9') ++at;
    const std::size_t digits = at - start;
    if (digits == 0 || digits > (part == 0 ? 9 : 20)) return false;
    if (part == 0) pid = std::stol(name.substr(start, digits));
    if (part < 2) {
      if (at >= name.size() || name[at] != '-') return false;
      ++at;
    }
  }
  if (name.compare(at, 4, ".tmp") != 0) return false;
  at += 4;
  const std::string suffix = name.substr(at);
  if (!suffix.empty() && suffix != "-journal" && suffix != "-wal" && suffix != "-shm") return false;
  baseLength = at;
  return true;
}

bool processIsGone(long pid) noexcept { return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

// Writes all of `data` at `offset` of `path` (open as `fd`), advancing
// `offset`.
bool writeAll(int fd, const std::string& path, std::int64_t& offset, const char* data, std::size_t size) noexcept {
  return observed(FileOperation{FileOperation::Kind::Write, path, nullptr, offset, data, size}, [&] {
    while (size > 0) {
      const ssize_t written = ::write(fd, data, size);
      if (written < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      data += written;
      size -= static_cast<std::size_t>(written);
      offset += written;
    }
    return true;
  });
}

}  // namespace

bool pathExists(const std::string& path) noexcept {
  struct stat info;
  return ::lstat(path.c_str(), &info) == 0;
}

bool isDirectory(const std::string& path) noexcept {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool isRegularFile(const std::string& path) noexcept {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string joinPath(const std::string& directory, const std::string& name) {
  if (directory.empty()) return name;
  if (directory.back() == '/') return directory + name;
  return directory + "/" + name;
}

std::string parentDirectory(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string temporaryPath(const std::string& directory) {
  static std::atomic<unsigned long> counter{0};
  thread_local std::mt19937_64 random{std::random_device{}()};
  return joinPath(directory, kTemporaryPrefix + std::to_string(::getpid()) + "-" + std::to_string(++counter) + "-" +
                                 std::to_string(random() % 1000000000ULL) + ".tmp");
}

void setFileOperationObserver(FileOperationObserver* observer) noexcept {
  installedObserver.store(observer, std::memory_order_release);
}

FileOperationObserver* fileOperationObserver() noexcept { return installedObserver.load(std::memory_order_acquire); }

bool publishFile(const std::string& temporary, const std::string& destination, bool& ours,
                 FileFailure& failure) noexcept {
  ours = false;
  try {
    // link() fails with EEXIST instead of replacing a database another
    // process published meanwhile; the caller then opens that one.
    const bool linked = observed(FileOperation{FileOperation::Kind::Link, temporary, &destination},
                                 [&] { return ::link(temporary.c_str(), destination.c_str()) == 0; });
    if (linked) {
      ours = true;
      removeFile(temporary);
    } else if (errno == EEXIST) {
      removeFile(temporary);
    } else if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOTSUP && errno != EMLINK) {
      // An I/O error, a full disk, a permission: not a missing feature.
      fail(failure, SQLITE_IOERR, "cannot publish the new database as", destination);
      removeFile(temporary);
      return false;
    } else if (!observed(FileOperation{FileOperation::Kind::Rename, temporary, &destination},
                         [&] { return ::rename(temporary.c_str(), destination.c_str()) == 0; })) {
      // File systems without hard links: rename is still atomic.
      fail(failure, SQLITE_IOERR, "cannot move the new database to", destination);
      removeFile(temporary);
      return false;
    } else {
      ours = true;
    }
    const std::string directory = parentDirectory(destination);
    if (!syncDirectory(directory)) {
      return fail(failure, SQLITE_IOERR_DIR_FSYNC, "cannot sync the directory", directory);
    }
    return true;
  } catch (...) {
    removeFile(temporary);
    failure = FileFailure{SQLITE_NOMEM, "out of memory"};
    return false;
  }
}

bool copyFileAtomically(const std::string& source, const std::string& destination, bool& ours,
                        FileFailure& failure) noexcept {
  ours = false;
  try {
    const int in = ::open(source.c_str(), O_RDONLY);
    if (in < 0) return fail(failure, SQLITE_IOERR_READ, "cannot read the bundled database", source);
    const std::string temporary = temporaryPath(parentDirectory(destination));
    int out = -1;
    if (!observed(FileOperation{FileOperation::Kind::Create, temporary}, [&] {
          out = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
          return out >= 0;
        })) {
      fail(failure, SQLITE_IOERR_WRITE, "cannot create a file in", parentDirectory(destination));
      ::close(in);
      return false;
    }
    bool ok = true;
    std::int64_t offset = 0;
    char buffer[1 << 16];
    for (;;) {
      const ssize_t got = ::read(in, buffer, sizeof buffer);
      if (got == 0) break;
      if (got < 0) {
        if (errno == EINTR) continue;
        ok = fail(failure, SQLITE_IOERR_READ, "cannot read the bundled database", source);
        break;
      }
      if (!writeAll(out, temporary, offset, buffer, static_cast<std::size_t>(got))) {
        ok = fail(failure, SQLITE_IOERR_WRITE, "cannot write", temporary);
        break;
      }
    }
    if (ok && !observed(FileOperation{FileOperation::Kind::Sync, temporary}, [&] { return syncDescriptor(out); })) {
      ok = fail(failure, SQLITE_IOERR_FSYNC, "cannot sync", temporary);
    }
    ::close(in);
    if (::close(out) != 0 && ok) ok = fail(failure, SQLITE_IOERR_CLOSE, "cannot write", temporary);
    if (!ok) {
      removeFile(temporary);
      return false;
    }
    return publishFile(temporary, destination, ours, failure);
  } catch (...) {
    failure = FileFailure{SQLITE_NOMEM, "out of memory"};
    return false;
  }
}

bool syncFile(const std::string& path, FileFailure& failure) noexcept {
  try {
    if (observed(FileOperation{FileOperation::Kind::Sync, path}, [&] { return syncPath(path); })) return true;
    return fail(failure, SQLITE_IOERR_FSYNC, "cannot sync", path);
  } catch (...) {
    failure = FileFailure{SQLITE_NOMEM, "out of memory"};
    return false;
  }
}

bool syncDirectoryEntries(const std::string& directory, FileFailure& failure) noexcept {
  try {
    if (syncDirectory(directory)) return true;
    return fail(failure, SQLITE_IOERR_DIR_FSYNC, "cannot sync the directory", directory);
  } catch (...) {
    failure = FileFailure{SQLITE_NOMEM, "out of memory"};
    return false;
  }
}

void removeDatabaseFiles(const std::string& path) noexcept {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    try {
      removeFile(path + suffix);
    } catch (...) {
    }
  }
}

std::size_t removeStaleTemporaryFiles(const std::string& directory) noexcept {
  try {
    struct Leftover {
      long pid = 0;
      std::time_t lastWrite = 0;  // the newest of the file and its companions
      std::vector<std::string> names;
    };
    std::map<std::string, Leftover> leftovers;  // by name without companion suffix
    {
      std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(directory.c_str()), ::closedir);
      if (!dir) return 0;
      while (const dirent* entry = ::readdir(dir.get())) {
        const std::string name = entry->d_name;
        std::size_t baseLength = 0;
        long pid = 0;
        if (!parseTemporaryName(name, baseLength, pid)) continue;
        struct stat info;
        if (::lstat(joinPath(directory, name).c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
        Leftover& leftover = leftovers[name.substr(0, baseLength)];
        leftover.pid = pid;
        if (info.st_mtime > leftover.lastWrite) leftover.lastWrite = info.st_mtime;
        leftover.names.push_back(name);
      }
    }
    const std::time_t now = std::time(nullptr);
    const long self = static_cast<long>(::getpid());
    std::size_t removed = 0;
    for (const auto& entry : leftovers) {
      const Leftover& leftover = entry.second;
      const std::time_t idle = now - leftover.lastWrite;
      // Our own id may be a thread of ours copying right now.
      const bool ownerGone = leftover.pid != self && processIsGone(leftover.pid);
      if (idle < kAbandonedIdleSeconds && !(ownerGone && idle >= kOwnerGoneIdleSeconds)) continue;
      for (const std::string& name : leftover.names) {
        if (removeFile(joinPath(directory, name))) ++removed;
      }
    }
    return removed;
  } catch (...) {
    return 0;
  }
}

std::string currentDirectory() {
  std::string buffer(4096, '\0');
  while (::getcwd(&buffer[0], buffer.size()) == nullptr) {
    if (errno != ERANGE) return std::string();
    buffer.resize(buffer.size() * 2);
  }
  buffer.resize(std::strlen(buffer.c_str()));
  return buffer;
}

std::string executableDirectory() {
#if defined(__linux__)
  std::string buffer(4096, '\0');
  const ssize_t length = ::readlink("/proc/self/exe", &buffer[0], buffer.size());
  if (length <= 0 || static_cast<std::size_t>(length) >= buffer.size()) return std::string();
  buffer.resize(static_cast<std::size_t>(length));
  return parentDirectory(buffer);
#elif defined(__APPLE__)
  uint32_t size = 0;
  _NSGetExecutablePath(nullptr, &size);
  std::string buffer(size, '\0');
  if (_NSGetExecutablePath(&buffer[0], &size) != 0) return std::string();
  buffer.resize(std::strlen(buffer.c_str()));
  return parentDirectory(buffer);
#else
  return std::string();
#endif
}

}  // namespace sqlitebridge
