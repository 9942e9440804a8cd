// Opening a Connection's sqlite3 handle. Internal.
#pragma once

#include <string>

#include "Connection.hpp"
#include "sqlitebridge/OpenMode.hpp"

namespace sqlitebridge {

/// Opens `path` in `mode` into `connection` (which must be closed), enables
/// extended result codes and reads the schema once so that a file that is
/// not a database fails here with SQLITE_NOTADB. On failure the connection
/// stays closed with its error set; returns false.
bool openConnection(Connection& connection, const std::string& path, OpenMode mode) noexcept;

}  // namespace sqlitebridge
