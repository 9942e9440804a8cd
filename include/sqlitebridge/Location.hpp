#pragma once

#include <string>

#include "Export.hpp"

namespace sqlitebridge {

/// Where a database opened by name lives and where its bundled seed copy is
/// looked for.
struct SQLITEBRIDGE_API Location {
  /// The writable directory: the database is `<documentsDirectory>/<name>`.
  /// It must exist; it is not created.
  std::string documentsDirectory;
  /// Where a read-only seed copy `<bundleDirectory>/<name>` is looked for on
  /// first open. Empty means no bundle: the database is always created.
  std::string bundleDirectory;

  /// On Apple platforms the app's Documents directory and the main bundle's
  /// resources directory; elsewhere the current working directory and the
  /// directory of the running executable. A directory that cannot be
  /// determined is left empty (an empty documents directory makes opening
  /// by name fail with SQLITE_CANTOPEN).
  static Location defaults();
};

}  // namespace sqlitebridge
