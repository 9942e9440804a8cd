// Where SQL text ends a statement (isCompleteStatement, firstStatementEnd,
// splitStatements): SQLite's own rule, which the CLI's shell and the script
// runner's error messages use.
#include <string>
#include <vector>

#include "TestSupport.hpp"

using sqlitebridge::firstStatementEnd;
using sqlitebridge::isCompleteStatement;
using sqlitebridge::splitStatements;
using sqlitebridge::StatementSplit;

namespace {

StatementSplit split(const std::string& text) {
  StatementSplit pieces;
  EXPECT_TRUE(splitStatements(text, pieces));
  std::string joined;
  for (const auto& statement : pieces.statements) joined += statement;
  EXPECT_EQ(joined + pieces.rest, text) << "the pieces joined give the text back";
  return pieces;
}

}  // namespace

TEST(StatementTextTests, ASemicolonOutsideLiteralsCompletesAStatement) {
  EXPECT_TRUE(isCompleteStatement("SELECT 1;"));
  EXPECT_TRUE(isCompleteStatement("SELECT 1;\n  -- done\n"));
  EXPECT_TRUE(isCompleteStatement("SELECT 'a;b';"));
  EXPECT_FALSE(isCompleteStatement("SELECT 1"));
  EXPECT_FALSE(isCompleteStatement("SELECT 'a;"));
  EXPECT_FALSE(isCompleteStatement("SELECT \"a;\" FROM t"));
  EXPECT_FALSE(isCompleteStatement("SELECT 1 /* ; */"));
  EXPECT_FALSE(isCompleteStatement("SELECT 1 -- ;"));
}

TEST(StatementTextTests, ATriggerBodyEndsOnlyAtItsEnd) {
  const std::string head = "CREATE TRIGGER t AFTER INSERT ON x BEGIN INSERT INTO y VALUES (1);";
  EXPECT_FALSE(isCompleteStatement(head));
  EXPECT_TRUE(isCompleteStatement(head + " END;"));
}

TEST(StatementTextTests, FillerAndNulBytesAreNeverComplete) {
  EXPECT_FALSE(isCompleteStatement(""));
  EXPECT_FALSE(isCompleteStatement("  \n -- a comment\n /* another */ "));
  EXPECT_FALSE(isCompleteStatement(std::string("SELECT 1;\0", 10)));
  EXPECT_EQ(firstStatementEnd(std::string("SELECT 1\0;", 10)), std::string::npos);
}

TEST(StatementTextTests, FirstStatementEndIsJustPastItsSemicolon) {
  EXPECT_EQ(firstStatementEnd("SELECT ';'; SELECT 2;"), 11u);
  EXPECT_EQ(firstStatementEnd("SELECT 1"), std::string::npos);
}

TEST(StatementTextTests, SplitCutsAtEachCompletingSemicolon) {
  const StatementSplit pieces = split("SELECT 'x;y'; INSERT INTO t VALUES (1);;\nSELECT 3 -- more; here\n");
  EXPECT_EQ(pieces.statements, (std::vector<std::string>{"SELECT 'x;y';", " INSERT INTO t VALUES (1);", ";"}));
  EXPECT_EQ(pieces.rest, "\nSELECT 3 -- more; here\n");
}

TEST(StatementTextTests, SplitKeepsAnUnfinishedStatementAndNulBytesInTheRest) {
  EXPECT_EQ(split("").statements.size(), 0u);
  const StatementSplit unfinished = split("SELECT 1; SELECT 'open;");
  EXPECT_EQ(unfinished.statements, (std::vector<std::string>{"SELECT 1;"}));
  EXPECT_EQ(unfinished.rest, " SELECT 'open;");
  const std::string withNul("SELECT 1; SELECT\0 2;", 20);
  const StatementSplit nul = split(withNul);
  EXPECT_EQ(nul.statements, (std::vector<std::string>{"SELECT 1;"}));
  EXPECT_EQ(nul.rest, std::string(" SELECT\0 2;", 11));
}
