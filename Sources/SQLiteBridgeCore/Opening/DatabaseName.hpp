// The rule for a database name (a file directly inside the documents
// directory), shared by opening and removing by name. Internal.
#pragma once

#include <string>

namespace sqlitebridge {

/// Why `name` cannot name a database file directly inside the documents
/// directory, or nullptr when it can.
const char* databaseNameProblem(const std::string& name) noexcept;

/// "invalid database name \"<name>\": <problem>", NUL bytes shown as `?`.
std::string invalidDatabaseNameMessage(const std::string& name, const char* problem);

/// "invalid seed name \"<name>\" for database \"<database>\": <problem>",
/// NUL bytes shown as `?`. A seed name (`Location::seedName`) obeys the rule
/// of a database name: it names a file directly inside the bundle
/// directory.
std::string invalidSeedNameMessage(const std::string& name, const std::string& database, const char* problem);

}  // namespace sqlitebridge
