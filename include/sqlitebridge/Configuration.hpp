#pragma once

#include <optional>
#include <string>
#include <vector>

#include "Extension.hpp"
#include "OpenOptions.hpp"

namespace sqlitebridge {

/// How a connection is set up when it opens, before anything reads the file.
///
/// Pass one to `Database::open(path, configuration)` or to the by-name
/// constructor; the other constructors use these defaults (with
/// `Database::open(path, mode)` taking `readOnly` from `mode`). A
/// `DatabaseQueue` and a `DatabasePool` open their connections with it (a
/// pool's readers read-only).
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
  /// How often, in milliseconds, the observations of a `DatabaseQueue` or
  /// `DatabasePool` (`observeValue`, `observeRegion`) look for commits made
  /// by any other connection or process on the same file (`PRAGMA
  /// data_version`, polled by a thread of the queue's or pool's own, started
  /// with the first observation, on the queue's connection, or on a
  /// read-only connection a pool opens for it alone: never the pool's
  /// writer, which a check would wait for, nor one of its readers, whose
  /// versions are each their own): such a commit counts as a change of the
  /// whole database.
  /// 0 or less (the default): only the queue's or pool's own commits are
  /// seen. Plain `Database` connections ignore it.
  int externalChangeCheckMilliseconds = 0;

  // Open options: applied by every open, after the busy timeout and before
  // the caller's first statement. A failed option fails the open.

  /// The journal mode set at open (`PRAGMA journal_mode`); empty leaves the
  /// file's mode. When SQLite keeps another mode (an in-memory database stays
  /// in "memory" unless asked for "off"; a read-only connection cannot switch
  /// to "wal", SQLITE_READONLY) the open fails with SQLITE_ERROR naming the
  /// mode asked and the mode kept. A `DatabasePool` accepts only empty or
  /// `JournalMode::Wal` (SQLITE_MISUSE otherwise), as it runs in WAL.
  std::optional<JournalMode> journalMode;
  /// The synchronous level set at open (`PRAGMA synchronous`); empty leaves
  /// SQLite's default (full).
  std::optional<Synchronous> synchronous;
  /// Whether SQLite makes its syncs reach the disk itself, not only the
  /// drive's cache (`PRAGMA fullfsync` and `PRAGMA checkpoint_fullfsync`,
  /// set at open when true: F_FULLFSYNC on Apple platforms, where a plain
  /// fsync leaves data in the drive's cache that a power cut can lose). On by
  /// default on Apple platforms, off elsewhere, where fsync already reaches
  /// the disk and SQLite ignores the setting. Turning it off on Apple
  /// platforms trades the durability of the last commits at a power cut for
  /// faster commits. The core's own syncs (the by-name copy and creation)
  /// always use F_FULLFSYNC there.
  bool fullFsync =
#if defined(__APPLE__)
      true;
#else
      false;
#endif
  /// Refuses a database path that is a symbolic link or passes through one
  /// (SQLITE_OPEN_NOFOLLOW): the open fails with SQLITE_CANTOPEN
  /// (extended SQLITE_CANTOPEN_SYMLINK). Off by default.
  bool noFollowSymlinks = false;
  /// Reads a path that starts with "file:" as a URI (SQLITE_OPEN_URI), so
  /// "file:a.db?mode=ro" opens a.db read-only. On by default. When false such
  /// a path is a plain file name, relative to the working directory ("file:a.db"
  /// is the file named "file:a.db"; "file:/tmp/a.db" is the directory "file:"
  /// of the working directory, and fails with SQLITE_CANTOPEN when it is not
  /// there).
  bool uriFilenames = true;
  /// Opens the named in-memory database that every connection of this process
  /// opened with the same name shares (SQLite's shared cache, the URI
  /// "file:<name>?mode=memory&cache=shared", the name percent-escaped), instead
  /// of `path`, which must then be "" or ":memory:" (SQLITE_MISUSE otherwise).
  /// The database lives while one of its connections is open. An empty name or
  /// one holding a NUL byte fails with SQLITE_MISUSE. With `readOnly` the
  /// connection is `query_only` (writes fail with SQLITE_READONLY). Shared-cache
  /// connections lock whole tables: a connection that meets another's lock fails
  /// at once with SQLITE_LOCKED (the busy timeout does not apply). A
  /// `DatabasePool` refuses it with SQLITE_MISUSE; use a `DatabaseQueue`.
  std::optional<std::string> sharedCacheName;
  /// The encryption key (SQLCipher's passphrase; a raw key as
  /// "x'<64 hex digits>'"), given to SQLite right after the open, before
  /// anything reads the file. A new file is created encrypted; an existing
  /// one opens only with its key: a wrong key, or a file that is not
  /// encrypted, fails the open with SQLITE_NOTADB and a message saying so.
  /// Needs the encrypted build (`Database::isEncryptionAvailable()`): in the
  /// default build a key fails the open with SQLITE_MISUSE before any file
  /// is made, so nothing is ever written unencrypted. An empty key fails
  /// with SQLITE_MISUSE too. Empty (no key) opens a plain database.
  std::optional<std::string> key;
  /// With `key`: the major version of SQLCipher (1 to 4) whose file format
  /// and key derivation to use (SQLCipher's `PRAGMA cipher_compatibility`),
  /// set right after the key, before anything reads the file. 3 opens a
  /// database written by SQLCipher 3 (Debian 12's `sqlcipher` 3.4.1), whose
  /// defaults SQLCipher 4 does not read; what this connection writes then
  /// keeps that format (docs/encryption.md says how to move such a file to
  /// SQLCipher 4's). Empty (the default) uses SQLCipher 4's. Fails the open
  /// with SQLITE_MISUSE, before any file is made, without a key, outside 1
  /// to 4, or in the default build (which has no key).
  std::optional<int> cipherCompatibility;
  /// The VFS (SQLite's OS interface) the connection opens its file through,
  /// by its registered name ("unix-dotfile", "unix-none", a VFS an extension
  /// registers, ...); empty uses SQLite's default VFS. A name that is not
  /// registered fails the open with SQLITE_CANTOPEN naming it, before any
  /// file is made; when `extensions` are configured, they are first loaded
  /// into a private in-memory connection (on the default VFS), so that an
  /// extension that registers the VFS it provides (such as Litestream's)
  /// makes it available to this open. A name holding a NUL byte fails with
  /// SQLITE_MISUSE. A `DatabaseQueue` and a `DatabasePool` open every
  /// connection through it.
  std::string vfs;
  /// Extensions loaded, in order, into every connection at open (a
  /// `DatabaseQueue`'s, a `DatabasePool`'s writer and readers), after the
  /// busy timeout and the key and before the schema is first read (see
  /// `Extension` and `Database::loadExtension`). One that fails fails the
  /// open with its error (SQLITE_ERROR naming its path; SQLITE_MISUSE for an
  /// empty path or a NUL byte). Empty by default.
  std::vector<Extension> extensions;
  /// How many WAL frames (pages) a commit may leave in the write-ahead log
  /// before SQLite checkpoints it (`PRAGMA wal_autocheckpoint`, set at open
  /// with `sqlite3_wal_autocheckpoint`): -1 (the default) leaves SQLite's
  /// default (1000); 0 turns automatic checkpoints off (as Litestream, which
  /// checkpoints itself, recommends under heavy writes); a positive number
  /// sets it. Any other negative number fails the open with SQLITE_MISUSE
  /// before any file is made. Only WAL-mode databases checkpoint.
  int autoCheckpointPages = -1;
};

}  // namespace sqlitebridge
