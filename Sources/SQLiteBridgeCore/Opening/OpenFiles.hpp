// Which database files this process holds open through SQLiteBridge, so
// that removing one can refuse while a connection still uses it. Internal.
#pragma once

#include <string>
#include <sys/types.h>

namespace sqlitebridge {

/// A file as the file system knows it (device and inode), so that two paths
/// to one file (relative, absolute, through a symbolic link) are the same.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool known = false;

  /// The identity of the file at `path`; `known` is false when it cannot
  /// be read (no such file).
  static FileIdentity of(const std::string& path) noexcept;
};

/// Records that a connection opened the file `identity` (thread-safe; a
/// file opened twice is recorded twice). An unknown identity is ignored.
void registerOpenFile(const FileIdentity& identity) noexcept;
/// Forgets one opening recorded by `registerOpenFile`.
void unregisterOpenFile(const FileIdentity& identity) noexcept;
/// Whether a connection of this process holds the file `identity` open.
bool isFileOpenInThisProcess(const FileIdentity& identity) noexcept;

}  // namespace sqlitebridge
