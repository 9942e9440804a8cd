#pragma once

namespace sqlitebridge {

/// How a connection is set up when it opens, before anything reads the file.
///
/// Pass one to `Database::open(path, configuration)` or to the by-name
/// constructor; the other constructors use these defaults (with
/// `Database::open(path, mode)` taking `readOnly` from `mode`).
struct Configuration {
  /// How long, in milliseconds, the open and every later statement wait for
  /// another connection's lock (a writer, a commit, a WAL recovery or
  /// checkpoint) before failing with SQLITE_BUSY. 5000 by default; 0 or less
  /// fails at once. `Database::setBusyTimeout` changes it after the open.
  int busyTimeoutMilliseconds = 5000;
  /// Whether the connection enforces foreign keys (`PRAGMA foreign_keys`,
  /// set at open). On by default, as SQLite's own default (off) lets a
  /// REFERENCES clause be broken silently.
  bool foreignKeys = true;
  /// Opens the file read-only (SQLITE_OPEN_READONLY): every write fails
  /// with SQLITE_READONLY, and a missing file is not created
  /// (SQLITE_CANTOPEN). By name, a database not yet copied or created
  /// fails with SQLITE_CANTOPEN instead of being made.
  bool readOnly = false;
  /// How many reader connections a `DatabasePool` opens at most; at least 1.
  int maximumReaderCount = 5;
};

}  // namespace sqlitebridge
