// Statement kinds from their keywords: a small tokenizer that knows
// SQLite's comments, string literals and quoted names, so that a keyword
// inside one of them is never taken for the statement's.
#include "ClusterStatements.hpp"

#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

bool isWordStart(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

bool isWordPart(char c) noexcept { return isWordStart(c) || (c >= '0' && c <= '9') || c == '$'; }

// The tokens SQLite would see, one at a time: a word (its text), a quoted
// name (unquoted), a string literal, or one punctuation character.
class Tokens {
 public:
  explicit Tokens(std::string_view sql) : sql_(sql) {}

  enum class Kind { End, Word, Quoted, Literal, Punctuation };

  Kind next(std::string& text) {
    text.clear();
    position_ = skipIgnorable(sql_, position_);
    if (position_ >= sql_.size()) return Kind::End;
    const char c = sql_[position_];
    if (isWordStart(c)) {
      const std::size_t start = position_;
      while (position_ < sql_.size() && isWordPart(sql_[position_])) ++position_;
      text.assign(sql_.substr(start, position_ - start));
      return Kind::Word;
    }
    if (c == '"' || c == '`' || c == '[' || c == '\'') {
      const char close = c == '[' ? ']' : c;
      ++position_;
      while (position_ < sql_.size()) {
        const char d = sql_[position_++];
        if (d == close) {
          // A doubled quote stands for itself (never inside [ ]).
          if (close != ']' && position_ < sql_.size() && sql_[position_] == close) {
            text += d;
            ++position_;
            continue;
          }
          break;
        }
        text += d;
      }
      return c == '\'' ? Kind::Literal : Kind::Quoted;
    }
    ++position_;
    text.assign(1, c);
    return Kind::Punctuation;
  }

 private:
  std::string_view sql_;
  std::size_t position_ = 0;
};

bool is(const std::string& word, const char* keyword) { return sameIdentifier(word, keyword); }

// The savepoint name after SAVEPOINT / RELEASE [SAVEPOINT] / ROLLBACK
// [TRANSACTION] TO [SAVEPOINT].
std::string savepointName(Tokens& tokens) {
  std::string text;
  Tokens::Kind kind = tokens.next(text);
  if (kind == Tokens::Kind::Word && is(text, "SAVEPOINT")) kind = tokens.next(text);
  return kind == Tokens::Kind::Word || kind == Tokens::Kind::Quoted || kind == Tokens::Kind::Literal ? text
                                                                                                     : std::string();
}

// Whether a RETURNING clause follows, outside parentheses.
bool returnsRows(Tokens& tokens) {
  int depth = 0;
  std::string text;
  for (Tokens::Kind kind = tokens.next(text); kind != Tokens::Kind::End; kind = tokens.next(text)) {
    if (kind == Tokens::Kind::Punctuation) {
      depth += text == "(" ? 1 : text == ")" ? -1 : 0;
    } else if (kind == Tokens::Kind::Word && depth == 0 && is(text, "RETURNING")) {
      return true;
    }
  }
  return false;
}

ClusterStatementKind kindOfMain(const std::string& word) {
  if (is(word, "SELECT") || is(word, "VALUES")) return ClusterStatementKind::Read;
  return ClusterStatementKind::Write;
}

}  // namespace

