// For the Swift facade only; no stability promise. Opening and files as Swift
// drives them: the optional open options of a `Configuration`, where a
// bundle's seed directory is, a backup with a C progress callback, and the
// library's version and options. Never included by
// <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Opening/BundleLookup.cpp and LibraryInfo.cpp (the
// rest is inline).
#pragma once

#include <string>

#include "../Export.hpp"
#include "../sqlitebridge.hpp"
#include "SwiftBox.hpp"
#include "Values.hpp"

namespace sqlitebridge::interop {

/// Sets the open options of a `Configuration` that are `std::optional`,
/// which Swift can read but not assign a value to. A name that cannot be
/// copied (out of memory) ends the process, as running out of memory does in
/// Swift.
struct ConfigurationAccess {
  /// Sets `journalMode`.
  static void setJournalMode(Configuration& configuration, JournalMode mode) noexcept {
    configuration.journalMode = mode;
  }
  /// Sets `synchronous`.
  static void setSynchronous(Configuration& configuration, Synchronous level) noexcept {
    configuration.synchronous = level;
  }
  /// Sets `sharedCacheName`.
  static void setSharedCacheName(Configuration& configuration, const std::string& name) noexcept {
    configuration.sharedCacheName = name;
  }
  /// Sets `key`; its bytes are copied whole (a NUL is part of the key).
  static void setKey(Configuration& configuration, const std::string& key) noexcept { configuration.key = key; }
  /// Sets `cipherCompatibility`.
  static void setCipherCompatibility(Configuration& configuration, int version) noexcept {
    configuration.cipherCompatibility = version;
  }
  /// Sets `vfs`.
  static void setVfs(Configuration& configuration, const std::string& vfs) noexcept { configuration.vfs = vfs; }
  /// Appends to `extensions` (the order is the loading order).
  static void addExtension(Configuration& configuration, const std::string& path,
                           const std::string& entryPoint) noexcept {
    configuration.extensions.push_back(Extension{path, entryPoint});
  }
};

/// Where the Swift `DatabaseLocation`'s bundle initializers find a seed
/// directory: the rules (a bundle's usable directory; where SwiftPM puts a
/// resource bundle) and their SQLITE_CANTOPEN errors, which the core owns
/// since it owns the file system and the wording of errors. The Swift
/// facade hands over what only Foundation knows (a `Bundle`'s paths, the
/// main bundle's and executable's directories).
struct SQLITEBRIDGE_API BundleLookup {
  /// Sets `directory` to where a bundle's seeds are read from:
  /// `resourcePath` when it is a directory, else `bundlePath` when it is
  /// one. Otherwise (both empty, missing, or not directories) returns false
  /// with `directory` empty and `error` set to SQLITE_CANTOPEN naming the
  /// bundle and both paths; the same when a path holds NUL. `error` is
  /// cleared on success.
  static bool bundleDirectory(const std::string& bundlePath, const std::string& resourcePath, std::string& directory,
                              Error& error) noexcept;
  /// Sets `directory` to the resource directory of SwiftPM's resource bundle
  /// `name` (`<package>_<target>`) in the first of `searchDirectories` that
  /// holds one, trying in each `<name>.resources` (Linux),
  /// `<name>.bundle/Contents/Resources` (macOS) and `<name>.bundle` (iOS,
  /// tvOS, watchOS, visionOS), each only when it is a directory. Empty
  /// entries are skipped and a repeated one is looked at once. Otherwise
  /// returns false with `directory` empty and `error` set to SQLITE_CANTOPEN
  /// naming the bundle and every directory looked in (or saying that there
  /// was none); also when `name` is empty or holds `/` or NUL, or a search
  /// directory holds NUL. `error` is cleared on success.
  static bool findResourceBundle(const std::string& name, const StringList& searchDirectories, std::string& directory,
                                 Error& error) noexcept;
};

/// `Database::backup` with a C callback, so that a Swift closure reaches the
/// core's backup loop through a box.
struct BackupAccess {
  /// Called after each step with the pages left and the pages in all;
  /// returning false stops the copy (it fails with SQLITE_ABORT).
  using Progress = bool (*)(SwiftBox box, int remaining, int total);
  /// `source.backup(destination, pagesPerStep, …)` calling `progress(box,
  /// remaining, total)` (when not null) after each step; same failures.
  static bool backup(Database& source, Database& destination, int pagesPerStep, Progress progress,
                     SwiftBox box) noexcept {
    return source.backupInto(destination, pagesPerStep, progress, box);
  }
};

/// The SQLite library in use and a connection's handle, with the types Swift
/// can call.
struct SQLITEBRIDGE_API LibraryInfo {
  /// `Database::sqliteVersion`; false (empty) only when memory runs out.
  static bool sqliteVersion(std::string& version) noexcept;
  /// `Database::compileOptions`; false (empty) only when memory runs out.
  static bool compileOptions(StringList& options) noexcept;
  /// `Database::handle` (Swift does not import a member function returning
  /// a pointer): null when closed; the `Database` still owns it.
  static sqlite3* handle(const Database& database) noexcept { return database.handle(); }
};

}  // namespace sqlitebridge::interop
