#include "DatabaseState.hpp"

#include <vector>

namespace powerloss {

using sqlitebridge::Database;
using sqlitebridge::Row;

std::string integrityProblem(Database& db) {
  std::vector<Row> rows;
  if (!db.execute("PRAGMA integrity_check", &rows)) return "integrity_check failed: " + db.error();
  if (rows.size() == 1 && rows[0].value(0).asText() == "ok") return std::string();
  std::string first = rows.empty() ? std::string("nothing") : rows[0].value(0).asText();
  first = first.substr(0, first.find('\n'));
  return "integrity_check: " + first + (rows.size() > 1 ? " (and " + std::to_string(rows.size() - 1) + " more)" : "");
}

std::string stateOf(Database& db) {
  std::vector<Row> objects;
  if (!db.execute("SELECT type, name, tbl_name, ifnull(sql, '') FROM sqlite_master ORDER BY type, name", &objects)) {
    return "unreadable: " + db.error();
  }
  std::string state;
  for (const Row& object : objects) {
    const std::string type = object.value(0).asText();
    const std::string name = object.value(1).asText();
    state += type + " " + name + ": " + object.value(3).asText() + "\n";
    if (type != "table" || name.rfind("sqlite_", 0) == 0) continue;
    std::vector<Row> rows;
    std::string quoted = "\"";
    for (const char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    quoted += "\"";
    if (!db.execute("SELECT * FROM " + quoted + " ORDER BY rowid", &rows)) {
      state += "  unreadable: " + db.error() + "\n";
      continue;
    }
    for (const Row& row : rows) {
      state += " ";
      for (const auto& value : row.values()) state += " " + value.asText();
      state += "\n";
    }
  }
  return state;
}

std::string notIntact(Database& db) {
  if (!db.isOpen()) return "the database does not open: " + db.error();
  return integrityProblem(db);
}

std::string committedPrefix(Database& db, std::int64_t& count) {
  std::vector<Row> rows;
  count = 0;
  if (!db.execute("SELECT txn FROM commits ORDER BY txn", &rows)) return "reading commits: " + db.error();
  for (const Row& row : rows) {
    if (row.value(0).asInteger() != count + 1) {
      return "the commits are not a prefix: transaction " + std::to_string(count + 1) + " is missing";
    }
    ++count;
  }
  return std::string();
}

std::string judgeCommits(std::int64_t present, std::int64_t acknowledged, std::int64_t& lost) {
  lost = present < acknowledged ? acknowledged - present : 0;
  if (present > acknowledged + 1) {
    return std::to_string(present) + " transactions are there, " + std::to_string(acknowledged) + " were acknowledged";
  }
  return std::string();
}

std::int64_t scalar(Database& db, const std::string& sql, bool& ok) {
  std::vector<Row> rows;
  if (!db.execute(sql, &rows) || rows.empty() || rows[0].empty()) {
    ok = false;
    return 0;
  }
  return rows[0].value(0).asInteger();
}

}  // namespace powerloss
