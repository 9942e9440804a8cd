#pragma once

namespace sqlitebridge {

/// How `DatabasePool::checkpoint` copies the write-ahead log into the
/// database file (SQLite's `sqlite3_wal_checkpoint_v2` modes).
enum class CheckpointMode {
  /// Copies what it can without waiting for readers or the writer; never
  /// fails for being blocked.
  Passive,
  /// Waits (up to the busy timeout) until no writer is active, then copies
  /// every frame; fails with SQLITE_BUSY when a reader still needs an older
  /// frame.
  Full,
  /// As `Full`, then waits until no reader uses the log, so that the next
  /// writer starts it from the beginning.
  Restart,
  /// As `Restart`, and truncates the `-wal` file to zero bytes.
  Truncate,
};

}  // namespace sqlitebridge
