#pragma once

#include <string>

namespace sqlitebridge {

/// A loadable SQLite extension (a shared library) that
/// `Configuration::extensions` loads into every connection at open, as
/// `Database::loadExtension(path, entryPoint)` does into one.
///
/// Loading goes through the C API only (`sqlite3_load_extension`), enabled
/// for that one call and disabled again right after: the SQL function
/// `load_extension()` stays disabled on every connection. A missing file, an
/// entry point the file lacks or an init that fails is an error (SQLITE_ERROR
/// with SQLite's reason) naming `path`, and fails the open.
struct Extension {
  /// The file to load, as `sqlite3_load_extension` takes it: SQLite tries
  /// it as given, then with the platform's suffix (".so", ".dylib",
  /// ".dll") appended. A relative path is resolved by the dynamic loader
  /// (the working directory when it holds a "/"; otherwise the loader's
  /// search path). Empty, or holding a NUL byte: SQLITE_MISUSE.
  std::string path;
  /// The name of the init function to call; empty uses SQLite's default
  /// rule ("sqlite3_extension_init", then "sqlite3_X_init" where X is the
  /// file name's letters, lower-cased, without a leading "lib" and from the
  /// first "." on). Holding a NUL byte: SQLITE_MISUSE.
  std::string entryPoint;
};

}  // namespace sqlitebridge
