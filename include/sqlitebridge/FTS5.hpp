#pragma once

#include <string>
#include <vector>

#include "Error.hpp"
#include "Export.hpp"

namespace sqlitebridge {

/// A full-text query for an FTS5 table (`WHERE notes_fts MATCH ?`, the
/// pattern's `rawPattern()` bound as the argument) made from what a user
/// typed, so that nothing they type can change the query's syntax: the text
/// is split into tokens by SQLite's own `unicode61` tokenizer (folded to
/// lower case, diacritics removed, punctuation dropped), and every token is
/// quoted. `AND`, `OR`, `NOT`, `NEAR`, `*`, `^`, `:`, `-`, quotes and
/// parentheses typed by the user are words or separators, never operators.
///
/// Each maker returns false when the text holds no token (only spaces and
/// punctuation, say): `error`, when given, is then cleared. It also returns
/// false, with `error` set to SQLITE_ERROR naming the missing `fts5` module,
/// when this SQLite was built without FTS5 (no SQLITE_ENABLE_FTS5), and
/// with SQLITE_NOMEM when memory runs out. Thread-safe: the tokenizer runs on
/// a private in-memory connection of the process, one call at a time.
class SQLITEBRIDGE_API FTS5Pattern {
 public:
  /// An empty pattern (FTS5 refuses to match it).
  FTS5Pattern() = default;

  /// The FTS5 query text: bind it as the argument of MATCH.
  std::string rawPattern() const { return raw_; }

  /// Rows holding every token, anywhere: `"token1" "token2"`.
  static bool matchingAllTokensIn(const std::string& text, FTS5Pattern& pattern, Error* error = nullptr) noexcept;
  /// Rows holding at least one token: `"token1" OR "token2"`.
  static bool matchingAnyTokenIn(const std::string& text, FTS5Pattern& pattern, Error* error = nullptr) noexcept;
  /// Rows holding the tokens next to each other, in order: `"token1 token2"`.
  static bool matchingPhrase(const std::string& text, FTS5Pattern& pattern, Error* error = nullptr) noexcept;
  /// Rows holding, for every token, a word that starts with it:
  /// `"token1"* "token2"*` (search as you type).
  static bool matchingPrefixesIn(const std::string& text, FTS5Pattern& pattern, Error* error = nullptr) noexcept;

  /// The tokens SQLite's `unicode61` tokenizer finds in `text`, in order, as
  /// a query sees them (folded); false with `error` set as above.
  static bool tokens(const std::string& text, std::vector<std::string>& tokens, Error* error = nullptr) noexcept;

 private:
  std::string raw_;
};

/// The tokenizer of an FTS5 table (its `tokenize` option): how text is cut
/// into the words that are indexed and searched.
struct SQLITEBRIDGE_API FTS5Tokenizer {
  /// The option's words, as FTS5 reads them (`{"porter", "unicode61"}`);
  /// the core quotes each one when it writes the table's SQL.
  std::vector<std::string> words;

  /// `unicode61`: Unicode letters and digits make words, folded to lower
  /// case. `removeDiacritics`: 0 keeps them, 1 removes them (SQLite's
  /// default), 2 removes them also from composed characters.
  /// `tokenChars`: characters that also make words (`"-_"`);
  /// `separators`: characters that also separate them.
  static FTS5Tokenizer unicode61(int removeDiacritics = 1, const std::string& tokenChars = "",
                                 const std::string& separators = "");
  /// `ascii`: ASCII letters and digits make words (others are kept as they
  /// are), folded to lower case.
  static FTS5Tokenizer ascii();
  /// `porter`: English stemming (`running` finds `run`) over `base`.
  static FTS5Tokenizer porter(const FTS5Tokenizer& base);
  /// `trigram`: every run of three characters is a
  /// word, so MATCH, LIKE and GLOB find any substring of three or more
  /// characters; case-insensitive unless `caseSensitive`.
  static FTS5Tokenizer trigram(bool caseSensitive = false);
};

/// Where an FTS5 table's text lives.
enum class FTS5Content {
  /// The FTS5 table keeps its own copy of the text (FTS5's default).
  Own,
  /// Contentless (`content = ''`): only the index is kept; columns read as
  /// NULL and rows can be deleted only with their old values.
  Contentless,
  /// External content: the text stays in `FTS5TableOptions::contentTable`,
  /// and triggers the helper creates keep the index in step with it.
  External,
};

/// How `Database::createFTS5Table` makes an FTS5 table.
struct SQLITEBRIDGE_API FTS5TableOptions {
  /// The tokenizer (default `unicode61` with SQLite's defaults).
  FTS5Tokenizer tokenizer = FTS5Tokenizer::unicode61();
  /// Where the text lives (default: in the FTS5 table).
  FTS5Content content = FTS5Content::Own;
  /// For `FTS5Content::External`: the table whose rows are indexed. It must
  /// have a column of each of the FTS5 table's names.
  std::string contentTable;
  /// For `FTS5Content::External`: the content table's integer key column
  /// (default "rowid"; its INTEGER PRIMARY KEY is the same).
  std::string contentRowID = "rowid";
};

}  // namespace sqlitebridge