ClusterStatement classifyClusterStatement(std::string_view sql) {
  ClusterStatement statement;
  Tokens tokens(sql);
  std::string word;
  if (tokens.next(word) != Tokens::Kind::Word) return statement;  // the node will say what is wrong
  if (is(word, "SELECT") || is(word, "VALUES") || is(word, "EXPLAIN")) {
    statement.kind = ClusterStatementKind::Read;
  } else if (is(word, "WITH")) {
    // The statement a WITH clause leads to is the first of these words
    // outside the parentheses of its common table expressions.
    int depth = 0;
    std::string text;
    for (Tokens::Kind kind = tokens.next(text); kind != Tokens::Kind::End; kind = tokens.next(text)) {
      if (kind == Tokens::Kind::Punctuation) {
        depth += text == "(" ? 1 : text == ")" ? -1 : 0;
      } else if (kind == Tokens::Kind::Word && depth == 0 &&
                 (is(text, "SELECT") || is(text, "VALUES") || is(text, "INSERT") || is(text, "UPDATE") ||
                  is(text, "DELETE") || is(text, "REPLACE"))) {
        statement.kind = kindOfMain(text);
        if (statement.kind == ClusterStatementKind::Write) statement.returnsRows = returnsRows(tokens);
        break;
      }
    }
  } else if (is(word, "PRAGMA")) {
    statement.kind = ClusterStatementKind::Read;
    std::string text;
    std::string name;  // the pragma's name: the last word before `(`, `=` or the end
    bool named = false;
    for (Tokens::Kind kind = tokens.next(text); kind != Tokens::Kind::End; kind = tokens.next(text)) {
      if (kind == Tokens::Kind::Punctuation && text == "=") statement.kind = ClusterStatementKind::Write;
      if (kind == Tokens::Kind::Punctuation && (text == "(" || text == "=")) named = true;
      if (!named && (kind == Tokens::Kind::Word || kind == Tokens::Kind::Quoted)) name = text;
    }
    if (is(name, "optimize")) statement.kind = ClusterStatementKind::Write;
    statement.pragma = statement.kind == ClusterStatementKind::Read;
  } else if (is(word, "INSERT") || is(word, "UPDATE") || is(word, "DELETE") || is(word, "REPLACE")) {
    statement.returnsRows = returnsRows(tokens);
  } else if (is(word, "ATTACH") || is(word, "DETACH")) {
    statement.attaches = true;
  } else if (is(word, "CREATE") || is(word, "DROP") || is(word, "ALTER")) {
    statement.kind = ClusterStatementKind::Schema;
  } else if (is(word, "BEGIN")) {
    statement.kind = ClusterStatementKind::Begin;
  } else if (is(word, "COMMIT") || is(word, "END")) {
    statement.kind = ClusterStatementKind::Commit;
  } else if (is(word, "SAVEPOINT")) {
    statement.kind = ClusterStatementKind::Savepoint;
    std::string name;
    const Tokens::Kind kind = tokens.next(name);
    if (kind == Tokens::Kind::Word || kind == Tokens::Kind::Quoted || kind == Tokens::Kind::Literal) {
      statement.savepoint = name;
    }
  } else if (is(word, "RELEASE")) {
    statement.kind = ClusterStatementKind::Release;
    statement.savepoint = savepointName(tokens);
  } else if (is(word, "ROLLBACK")) {
    statement.kind = ClusterStatementKind::Rollback;
    std::string text;
    Tokens::Kind kind = tokens.next(text);
    if (kind == Tokens::Kind::Word && is(text, "TRANSACTION")) kind = tokens.next(text);
    if (kind == Tokens::Kind::Word && is(text, "TO")) {
      statement.kind = ClusterStatementKind::RollbackTo;
      statement.savepoint = savepointName(tokens);
    }
  }
  return statement;
}

bool hasCompoundOperator(std::string_view sql) {
  Tokens tokens(sql);
  std::string text;
  for (Tokens::Kind kind = tokens.next(text); kind != Tokens::Kind::End; kind = tokens.next(text)) {
    if (kind == Tokens::Kind::Word && (is(text, "UNION") || is(text, "INTERSECT") || is(text, "EXCEPT"))) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> foldedNamesIn(std::string_view sql) {
  std::vector<std::string> names;
  Tokens tokens(sql);
  std::string text;
  for (Tokens::Kind kind = tokens.next(text); kind != Tokens::Kind::End; kind = tokens.next(text)) {
    if (kind == Tokens::Kind::Word || kind == Tokens::Kind::Quoted) names.push_back(foldIdentifier(text));
  }
  return names;
}

}  // namespace sqlitebridge
