#pragma once

namespace sqlitebridge {

/// The journal mode `Configuration::journalMode` asks for at open
/// (`PRAGMA journal_mode`). SQLite keeps some modes where it cannot honour
/// others (an in-memory database stays in "memory" unless asked for "off";
/// a read-only connection cannot switch to "wal"): the open then fails with
/// SQLITE_ERROR naming the mode asked and the mode SQLite kept. WAL is
/// written in the file and stays after the connection closes; the other
/// modes last as long as the connection.
enum class JournalMode {
  /// "delete": the rollback journal is deleted at each commit (SQLite's default).
  Delete,
  /// "truncate": the rollback journal is truncated to zero bytes at each commit.
  Truncate,
  /// "persist": the rollback journal stays, its header zeroed at each commit.
  Persist,
  /// "memory": the rollback journal is kept in memory (a crash mid-write can
  /// corrupt the file).
  Memory,
  /// "wal": write-ahead logging, readers alongside one writer.
  Wal,
  /// "off": no journal; ROLLBACK is undefined and a crash can corrupt the file.
  Off,
};

/// How often SQLite waits for the disk, as `Configuration::synchronous` asks
/// at open (`PRAGMA synchronous`, which reads back 0, 1, 2 or 3).
enum class Synchronous {
  /// 0: never; a power loss can corrupt the file.
  Off,
  /// 1: at the critical moments only (in WAL, a power loss can lose the last
  /// commits but never corrupts).
  Normal,
  /// 2: at every commit (SQLite's default).
  Full,
  /// 3: as Full, and also the directory after the rollback journal is removed.
  Extra,
};

}  // namespace sqlitebridge
