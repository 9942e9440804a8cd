#include "sqlitebridge/FTS5.hpp"

#include <sqlite3.h>

#include <mutex>
#include <new>

#include "FTS5Support.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {
namespace {

// A private in-memory connection of the process, for SQLite's tokenizer:
// opened on first use, kept for the process, used under `mutex`.
struct TokenizerConnection {
  std::mutex mutex;
  sqlite3* db = nullptr;
  fts5_api* api = nullptr;
  Error problem;  // why there is no FTS5 here, once known
  bool opened = false;
};

TokenizerConnection& tokenizerConnection() {
  static TokenizerConnection* connection = new TokenizerConnection();  // never destroyed: used until exit
  return *connection;
}

int collectToken(void* context, int flags, const char* token, int size, int, int) {
  if ((flags & FTS5_TOKEN_COLOCATED) != 0) return SQLITE_OK;  // a synonym of the token before
  try {
    static_cast<std::vector<std::string>*>(context)->emplace_back(token, static_cast<std::size_t>(size));
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

bool fail(Error* error, const Error& problem) {
  if (error) *error = problem;
  return false;
}

template <typename Build>
bool makePattern(const std::string& text, Error* error, std::string& raw, Build build) noexcept {
  std::vector<std::string> found;
  if (!FTS5Pattern::tokens(text, found, error)) return false;
  if (found.empty()) return false;
  try {
    raw = build(found);
    return true;
  } catch (const std::bad_alloc&) {
    return fail(error, Error{SQLITE_NOMEM, SQLITE_NOMEM, "out of memory while making an FTS5 pattern", ""});
  }
}

std::string joined(const std::vector<std::string>& tokens, const char* separator, const char* suffix) {
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) out += separator;
    out += quoteIdentifier(tokens[i]);
    out += suffix;
  }
  return out;
}

}  // namespace

bool FTS5Pattern::tokens(const std::string& text, std::vector<std::string>& tokens, Error* error) noexcept {
  TokenizerConnection& connection = tokenizerConnection();
  std::lock_guard<std::mutex> lock(connection.mutex);
  tokens.clear();
  if (!connection.opened) {
    connection.opened = true;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK) {
      connection.problem = Error{SQLITE_CANTOPEN, SQLITE_CANTOPEN, "cannot open the connection FTS5 patterns use", ""};
      sqlite3_close(db);
    } else {
      connection.db = db;
      connection.api = fts5Api(db, connection.problem);
    }
  }
  if (connection.api == nullptr) return fail(error, connection.problem);
  fts5_tokenizer methods;
  void* userData = nullptr;
  if (connection.api->xFindTokenizer(connection.api, "unicode61", &userData, &methods) != SQLITE_OK) {
    return fail(error, Error{SQLITE_ERROR, SQLITE_ERROR, "FTS5 has no unicode61 tokenizer here", ""});
  }
  Fts5Tokenizer* tokenizer = nullptr;
  if (methods.xCreate(userData, nullptr, 0, &tokenizer) != SQLITE_OK) {
    return fail(error, Error{SQLITE_ERROR, SQLITE_ERROR, "cannot make FTS5's unicode61 tokenizer", ""});
  }
  const int rc = methods.xTokenize(tokenizer, &tokens, FTS5_TOKENIZE_QUERY, text.data(), static_cast<int>(text.size()),
                                   collectToken);
  methods.xDelete(tokenizer);
  if (rc != SQLITE_OK) {
    tokens.clear();
    return fail(error, Error{rc, rc, rc == SQLITE_NOMEM ? "out of memory while tokenizing" : "tokenizing failed", ""});
  }
  if (error) *error = Error();
  return true;
}

bool FTS5Pattern::matchingAllTokensIn(const std::string& text, FTS5Pattern& pattern, Error* error) noexcept {
  return makePattern(text, error, pattern.raw_,
                     [](const std::vector<std::string>& tokens) { return joined(tokens, " ", ""); });
}

bool FTS5Pattern::matchingAnyTokenIn(const std::string& text, FTS5Pattern& pattern, Error* error) noexcept {
  return makePattern(text, error, pattern.raw_,
                     [](const std::vector<std::string>& tokens) { return joined(tokens, " OR ", ""); });
}

bool FTS5Pattern::matchingPhrase(const std::string& text, FTS5Pattern& pattern, Error* error) noexcept {
  return makePattern(text, error, pattern.raw_, [](const std::vector<std::string>& tokens) {
    std::string phrase;
    for (std::size_t i = 0; i < tokens.size(); ++i) phrase += (i > 0 ? " " : "") + tokens[i];
    return quoteIdentifier(phrase);
  });
}

bool FTS5Pattern::matchingPrefixesIn(const std::string& text, FTS5Pattern& pattern, Error* error) noexcept {
  return makePattern(text, error, pattern.raw_,
                     [](const std::vector<std::string>& tokens) { return joined(tokens, " ", "*"); });
}

}  // namespace sqlitebridge
