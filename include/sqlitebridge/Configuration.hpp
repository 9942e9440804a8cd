#pragma once

namespace sqlitebridge {

/// How a connection is set up when it opens, before anything reads the file.
///
/// Pass one to `Database::open(path, configuration)` or to the by-name
/// constructor; the other constructors use these defaults.
struct Configuration {
  /// How long, in milliseconds, the open and every later statement wait for
  /// another connection's lock (a writer, a commit, a WAL recovery or
  /// checkpoint) before failing with SQLITE_BUSY. 5000 by default; 0 or less
  /// fails at once. `Database::setBusyTimeout` changes it after the open.
  int busyTimeoutMilliseconds = 5000;
};

}  // namespace sqlitebridge
