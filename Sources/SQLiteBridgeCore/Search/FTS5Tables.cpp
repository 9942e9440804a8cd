#include <new>
#include <string>

#include "Connection.hpp"
#include "FTS5Support.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/FTS5.hpp"

namespace sqlitebridge {
namespace {

// The tokenize option's value: each word an SQL string literal ('…', every
// ' doubled), which is how FTS5 reads a word that is not a bareword, and the
// whole in double quotes (every " doubled), which FTS5 strips first. So any
// tokenchars or separators stay one word.
std::string tokenizeOption(const FTS5Tokenizer& tokenizer) {
  std::string words;
  for (const std::string& word : tokenizer.words) {
    if (!words.empty()) words += ' ';
    words += quoteStringLiteral(word);
  }
  return quoteIdentifier(words);
}

bool holdsNul(const std::string& text) { return text.find('\0') != std::string::npos; }

}  // namespace

FTS5Tokenizer FTS5Tokenizer::unicode61(int removeDiacritics, const std::string& tokenChars,
                                       const std::string& separators) {
  FTS5Tokenizer tokenizer{{"unicode61", "remove_diacritics", std::to_string(removeDiacritics)}};
  if (!tokenChars.empty()) tokenizer.words.insert(tokenizer.words.end(), {"tokenchars", tokenChars});
  if (!separators.empty()) tokenizer.words.insert(tokenizer.words.end(), {"separators", separators});
  return tokenizer;
}

FTS5Tokenizer FTS5Tokenizer::ascii() { return FTS5Tokenizer{{"ascii"}}; }

FTS5Tokenizer FTS5Tokenizer::porter(const FTS5Tokenizer& base) {
  FTS5Tokenizer tokenizer{{"porter"}};
  tokenizer.words.insert(tokenizer.words.end(), base.words.begin(), base.words.end());
  return tokenizer;
}

FTS5Tokenizer FTS5Tokenizer::trigram(bool caseSensitive) {
  return FTS5Tokenizer{{"trigram", "case_sensitive", caseSensitive ? "1" : "0"}};
}

bool Database::createFTS5Table(const std::string& name, const std::vector<std::string>& columns,
                               const FTS5TableOptions& options) noexcept {
  if (!beginCall()) return false;
  try {
    Error problem;
    if (fts5Api(connection_->db, problem) == nullptr) return connection_->fail(problem.code, problem.message, "");
    if (columns.empty()) return connection_->fail(SQLITE_MISUSE, "an FTS5 table needs at least one column", "");
    bool nul = holdsNul(name) || holdsNul(options.contentTable) || holdsNul(options.contentRowID);
    for (const std::string& word : options.tokenizer.words) nul = nul || holdsNul(word);
    for (const std::string& column : columns) nul = nul || holdsNul(column);
    if (nul) return connection_->fail(SQLITE_MISUSE, "an FTS5 table's name, columns or options hold a NUL byte", "");
    const bool external = options.content == FTS5Content::External;
    if (external && options.contentTable.empty()) {
      return connection_->fail(SQLITE_MISUSE, "an FTS5 table with external content needs its content table", "");
    }

    const std::string table = quoteIdentifier(name);
    std::string columnList;
    for (const std::string& column : columns) columnList += ", " + quoteIdentifier(column);
    std::string create = "CREATE VIRTUAL TABLE " + table + " USING fts5(" + columnList.substr(2);
    create += ", tokenize = " + tokenizeOption(options.tokenizer);
    if (options.content == FTS5Content::Contentless) create += ", content = ''";
    if (external) {
      const std::string rowID = options.contentRowID.empty() ? "rowid" : options.contentRowID;
      // FTS5 strips the quotes of both values and quotes the names itself
      // when it writes its own SQL.
      create +=
          ", content = " + quoteStringLiteral(options.contentTable) + ", content_rowid = " + quoteStringLiteral(rowID);
    }
    create += ")";
    if (!external) return execute(create);

    // FTS5 reports a content table without one of the columns only as "SQL
    // logic error" when it first reads it: name the column instead.
    std::vector<std::string> needed = columns;
    if (!options.contentRowID.empty() && !sameIdentifier(options.contentRowID, "rowid")) {
      needed.push_back(options.contentRowID);
    }
    for (const std::string& column : needed) {
      if (!hasTableColumn(options.contentTable, column)) {
        if (connection_->error.isError()) return false;  // no such table, or a failed lookup
        return connection_->fail(SQLITE_ERROR,
                                 "the content table " + quoteIdentifier(options.contentTable) + " has no column " +
                                     quoteIdentifier(column) + " for the FTS5 table " + table,
                                 "");
      }
    }
    const std::string content = quoteIdentifier(options.contentTable);
    const std::string rowID = quoteIdentifier(options.contentRowID.empty() ? "rowid" : options.contentRowID);
    std::string oldValues, newValues;
    for (const std::string& column : columns) {
      oldValues += ", old." + quoteIdentifier(column);
      newValues += ", new." + quoteIdentifier(column);
    }
    const std::string insertNew =
        "INSERT INTO " + table + "(rowid" + columnList + ") VALUES (new." + rowID + newValues + ");";
    const std::string deleteOld = "INSERT INTO " + table + "(" + table + ", rowid" + columnList +
                                  ") VALUES ('delete', old." + rowID + oldValues + ");";
    const std::string trigger = "CREATE TRIGGER ";
    const std::vector<std::string> statements = {
        create,
        trigger + quoteIdentifier(name + "_ai") + " AFTER INSERT ON " + content + " BEGIN " + insertNew + " END",
        trigger + quoteIdentifier(name + "_ad") + " AFTER DELETE ON " + content + " BEGIN " + deleteOld + " END",
        trigger + quoteIdentifier(name + "_au") + " AFTER UPDATE ON " + content + " BEGIN " + deleteOld + " " +
            insertNew + " END",
        "INSERT INTO " + table + "(" + table + ") VALUES ('rebuild')",
    };
    Error failure;
    const bool done = inSavepoint([&](Database& db) {
      for (const std::string& statement : statements) {
        if (!db.execute(statement)) {
          failure = db.lastError();
          return false;
        }
      }
      return true;
    });
    if (!done && failure.isError()) return connection_->fail(failure.extendedCode, failure.message, failure.sql);
    return done;
  } catch (const std::bad_alloc&) {
    return connection_->fail(SQLITE_NOMEM, "out of memory while writing an FTS5 table's SQL", "");
  }
}

bool Database::rebuildFTS5Table(const std::string& name) noexcept { return runFTS5Command(name, "rebuild"); }

bool Database::optimizeFTS5Table(const std::string& name) noexcept { return runFTS5Command(name, "optimize"); }

bool Database::runFTS5Command(const std::string& name, const char* command) noexcept {
  if (!beginCall()) return false;
  try {
    Error problem;
    if (fts5Api(connection_->db, problem) == nullptr) return connection_->fail(problem.code, problem.message, "");
    if (holdsNul(name)) return connection_->fail(SQLITE_MISUSE, "the FTS5 table's name holds a NUL byte", "");
    const std::string table = quoteIdentifier(name);
    return execute("INSERT INTO " + table + "(" + table + ") VALUES ('" + command + "')");
  } catch (const std::bad_alloc&) {
    return connection_->fail(SQLITE_NOMEM, "out of memory while writing an FTS5 command", "");
  }
}

}  // namespace sqlitebridge
