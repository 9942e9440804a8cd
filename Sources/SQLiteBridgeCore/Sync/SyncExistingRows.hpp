// The rows already in the synced tables, recorded as one pending change of
// inserts (`SyncEngine::recordExistingRows`). Internal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sqlitebridge/Error.hpp"

namespace sqlitebridge {

class Database;

/// On the writer `db`, outside any transaction: records every row of
/// `tables` as one pending change (an insert per row) in one transaction,
/// their number into `rows` (0, and nothing recorded, when the tables are
/// empty). The inserts are SQLite's session diff against an empty copy of
/// each table, made in an in-memory schema attached for the call and
/// detached after it, whatever happens. Fails with SQLite's error (a
/// transaction already open: "cannot ATTACH database within transaction";
/// SQLITE_BUSY), nothing recorded.
bool recordExistingSyncedRows(Database& db, const std::vector<std::string>& tables, std::int64_t& rows,
                              Error* error) noexcept;

}  // namespace sqlitebridge
