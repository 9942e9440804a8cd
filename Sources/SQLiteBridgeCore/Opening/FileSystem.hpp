// The few file operations opening by name needs (POSIX). Internal.
#pragma once

#include <cstddef>
#include <string>

namespace sqlitebridge {

/// True when something (file, directory, link) exists at `path`.
bool pathExists(const std::string& path) noexcept;
/// True when `path` is a directory.
bool isDirectory(const std::string& path) noexcept;
/// True when `path` is a regular file (following links).
bool isRegularFile(const std::string& path) noexcept;
/// `directory` and `name` joined with one `/`.
std::string joinPath(const std::string& directory, const std::string& name);
/// The part of `path` before its last `/` ("." when there is none).
std::string parentDirectory(const std::string& path);
/// A path in `directory` that no one else uses, for a file to be built
/// there and then published under its real name.
std::string temporaryPath(const std::string& directory);

/// Why a file operation failed: the SQLite result code that fits the
/// system's reason (SQLITE_FULL for a full disk or quota, SQLITE_IOERR_<the
/// operation> for an I/O error, SQLITE_CANTOPEN for anything else, such as
/// a permission) and a message naming what failed, the path and the reason.
struct FileFailure {
  int code = 0;
  std::string message;
};

/// Copies `source` to a new temporary file next to `destination`, fsyncs
/// it (F_FULLFSYNC on Apple platforms, as every sync of the core), and publishes it under `destination` without
/// replacing a file that appeared there meanwhile (then the copy is discarded). The new file gets mode 0644 narrowed by
/// the umask. On success `ours` says whether this copy became `destination` (false: another process published one
/// first, and that one is there). On failure nothing is left behind and `failure` says why; returns false.
bool copyFileAtomically(const std::string& source, const std::string& destination, bool& ours,
                        FileFailure& failure) noexcept;
/// Publishes the finished file `temporary` as `destination` as
/// `copyFileAtomically` does (no replacing; the temporary name is gone
/// afterwards either way), setting `ours` likewise, then fsyncs the
/// directory. Returns false with `failure` set on failure.
bool publishFile(const std::string& temporary, const std::string& destination, bool& ours,
                 FileFailure& failure) noexcept;
/// Makes the content of the file at `path` durable: fsync (F_FULLFSYNC on
/// Apple platforms, where fsync leaves it in the drive's cache). Returns
/// false with `failure` set (SQLITE_IOERR_FSYNC for an I/O error) on failure.
bool syncFile(const std::string& path, FileFailure& failure) noexcept;
/// Makes the entries of `directory` durable (fsync of the directory;
/// F_FULLFSYNC on Apple platforms). Returns false with `failure` set
/// (SQLITE_IOERR_DIR_FSYNC for an I/O error) on failure.
bool syncDirectoryEntries(const std::string& directory, FileFailure& failure) noexcept;
/// Removes a database file and its -journal, -wal and -shm companions.
void removeDatabaseFiles(const std::string& path) noexcept;
/// Removes from `directory` the temporary files (names `temporaryPath`
/// makes, and their -journal, -wal and -shm companions) that a process
/// killed while copying or creating a database left behind: those whose
/// owner process is gone and that no one has written for a minute, and
/// those no one has written for a day whoever their owner (process ids are
/// reused). Files of a running copy or creation are left alone (one in
/// another pid namespace only while it writes at least once a minute). Best
/// effort: failures are ignored. Returns the number of files removed.
std::size_t removeStaleTemporaryFiles(const std::string& directory) noexcept;

/// The current working directory; empty when it cannot be read.
std::string currentDirectory();
/// The directory of the running executable; empty when unknown.
std::string executableDirectory();

}  // namespace sqlitebridge
