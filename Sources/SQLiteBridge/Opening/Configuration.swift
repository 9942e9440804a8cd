import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// How a connection is set up when it opens, before anything reads the file
/// (the C++ `sqlitebridge::Configuration`, whose defaults these are).
/// `Database`, `DatabaseQueue` and `DatabasePool` open their connections with
/// it (a pool's readers read-only).
public struct Configuration: Sendable, Equatable {
  /// How long the open and every later statement wait for another
  /// connection's lock (a writer, a commit, a WAL recovery or checkpoint)
  /// before failing with `.busy`. 5 seconds by default; zero or
  /// less fails at once; kept to whole milliseconds (at most `Int32.max`).
  public var busyTimeout: Duration
  /// Whether the connection enforces foreign keys (`PRAGMA foreign_keys`,
  /// set at open); on by default.
  public var foreignKeysEnabled: Bool
  /// Opens the file read-only: every write throws `.readOnly`, and a missing
  /// file is not created (`.cantOpen`); by name, a database not copied or
  /// created yet throws `.cantOpen` instead of being made.
  public var readOnly: Bool
  /// How many reader connections a database pool opens at most.
  public var maximumReaderCount: Int
  /// How often the observations of a `DatabaseQueue` or `DatabasePool`
  /// (`ValueObservation`, `DatabaseRegionObservation`) look for commits made
  /// by any other connection or process on the same file (`PRAGMA
  /// data_version`, polled by a thread of the queue's or pool's own, started
  /// with the first observation, on the queue's connection, or on a
  /// read-only connection a pool opens for it alone: never the pool's
  /// writer, which a check would wait for, nor one of its readers, whose
  /// versions are each their own): such a commit counts as a change of the
  /// whole database.
  /// Nil (the default), zero or less: only the queue's or pool's own
  /// commits are seen. Kept to whole milliseconds, at least 1. A plain
  /// `Database` ignores it.
  public var externalChangeCheckInterval: Duration?

  // Open options: applied by every open, after the busy timeout and before
  // the first statement. A failed option fails the open (it throws).

  /// The journal mode set at open (`PRAGMA journal_mode`); nil (the default)
  /// leaves the file's mode. When SQLite keeps another mode (an in-memory
  /// database stays in `memory` unless asked for `off`; a read-only
  /// connection cannot switch to `wal`, `.readOnly`) the open throws `.error`
  /// naming the mode asked and the mode kept. A `DatabasePool` accepts only
  /// nil or `.wal` (`.misuse` otherwise), as it runs in WAL.
  public var journalMode: JournalMode?
  /// The synchronous level set at open (`PRAGMA synchronous`); nil (the
  /// default) leaves SQLite's (`full`).
  public var synchronous: Synchronous?
  /// Whether SQLite makes its syncs reach the disk itself, not only the
  /// drive's cache (`PRAGMA fullfsync` and `PRAGMA checkpoint_fullfsync`,
  /// set at open when true: `F_FULLFSYNC` on Apple platforms, where a plain
  /// fsync leaves data in the drive's cache that a power cut can lose). The
  /// core's default: on on Apple platforms, off elsewhere, where fsync
  /// already reaches the disk and SQLite ignores the setting. Turning it off
  /// on Apple platforms trades the durability of the last commits at a power
  /// cut for faster commits. The core's own syncs (the by-name copy and
  /// creation) always use `F_FULLFSYNC` there.
  public var fullFsync: Bool
  /// Refuses a database path that is a symbolic link or passes through one
  /// (`SQLITE_OPEN_NOFOLLOW`): the open throws `.cantOpen` (extended code
  /// `SQLITE_CANTOPEN_SYMLINK`). Off by default.
  public var noFollowSymlinks: Bool
  /// Reads a path that starts with `file:` as a URI (`SQLITE_OPEN_URI`), so
  /// `file:a.db?mode=ro` opens a.db read-only. On by default. When false
  /// such a path is a plain file name relative to the working directory
  /// (`file:/tmp/a.db` is the directory `file:` of the working directory,
  /// and throws `.cantOpen` when it is not there).
  public var uriFilenames: Bool
  /// Opens the named in-memory database that every connection of this
  /// process opened with the same name shares (SQLite's shared cache, the URI
  /// `file:<name>?mode=memory&cache=shared` with the name percent-escaped)
  /// instead of the path, which must then be `""` or `":memory:"` (`.misuse`
  /// otherwise). The database lives while one of its connections is open. An
  /// empty name or one holding a NUL character throws `.misuse`. With
  /// `readOnly` the connection is `query_only` (writes throw `.readOnly`).
  /// Shared-cache connections lock whole tables: one that meets another's
  /// lock throws `.locked` at once (the busy timeout does not apply). A
  /// `DatabasePool` refuses it with `.misuse`; use a `DatabaseQueue`.
  public var sharedCacheName: String?
  /// The encryption key (SQLCipher's passphrase, its UTF-8 bytes all used,
  /// a NUL character included; a raw key as `"x'<64 hex digits>'"`), given
  /// to SQLite right after the open, before anything reads the file. A new
  /// file is created encrypted; an existing one opens only with its key: a
  /// wrong key, or a file that is not encrypted, throws `.notADatabase` with
  /// a message starting "the key is wrong, or the file is not an encrypted
  /// database". Needs the encrypted build (`Database.isEncryptionAvailable`,
  /// the package trait `SQLCipher`): in the default build a key throws
  /// `.misuse` before any file is made, so nothing is ever written
  /// unencrypted. An empty key throws `.misuse` too. Nil (the default)
  /// opens a plain database. A `DatabaseQueue` or `DatabasePool` opens every
  /// connection with it.
  public var key: String?
  /// With ``key``: the major version of SQLCipher (1 to 4) whose file format
  /// and key derivation to use (SQLCipher's `PRAGMA cipher_compatibility`),
  /// set before anything reads the file. 3 opens a database written by
  /// SQLCipher 3 (Debian 12's `sqlcipher` 3.4.1), which SQLCipher 4's
  /// defaults do not read; what the connection writes keeps that format
  /// (the encryption article says how to move such a file to SQLCipher 4's).
  /// Nil (the default) uses SQLCipher 4's. Throws `.misuse` at open, before
  /// any file is made, without a key, outside 1...4, or in the default build.
  public var cipherCompatibility: Int?
  /// The VFS (SQLite's OS interface) every connection opens its file
  /// through, by its registered name (`"unix-dotfile"`, `"unix-none"`, a
  /// VFS an extension registers, ...); nil (the default) uses SQLite's
  /// default VFS. A name that is not registered throws `.cantOpen` naming
  /// it, before any file is made; when `extensions` are configured they are
  /// first loaded into a private in-memory connection, so that an extension
  /// that registers the VFS it provides (such as Litestream's) makes it
  /// available to this open. A name holding a NUL character throws
  /// `.misuse`.
  public var vfs: String?
  /// Extensions loaded, in order, into every connection at open (a
  /// `DatabaseQueue`'s, a `DatabasePool`'s writer and readers), before the
  /// schema is first read (see `SQLiteExtension` and
  /// `Database.loadExtension(path:entryPoint:)`). One that fails fails the
  /// open: `.error` naming its path, `.misuse` for an empty path or a NUL
  /// character. Empty by default.
  public var extensions: [SQLiteExtension]
  /// How many pages a commit may leave in the write-ahead log before SQLite
  /// checkpoints it (`PRAGMA wal_autocheckpoint`, set at open): nil (the
  /// default) or -1 (the core's default) leaves SQLite's default (1000); 0
  /// turns automatic checkpoints off (as Litestream, which checkpoints
  /// itself, recommends under heavy writes); a positive number sets it (at
  /// most `Int32.max`). Any other negative number throws `.misuse` at open,
  /// before any file is made. Only WAL-mode databases checkpoint.
  public var autoCheckpointPages: Int?

