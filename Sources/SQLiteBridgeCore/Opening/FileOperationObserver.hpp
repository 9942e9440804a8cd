// The injection point of the core's own file operations (the by-name first
// open copies and publishes files outside SQLite): a test installs an
// observer to see each operation before and after it happens, and to refuse
// one (a simulated power cut or I/O error: the operation then does nothing
// and fails with the errno the observer gives). Internal; no observer is installed outside tests, which costs
// each operation one load and one predictable branch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sqlitebridge {

/// One file operation of the core.
struct FileOperation {
  enum class Kind {
    Create,         ///< a new file at `path` (open with O_CREAT | O_EXCL)
    Write,          ///< `size` bytes of `data` at `offset` of `path`
    Sync,           ///< fsync of the file `path`
    SyncDirectory,  ///< fsync of the directory `path`
    Link,           ///< a hard link `target` to `path`
    Rename,         ///< `path` renamed to `target`
    Remove,         ///< unlink of `path`
  };
  Kind kind;
  const std::string& path;
  const std::string* target = nullptr;
  std::int64_t offset = 0;
  const char* data = nullptr;
  std::size_t size = 0;
};

/// What a test implements. Called on the thread doing the operation.
class FileOperationObserver {
 public:
  virtual ~FileOperationObserver() = default;
  /// Before the operation: 0 lets it run; an errno value refuses it (it
  /// does nothing and fails with that errno: EIO, ENOSPC).
  virtual int refusal(const FileOperation& operation) noexcept = 0;
  /// After an operation that was allowed and ran: whether it succeeded.
  virtual void done(const FileOperation& operation, bool succeeded) noexcept = 0;
};

/// Installs `observer` (nullptr: none) for every thread; the caller keeps
/// it alive while installed. For tests only.
void setFileOperationObserver(FileOperationObserver* observer) noexcept;
/// The installed observer, or nullptr.
FileOperationObserver* fileOperationObserver() noexcept;

}  // namespace sqlitebridge
