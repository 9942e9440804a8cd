// Random edits of the shared sync schema (Tests/Fixtures/sync/schema.sql),
// for the sync simulations: the long one (scripts/sync-simulation, device
// processes killed mid-sync) and the short one in the C++ suite. Each edit
// is one write transaction of 1 to 3 statements that inserts, updates or
// deletes notes (text keys), tags (a foreign key to notes, cascading) and
// counters (integer keys SQLite assigns, colliding across devices).
#pragma once

#include <sqlitebridge/Database.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sqlitebridge_simulation {

/// One statement and its arguments.
struct Statement {
  std::string sql;
  std::vector<sqlitebridge::Value> arguments;
};

/// The statements of one random transaction on `db` (read to pick rows
/// that exist), made by `device`; `serial` numbers the keys it invents
/// (unique per device as long as it grows).
inline std::vector<Statement> randomEdit(sqlitebridge::Database& db, const std::string& device, std::int64_t& serial,
                                         std::mt19937_64& random) {
  auto pick = [&](const std::string& sql) -> std::string {
    std::vector<sqlitebridge::Row> rows;
    if (!db.execute(sql, &rows) || rows.empty()) return std::string();
    return rows[random() % rows.size()].value(0).asText();
  };
  auto word = [&] { return std::to_string(random() % 1000); };
  std::vector<Statement> statements;
  const int count = 1 + static_cast<int>(random() % 3);
  for (int i = 0; i < count; ++i) {
    const std::string note = pick("SELECT id FROM notes");
    switch (random() % 10) {
      case 0:
      case 1:
      case 2: {
        const std::string id = device + "-n" + std::to_string(++serial);
        statements.push_back({"INSERT INTO notes(id, title, body) VALUES (?, ?, ?)", {id, "title " + word(), word()}});
        break;
      }
      case 3:
        if (note.empty()) break;
        statements.push_back({"UPDATE notes SET title = ? WHERE id = ?", {"edited " + word(), note}});
        break;
      case 4:
        if (note.empty()) break;
        statements.push_back({"UPDATE notes SET body = body || ? WHERE id = ?", {word(), note}});
        break;
      case 5:
        if (note.empty()) break;
        statements.push_back({"DELETE FROM notes WHERE id = ?", {note}});
        break;
      case 6: {
        if (note.empty()) break;
        const std::string id = device + "-t" + std::to_string(++serial);
        statements.push_back({"INSERT INTO tags(id, note_id, name) VALUES (?, ?, ?)", {id, note, "tag " + word()}});
        break;
      }
      case 7: {
        const std::string tag = pick("SELECT id FROM tags");
        if (tag.empty()) break;
        statements.push_back(
            {random() % 2 == 0 ? "DELETE FROM tags WHERE id = ?" : "UPDATE tags SET name = name || '!' WHERE id = ?",
             {tag}});
        break;
      }
      case 8:
        statements.push_back({"INSERT INTO counters(label, value) VALUES (?, ?)",
                              {device + " counter", static_cast<std::int64_t>(random() % 100)}});
        break;
      default: {
        const std::string counter = pick("SELECT id FROM counters");
        if (counter.empty()) break;
        statements.push_back(
            {"UPDATE counters SET value = value + 1 WHERE id = ?", {static_cast<std::int64_t>(std::stoll(counter))}});
        break;
      }
    }
  }
  return statements;
}

/// Runs `statements` on `db` (inside the caller's transaction): false when
/// one fails (the caller rolls back).
inline bool run(sqlitebridge::Database& db, const std::vector<Statement>& statements) {
  for (const Statement& statement : statements) {
    if (!db.execute(statement.sql, statement.arguments)) return false;
  }
  return true;
}

/// Every row of the synced tables, in key order, one line per row.
inline std::vector<std::string> syncedRows(sqlitebridge::Database& db) {
  std::vector<std::string> lines;
  for (const char* table : {"notes", "tags", "counters"}) {
    lines.push_back(std::string("-- ") + table);
    std::vector<sqlitebridge::Row> rows;
    if (!db.execute(std::string("SELECT * FROM ") + table + " ORDER BY id", &rows)) {
      lines.push_back("(unreadable: " + db.lastError().message + ")");
      continue;
    }
    for (const sqlitebridge::Row& row : rows) {
      std::string line;
      for (std::size_t i = 0; i < row.size(); ++i) {
        const sqlitebridge::Value value = row.value(i);
        line += (i == 0 ? "" : "|") + (value.isNull() ? std::string("NULL") : value.asText());
      }
      lines.push_back(line);
    }
  }
  return lines;
}

}  // namespace sqlitebridge_simulation