  /// The defaults (the core's): a 5-second busy timeout, foreign keys
  /// enforced, read-write, 5 readers; no journal mode or synchronous level
  /// set, full fsync on Apple platforms only, symbolic links followed, URIs
  /// read, no shared cache, no key; the default VFS, no extensions, SQLite's
  /// automatic checkpoints.
  public init() {
    let defaults = sqlitebridge.Configuration()
    busyTimeout = .milliseconds(defaults.busyTimeoutMilliseconds)
    foreignKeysEnabled = defaults.foreignKeys
    readOnly = defaults.readOnly
    maximumReaderCount = Int(defaults.maximumReaderCount)
    fullFsync = defaults.fullFsync
    noFollowSymlinks = defaults.noFollowSymlinks
    uriFilenames = defaults.uriFilenames
    extensions = []
  }

  var cxx: sqlitebridge.Configuration {
    var configuration = sqlitebridge.Configuration()
    configuration.busyTimeoutMilliseconds = busyTimeout.wholeMilliseconds
    configuration.foreignKeys = foreignKeysEnabled
    configuration.readOnly = readOnly
    configuration.maximumReaderCount = Int32(clamping: maximumReaderCount)
    if let interval = externalChangeCheckInterval, interval > .zero {
      configuration.externalChangeCheckMilliseconds = max(1, interval.wholeMilliseconds)
    }
    if let journalMode {
      sqlitebridge.interop.ConfigurationAccess.setJournalMode(&configuration, journalMode.cxx)
    }
    if let synchronous {
      sqlitebridge.interop.ConfigurationAccess.setSynchronous(&configuration, synchronous.cxx)
    }
    configuration.fullFsync = fullFsync
    configuration.noFollowSymlinks = noFollowSymlinks
    configuration.uriFilenames = uriFilenames
    if let sharedCacheName {
      sqlitebridge.interop.ConfigurationAccess.setSharedCacheName(&configuration, std.string(sharedCacheName))
    }
    if let key {
      sqlitebridge.interop.ConfigurationAccess.setKey(&configuration, std.string(key))
    }
    if let cipherCompatibility {
      sqlitebridge.interop.ConfigurationAccess.setCipherCompatibility(
        &configuration, Int32(clamping: cipherCompatibility))
    }
    if let vfs {
      sqlitebridge.interop.ConfigurationAccess.setVfs(&configuration, std.string(vfs))
    }
    for extensionToLoad in extensions {
      sqlitebridge.interop.ConfigurationAccess.addExtension(
        &configuration, std.string(extensionToLoad.path), std.string(extensionToLoad.entryPoint ?? ""))
    }
    if let autoCheckpointPages {
      configuration.autoCheckpointPages = Int32(clamping: autoCheckpointPages)
    }
    return configuration
  }
}

extension Duration {
  /// Whole milliseconds, rounded toward zero and clamped to `Int32`, as the
  /// core takes a timeout.
  var wholeMilliseconds: Int32 {
    let (seconds, attoseconds) = components
    let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
    guard !milliseconds.overflow else { return seconds < 0 ? Int32.min : Int32.max }
    let (total, overflow) = milliseconds.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
    guard !overflow else { return seconds < 0 ? Int32.min : Int32.max }
    return Int32(clamping: total)
  }
}
