// Full-text search (FTS5): patterns made from what a user typed, through
// SQLite's own tokenizer, that never fail to parse; FTS5 tables with each
// tokenizer and content mode, kept in step by triggers; ranked search. On a
// SQLite built without FTS5 (no ENABLE_FTS5) every helper fails with
// an error naming the fts5 module. The Swift suite mirrors these cases
// (Tests/SQLiteBridgeTests/Search/FTS5Tests.swift).
#include <random>

#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Error;
using sqlitebridge::FTS5Content;
using sqlitebridge::FTS5Pattern;
using sqlitebridge::FTS5TableOptions;
using sqlitebridge::FTS5Tokenizer;
using sqlitebridge::ResultCode;
using sqlitebridge::Row;
using sqlitebridge::Value;
using namespace sqlitebridge_test;

namespace {

bool fts5Available() {
  std::vector<std::string> tokens;
  return FTS5Pattern::tokens("probe", tokens);
}

#define SKIP_WITHOUT_FTS5() \
  if (!fts5Available()) GTEST_SKIP() << "this SQLite has no FTS5 (FTS5Unavailable covers it)"

class FTS5 : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_FTS5();
    ASSERT_TRUE(db_.isOpen()) << db_.error();
  }
  /// The rowids of `table` matching `pattern`, in rowid order.
  std::vector<std::int64_t> matches(const std::string& table, const FTS5Pattern& pattern) {
    std::vector<Row> rows;
    EXPECT_TRUE(db_.execute("SELECT rowid FROM \"" + table + "\" WHERE \"" + table + "\" MATCH ? ORDER BY rowid",
                            {Value(pattern.rawPattern())}, &rows))
        << db_.error() << " for " << pattern.rawPattern();
    std::vector<std::int64_t> ids;
    for (const Row& row : rows) ids.push_back(row.value(0).asInteger());
    return ids;
  }
  FTS5Pattern pattern(bool (*make)(const std::string&, FTS5Pattern&, Error*), const std::string& text) {
    FTS5Pattern made;
    Error error;
    EXPECT_TRUE(make(text, made, &error)) << error.message;
    return made;
  }
  Database db_ = Database::open(":memory:");
};

}  // namespace

TEST_F(FTS5, PatternsQuoteEveryTokenOfTheUnicode61Tokenizer) {
  std::vector<std::string> tokens;
  ASSERT_TRUE(FTS5Pattern::tokens("Hello, Wörld! AND (x*) \"NEAR\"", tokens));
  EXPECT_EQ(tokens, (std::vector<std::string>{"hello", "world", "and", "x", "near"}));
  const std::string text = "Hello, Wörld! OR";
  EXPECT_EQ(pattern(FTS5Pattern::matchingAllTokensIn, text).rawPattern(), "\"hello\" \"world\" \"or\"");
  EXPECT_EQ(pattern(FTS5Pattern::matchingAnyTokenIn, text).rawPattern(), "\"hello\" OR \"world\" OR \"or\"");
  EXPECT_EQ(pattern(FTS5Pattern::matchingPhrase, text).rawPattern(), "\"hello world or\"");
  EXPECT_EQ(pattern(FTS5Pattern::matchingPrefixesIn, text).rawPattern(), "\"hello\"* \"world\"* \"or\"*");
}

TEST_F(FTS5, TextWithoutATokenMakesNoPattern) {
  FTS5Pattern made;
  Error error{1, 1, "stale", ""};
  EXPECT_FALSE(FTS5Pattern::matchingAllTokensIn("  ,;!? \"\" () * ", made, &error));
  EXPECT_FALSE(error.isError());
  EXPECT_FALSE(FTS5Pattern::matchingAnyTokenIn("", made));
  EXPECT_FALSE(FTS5Pattern::matchingPhrase("---", made));
  EXPECT_FALSE(FTS5Pattern::matchingPrefixesIn("\t\n", made));
}

