// The TEMP triggers that keep values a dqlite 1.11 node would abort on out
// of BOOLEAN and DATETIME/DATE/TIMESTAMP columns.
#include "ClusterGuards.hpp"

#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kGuardPrefix = "sqlitebridge-guard: ";

}  // namespace

bool isGuardedType(const char* type) noexcept {
  if (type == nullptr) return false;
  for (const char* guarded : {"BOOLEAN", "DATETIME", "DATE", "TIMESTAMP"}) {
    if (sameIdentifier(type, guarded)) return true;
  }
  return false;
}

std::string clusterGuardScript(const std::vector<std::vector<std::string>>& columns,
                               std::vector<std::string>& installed) {
  std::string script;
  for (const std::string& name : installed) script += "DROP TRIGGER IF EXISTS temp." + quoteIdentifier(name) + ";";
  installed.clear();
  for (const std::vector<std::string>& row : columns) {
    if (row.size() != 4) continue;
    const std::string& schema = row[0];
    const std::string& table = row[1];
    const std::string& column = row[2];
    const std::string& type = row[3];
    const bool boolean = type == "BOOLEAN";
    const std::string refused = boolean ? "('text', 'real', 'blob')" : "('real', 'blob')";
    const std::string message = std::string(kGuardPrefix) + "column \"" + table + "\".\"" + column + "\" is declared " +
                                type + ": a " + (boolean ? "text, real or blob value" : "real or blob value") +
                                " stored there would make every dqlite 1.11 node that reads it abort; store " +
                                (boolean ? "an integer or NULL" : "an integer, text or NULL");
    const std::string when = " WHEN typeof(NEW." + quoteIdentifier(column) + ") IN " + refused +
                             " BEGIN SELECT RAISE(ABORT, " + quoteStringLiteral(message) + "); END;";
    const std::string base = "sqlitebridge_guard_" + std::to_string(installed.size() / 2 + 1);
    installed.push_back(base + "_insert");
    installed.push_back(base + "_update");
    script += "CREATE TEMP TRIGGER " + quoteIdentifier(installed[installed.size() - 2]) + " BEFORE INSERT ON " +
              quoteIdentifier(schema) + "." + quoteIdentifier(table) + when;
    script += "CREATE TEMP TRIGGER " + quoteIdentifier(installed.back()) + " BEFORE UPDATE OF " +
              quoteIdentifier(column) + " ON " + quoteIdentifier(schema) + "." + quoteIdentifier(table) + when;
  }
  return script;
}

bool isClusterGuardMessage(const std::string& message) noexcept { return message.rfind(kGuardPrefix, 0) == 0; }

}  // namespace sqlitebridge
