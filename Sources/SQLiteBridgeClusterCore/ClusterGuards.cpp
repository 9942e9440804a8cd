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

bool isRefusedKind(const std::string& type, const std::string& kind) noexcept {
  if (kind == "real" || kind == "blob") return true;
  return type == "BOOLEAN" && kind == "text";
}

std::string clusterGuardScript(const std::vector<std::vector<std::string>>& columns,
                               std::vector<std::string>& installed) {
  std::string script;
  for (const std::string& name : installed) script += "DROP TRIGGER IF EXISTS temp." + quoteIdentifier(name) + ";";
  installed.clear();
  for (const std::vector<std::string>& row : columns) {
    if (row.size() < 4) continue;
    const std::string& schema = row[0];
    const std::string& table = row[1];
    const std::string& column = row[2];
    const std::string& type = row[3];
    const bool boolean = type == "BOOLEAN";
    const bool generated = row.size() > 5 && row[5] == "generated";
    const std::string refused = boolean ? "('text', 'real', 'blob')" : "('real', 'blob')";
    const std::string message = std::string(kGuardPrefix) + "column \"" + table + "\".\"" + column + "\" is declared " +
                                type + ": a " + (boolean ? "text, real or blob value" : "real or blob value") +
                                (generated ? " computed there (it is generated)" : " stored there") +
                                " would make every dqlite 1.11 node that reads it abort; " +
                                (generated ? "let it compute " : "store ") +
                                (boolean ? "an integer or NULL" : "an integer, text or NULL");
    const std::string when = " WHEN typeof(NEW." + quoteIdentifier(column) + ") IN " + refused +
                             " BEGIN SELECT RAISE(ABORT, " + quoteStringLiteral(message) + "); END;";
    const std::string base = "sqlitebridge_guard_" + std::to_string(installed.size() / 2 + 1);
    installed.push_back(base + "_insert");
    installed.push_back(base + "_update");
    const std::string on = " ON " + quoteIdentifier(schema) + "." + quoteIdentifier(table);
    script += "CREATE TEMP TRIGGER " + quoteIdentifier(installed[installed.size() - 2]) +
              (generated ? " AFTER INSERT" : " BEFORE INSERT") + on + when;
    script += "CREATE TEMP TRIGGER " + quoteIdentifier(installed.back()) +
              (generated ? " AFTER UPDATE" : " BEFORE UPDATE OF " + quoteIdentifier(column)) + on + when;
  }
  return script;
}

bool isClusterGuardMessage(const std::string& message) noexcept { return message.rfind(kGuardPrefix, 0) == 0; }

}  // namespace sqlitebridge