TEST_F(FTS5, NoTextAUserTypesFailsToParseAndTheTextFindsItself) {
  // Property test: random user text (operators, quotes, brackets, stars,
  // carets, colons, non-ASCII letters and NUL included), stored as a
  // document and searched with each pattern made from it.
  ASSERT_TRUE(db_.createFTS5Table("docs", {"body"})) << db_.error();
  const std::vector<std::string> pieces = {
      "AND",  "OR",   "NOT",   "NEAR", "NEAR(", "\"", "'", "(",  ")",  "*", "^", ":",   "-",  "+",
      "{",    "}",    "body:", "é",    "日本",  "ß",  " ", "  ", "\t", ",", "x", "abc", "Z9", std::string(1, '\0'),
      "\xff", "rank", "rowid"};
  std::mt19937 random(20261204);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int count = 1 + static_cast<int>(random() % 8);
    for (int i = 0; i < count; ++i) text += pieces[random() % pieces.size()];
    ASSERT_TRUE(db_.execute("DELETE FROM docs")) << db_.error();
    ASSERT_TRUE(db_.execute("INSERT INTO docs(rowid, body) VALUES (1, ?)", {Value(text)})) << db_.error();
    for (auto make : {FTS5Pattern::matchingAllTokensIn, FTS5Pattern::matchingAnyTokenIn, FTS5Pattern::matchingPhrase,
                      FTS5Pattern::matchingPrefixesIn}) {
      FTS5Pattern made;
      Error error;
      if (!make(text, made, &error)) {
        ASSERT_FALSE(error.isError()) << error.message;
        continue;
      }
      EXPECT_EQ(matches("docs", made), std::vector<std::int64_t>{1})
          << "text \"" << text << "\", pattern " << made.rawPattern();
    }
  }
}

TEST_F(FTS5, TablesSearchWithEachTokenizer) {
  ASSERT_TRUE(db_.createFTS5Table("plain", {"body"})) << db_.error();
  FTS5TableOptions porter;
  porter.tokenizer = FTS5Tokenizer::porter(FTS5Tokenizer::unicode61());
  ASSERT_TRUE(db_.createFTS5Table("stemmed", {"body"}, porter)) << db_.error();
  FTS5TableOptions dashes;
  dashes.tokenizer = FTS5Tokenizer::unicode61(0, "-'\"", "");
  ASSERT_TRUE(db_.createFTS5Table("dashes", {"body"}, dashes)) << db_.error();
  FTS5TableOptions trigram;
  trigram.tokenizer = FTS5Tokenizer::trigram();
  ASSERT_TRUE(db_.createFTS5Table("trigrams", {"body"}, trigram)) << db_.error();
  FTS5TableOptions ascii;
  ascii.tokenizer = FTS5Tokenizer::ascii();
  ASSERT_TRUE(db_.createFTS5Table("asciiwords", {"body"}, ascii)) << db_.error();
  for (const char* table : {"plain", "stemmed", "dashes", "trigrams", "asciiwords"}) {
    ASSERT_TRUE(db_.execute(std::string("INSERT INTO ") + table + "(rowid, body) VALUES (1, 'Running e-mail café')"))
        << db_.error();
  }
  EXPECT_EQ(matches("plain", pattern(FTS5Pattern::matchingAllTokensIn, "RUNNING cafe")), std::vector<std::int64_t>{1});
  EXPECT_TRUE(matches("plain", pattern(FTS5Pattern::matchingAllTokensIn, "run")).empty());
  EXPECT_EQ(matches("stemmed", pattern(FTS5Pattern::matchingAllTokensIn, "run")), std::vector<std::int64_t>{1});
  // tokenchars "-": "e-mail" is one word there; diacritics are kept.
  EXPECT_TRUE(matches("dashes", pattern(FTS5Pattern::matchingAllTokensIn, "mail")).empty());
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT rowid FROM dashes WHERE dashes MATCH '\"e-mail\"'", &rows)) << db_.error();
  EXPECT_EQ(rows.size(), 1u);
  EXPECT_EQ(matches("trigrams", pattern(FTS5Pattern::matchingAllTokensIn, "unnin")), std::vector<std::int64_t>{1});
  EXPECT_EQ(matches("asciiwords", pattern(FTS5Pattern::matchingPrefixesIn, "runn")), std::vector<std::int64_t>{1});
  EXPECT_EQ(FTS5Tokenizer::porter(FTS5Tokenizer::unicode61()).words,
            (std::vector<std::string>{"porter", "unicode61", "remove_diacritics", "1"}));
}

