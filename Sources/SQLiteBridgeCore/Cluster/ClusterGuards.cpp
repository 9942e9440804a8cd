// The TEMP triggers that keep values a dqlite 1.11 node would abort on out
// of BOOLEAN and DATETIME/DATE/TIMESTAMP columns.
#include "ClusterGuards.hpp"

#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

constexpr const char* kGuardPrefix = "sqlitebridge-guard: ";

std::string literal(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += '\'';
    quoted += c;
  }
  return quoted + "'";
}

}  // namespace

const char* clusterGuardQuery() noexcept {
  // dqlite compares the declared type itself, case-insensitively and whole
  // ("BOOLEAN NOT NULL" declares "BOOLEAN"; "BOOL" is not BOOLEAN).
  return "SELECT m.name, p.name, upper(p.type) FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p "
         "WHERE m.type = 'table' AND upper(p.type) IN ('BOOLEAN', 'DATETIME', 'DATE', 'TIMESTAMP') "
         "ORDER BY 1, 2";
}

std::string clusterGuardScript(const std::vector<std::vector<Value>>& columns, std::vector<std::string>& installed) {
  std::string script;
  for (const std::string& name : installed) script += "DROP TRIGGER IF EXISTS temp." + quoteIdentifier(name) + ";";
  installed.clear();
  for (const std::vector<Value>& row : columns) {
    if (row.size() != 3) continue;
    const std::string table = row[0].asText();
    const std::string column = row[1].asText();
    const std::string type = row[2].asText();
    const bool boolean = type == "BOOLEAN";
    const std::string refused = boolean ? "('text', 'real', 'blob')" : "('real', 'blob')";
    const std::string message = std::string(kGuardPrefix) + "column \"" + table + "\".\"" + column + "\" is declared " +
                                type + ": a " + (boolean ? "text, real or blob value" : "real or blob value") +
                                " stored there would make every dqlite 1.11 node that reads it abort; store " +
                                (boolean ? "an integer or NULL" : "an integer, text or NULL");
    const std::string when = " WHEN typeof(NEW." + quoteIdentifier(column) + ") IN " + refused +
                             " BEGIN SELECT RAISE(ABORT, " + literal(message) + "); END;";
    const std::string base = "sqlitebridge_guard_" + std::to_string(installed.size() / 2 + 1);
    installed.push_back(base + "_insert");
    installed.push_back(base + "_update");
    script += "CREATE TEMP TRIGGER " + quoteIdentifier(installed[installed.size() - 2]) + " BEFORE INSERT ON main." +
              quoteIdentifier(table) + when;
    script += "CREATE TEMP TRIGGER " + quoteIdentifier(installed.back()) + " BEFORE UPDATE OF " +
              quoteIdentifier(column) + " ON main." + quoteIdentifier(table) + when;
  }
  return script;
}

bool isClusterGuardMessage(const std::string& message) noexcept { return message.rfind(kGuardPrefix, 0) == 0; }

}  // namespace sqlitebridge
