// Opening a Connection's sqlite3 handle. Internal.
#pragma once

#include <string>

#include "Connection.hpp"
#include "sqlitebridge/Configuration.hpp"
#include "sqlitebridge/OpenMode.hpp"

namespace sqlitebridge {

/// Opens `path` in `mode` into `connection` (which must be closed), enables
/// extended result codes, sets the busy timeout of `configuration` and only
/// then reads the schema once, so that a file that is not a database fails
/// here with SQLITE_NOTADB while a lock another connection holds is waited
/// for. A lock held longer than the timeout fails with SQLITE_BUSY, saying
/// so. Then the open options of `configuration` (journal mode, synchronous;
/// the flags, URI reading and shared cache name before the open), so that
/// the caller's first statement runs with them. On failure the connection stays closed with its error set; returns
/// false.
bool openConnection(Connection& connection, const std::string& path, OpenMode mode,
                    const Configuration& configuration) noexcept;

}  // namespace sqlitebridge