TEST_F(FTS5, ExternalContentStaysInStepThroughTriggers) {
  ASSERT_TRUE(
      db_.executeScript("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT);"
                        "INSERT INTO notes VALUES (1, 'Groceries', 'milk and bread');"))
      << db_.error();
  FTS5TableOptions options;
  options.content = FTS5Content::External;
  options.contentTable = "notes";
  options.contentRowID = "id";
  ASSERT_TRUE(db_.createFTS5Table("notes_fts", {"title", "body"}, options)) << db_.error();
  EXPECT_TRUE(db_.triggerExists("notes_fts_ai"));
  EXPECT_TRUE(db_.triggerExists("notes_fts_ad"));
  EXPECT_TRUE(db_.triggerExists("notes_fts_au"));
  const FTS5Pattern milk = pattern(FTS5Pattern::matchingAllTokensIn, "milk");
  EXPECT_EQ(matches("notes_fts", milk), std::vector<std::int64_t>{1});  // indexed at creation

  ASSERT_TRUE(db_.execute("INSERT INTO notes VALUES (2, 'Dairy', 'milk, cheese')"));
  EXPECT_EQ(matches("notes_fts", milk), (std::vector<std::int64_t>{1, 2}));
  ASSERT_TRUE(db_.execute("UPDATE notes SET body = 'bread only' WHERE id = 1"));
  EXPECT_EQ(matches("notes_fts", milk), std::vector<std::int64_t>{2});
  EXPECT_EQ(matches("notes_fts", pattern(FTS5Pattern::matchingAllTokensIn, "bread")), std::vector<std::int64_t>{1});
  ASSERT_TRUE(db_.execute("DELETE FROM notes WHERE id = 2"));
  EXPECT_TRUE(matches("notes_fts", milk).empty());
  ASSERT_TRUE(db_.rebuildFTS5Table("notes_fts")) << db_.error();
  ASSERT_TRUE(db_.optimizeFTS5Table("notes_fts")) << db_.error();
  EXPECT_EQ(matches("notes_fts", pattern(FTS5Pattern::matchingAllTokensIn, "bread")), std::vector<std::int64_t>{1});
  ASSERT_TRUE(db_.execute("PRAGMA integrity_check"));
  std::vector<Row> check;
  ASSERT_TRUE(db_.execute("INSERT INTO notes_fts(notes_fts, rank) VALUES ('integrity-check', 1)", &check))
      << db_.error();
}

TEST_F(FTS5, AFailedExternalContentTableLeavesNothingBehind) {
  ASSERT_TRUE(db_.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)"));
  ASSERT_TRUE(db_.execute("INSERT INTO notes VALUES (1, 'x')"));
  FTS5TableOptions options;
  options.content = FTS5Content::External;
  options.contentTable = "notes";
  EXPECT_FALSE(db_.createFTS5Table("notes_fts", {"title", "missing"}, options));
  EXPECT_TRUE(contains(db_.lastError().message, "missing")) << db_.error();
  EXPECT_FALSE(db_.tableExists("notes_fts"));
  EXPECT_FALSE(db_.triggerExists("notes_fts_ai"));
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT count(*) FROM sqlite_master", &rows));
  EXPECT_EQ(rows[0].value(0), Value(1));
}

