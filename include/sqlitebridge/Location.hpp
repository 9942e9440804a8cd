#pragma once

#include <string>

#include "Export.hpp"

namespace sqlitebridge {

/// Where a database opened by name lives, where its bundled seed copy is
/// looked for, and under which name.
struct SQLITEBRIDGE_API Location {
  /// The writable directory: the database is `<documentsDirectory>/<name>`.
  /// It must exist; it is not created.
  std::string documentsDirectory;
  /// Where a read-only seed copy `<bundleDirectory>/<seedName>` is looked
  /// for on first open. Empty means no bundle: the database is always
  /// created.
  std::string bundleDirectory;
  /// The seed's file name in `bundleDirectory`; empty (the default) means
  /// the database's own name. On first open `<bundleDirectory>/<seedName>`
  /// is copied to `<documentsDirectory>/<name>` (atomically, as a seed of
  /// the database's own name); when there is no such file the database is
  /// created with its creation SQL. A seed name that is set obeys the rules
  /// of a database name (a file name directly inside the directory: not `.`
  /// or `..`, no `/`, `\` or NUL, at most 247 bytes, not ending in
  /// `-journal`, `-wal` or `-shm`, not starting with `.sqlitebridge-`): an
  /// invalid one fails every open by name with SQLITE_CANTOPEN and a message
  /// naming it ("invalid seed name ..."), before anything is read or made,
  /// whether or not a copy would be needed. Removing a database by name
  /// ignores it.
  std::string seedName;

  /// On Apple platforms the app's Documents directory and the main bundle's
  /// resources directory; elsewhere the current working directory and the
  /// directory of the running executable. A directory that cannot be
  /// determined is left empty (an empty documents directory makes opening
  /// by name fail with SQLITE_CANTOPEN).
  static Location defaults();
};

}  // namespace sqlitebridge
