// Guards against the values that make a dqlite 1.11 node abort when it
// reads them back: its row encoder asserts that a column declared BOOLEAN
// holds an integer or NULL, and one declared DATETIME, DATE or TIMESTAMP
// an integer, text or NULL. The client keeps, on its own connection to the
// leader, a TEMP trigger per such column and per INSERT / UPDATE that
// refuses anything else with a message of ours; the client reports that
// as SQLITE_MISUSE. TEMP triggers live with the connection (nothing is
// replicated, other clients are not affected) and see every write this
// client sends, literals and expressions included. Internal.
#pragma once

#include <string>
#include <vector>

namespace sqlitebridge {

/// Whether a column declared `type` is one dqlite 1.11 converts and may
/// abort on: BOOLEAN, DATETIME, DATE or TIMESTAMP, compared as dqlite does
/// (the whole declared type, ASCII case ignored; "BOOL" is none of them).
bool isGuardedType(const char* type) noexcept;

/// Whether a value of SQLite type `kind` ("integer", "text", "real",
/// "blob", "null", as typeof gives it) in a column declared `type` (upper
/// case, a guarded one) makes a dqlite 1.11 node abort.
bool isRefusedKind(const std::string& type, const std::string& kind) noexcept;

/// The script that drops the guards `installed` names and creates one pair
/// for each row of `columns` (schema, table, column, declared type in upper
/// case, default, "generated" or "", as `ClusterShadowSchema::guardedColumns`
/// gives them): BEFORE INSERT and BEFORE UPDATE OF the column for a stored
/// column; AFTER INSERT and AFTER UPDATE (of any column: its value comes
/// from others) for a generated one, whose value BEFORE triggers cannot
/// see. `installed` becomes the new names. Empty when there is nothing to
/// do.
std::string clusterGuardScript(const std::vector<std::vector<std::string>>& columns,
                               std::vector<std::string>& installed);

/// Whether `message` is a guard's refusal.
bool isClusterGuardMessage(const std::string& message) noexcept;

}  // namespace sqlitebridge