TEST_F(FTS5, ContentlessTablesKeepOnlyTheIndex) {
  FTS5TableOptions options;
  options.content = FTS5Content::Contentless;
  ASSERT_TRUE(db_.createFTS5Table("index_only", {"body"}, options)) << db_.error();
  ASSERT_TRUE(db_.execute("INSERT INTO index_only(rowid, body) VALUES (7, 'secret words')"));
  EXPECT_EQ(matches("index_only", pattern(FTS5Pattern::matchingAllTokensIn, "secret")), std::vector<std::int64_t>{7});
  std::vector<Row> rows;
  ASSERT_TRUE(db_.execute("SELECT body FROM index_only", &rows));
  EXPECT_TRUE(rows.at(0).value(0).isNull());
  EXPECT_FALSE(db_.rebuildFTS5Table("index_only"));
}

TEST_F(FTS5, HostileNamesStayNames) {
  const std::string table = "x\"; DROP TABLE t; --";
  const std::string column = "b'\"y";
  FTS5TableOptions options;
  options.tokenizer = FTS5Tokenizer::unicode61(1, "'\"", ")");
  ASSERT_TRUE(db_.createFTS5Table(table, {column}, options)) << db_.error();
  EXPECT_TRUE(db_.tableExists(table));
  EXPECT_FALSE(db_.createFTS5Table(std::string("a\0b", 3), {"c"}));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.createFTS5Table("empty", {}));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Misuse);
  EXPECT_FALSE(db_.createFTS5Table("ranked", {"rank"}));
  EXPECT_EQ(db_.lastError().resultCode(), ResultCode::Error);
}

TEST_F(FTS5, RankedSearchWithBm25HighlightAndSnippet) {
  ASSERT_TRUE(db_.createFTS5Table("notes_fts", {"title", "body"})) << db_.error();
  ASSERT_TRUE(
      db_.executeScript("INSERT INTO notes_fts(rowid, title, body) VALUES (1, 'Shopping', 'buy milk and more milk'),"
                        "(2, 'Milk', 'milk'), (3, 'Chores', 'walk the dog');"))
      << db_.error();
  std::vector<Row> rows;
  ASSERT_TRUE(
      db_.execute("SELECT rowid, highlight(notes_fts, 0, '[', ']') AS title, "
                  "snippet(notes_fts, 1, '<', '>', '…', 3) AS excerpt FROM notes_fts "
                  "WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts, 10.0, 1.0)",
                  {Value(pattern(FTS5Pattern::matchingAllTokensIn, "MILK").rawPattern())}, &rows))
      << db_.error();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].value("rowid"), Value(2));  // the title weighs ten times the body
  EXPECT_EQ(rows[0].value("title"), Value("[Milk]"));
  EXPECT_EQ(rows[1].value("excerpt"), Value("buy <milk> and…"));
}

TEST(FTS5Unavailable, EveryHelperNamesTheMissingModule) {
  if (fts5Available()) GTEST_SKIP() << "this SQLite has FTS5 (the FTS5 suite covers it)";
  FTS5Pattern made;
  Error error;
  EXPECT_FALSE(FTS5Pattern::matchingAllTokensIn("milk", made, &error));
  EXPECT_EQ(error.resultCode(), ResultCode::Error);
  EXPECT_TRUE(contains(error.message, "fts5")) << error.message;
  Database db = Database::open(":memory:");
  EXPECT_FALSE(db.createFTS5Table("t", {"body"}));
  EXPECT_TRUE(contains(db.lastError().message, "no fts5 module")) << db.error();
  EXPECT_FALSE(db.rebuildFTS5Table("t"));
  EXPECT_TRUE(contains(db.lastError().message, "no fts5 module")) << db.error();
  EXPECT_FALSE(db.optimizeFTS5Table("t"));
  EXPECT_TRUE(contains(db.lastError().message, "no fts5 module")) << db.error();
}
