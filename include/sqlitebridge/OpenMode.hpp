#pragma once

namespace sqlitebridge {

/// How `Database::open` opens a file.
enum class OpenMode {
  /// Reads only; every write fails with SQLITE_READONLY. A missing file fails
  /// with SQLITE_CANTOPEN.
  ReadOnly,
  /// Reads and writes an existing file; a missing file fails with
  /// SQLITE_CANTOPEN.
  ReadWrite,
  /// Reads and writes, creating the file when it does not exist.
  ReadWriteCreate,
};

}  // namespace sqlitebridge
