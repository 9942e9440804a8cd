// The shared fixture Tests/Fixtures/column-lookup.json: which column a name
// finds in a row (the leftmost whose name equals it but for ASCII case, or
// none). The core owns the rule (Row::columnIndex, RowView::columnIndex);
// the Swift facade keeps fast lookups of its own (Row, ColumnTable, the row
// decoder) and its suite runs the same cases against them.
//
// Regenerate after a deliberate change of the rule:
//   SQLITEBRIDGE_WRITE_FIXTURES=1 build/default/Tests/CxxTests/sqlitebridge-cxx-tests \
//     --gtest_filter='ColumnLookupFixture*'
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "FixtureSupport.hpp"
#include "TestSupport.hpp"

using sqlitebridge::Database;
using sqlitebridge::Row;
using sqlitebridge::RowView;
using namespace sqlitebridge_test;

namespace {

struct LookupCase {
  std::vector<std::string> columns;
  std::string lookup;
};

// Exact and case-different names, duplicates, non-ASCII letters (compared
// byte for byte: SQLite folds ASCII only), spaces, quotes, an empty name.
const std::vector<LookupCase> kCases = {
    {{"id", "name"}, "id"},
    {{"id", "name"}, "name"},
    {{"id", "name"}, "NAME"},
    {{"id", "name"}, "Name"},
    {{"id", "name"}, "missing"},
    {{"id", "name"}, "nam"},
    {{"id", "name"}, "name "},
    {{"id", "ID"}, "ID"},
    {{"id", "ID"}, "id"},
    {{"id", "ID"}, "iD"},
    {{"ID", "id"}, "id"},
    {{"x", "y", "x"}, "x"},
    {{"x", "y", "X"}, "X"},
    {{"a", "b", "c", "B"}, "B"},
    {{"a", "b", "c", "B"}, "c"},
    {{"café", "CAFÉ"}, "CAFÉ"},
    {{"café", "CAFÉ"}, "CAFé"},
    {{"café", "CAFÉ"}, "Café"},
    {{"Ärger", "ärger"}, "ärger"},
    {{"first name", "first_name"}, "FIRST NAME"},
    {{"a\"b", "a'b"}, "A\"B"},
    {{"a\"b", "a'b"}, "a'B"},
    {{"", "x"}, ""},
    {{"x", ""}, ""},
    {{"x"}, ""},
    {{"count(*)", "n"}, "COUNT(*)"},
    {{"n", "n", "N", "n"}, "N"},
    {{"ı", "i", "I"}, "I"},
    {{"ß", "ss"}, "SS"},
};

std::string quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// SELECT 0 AS "<first>", 1 AS "<second>", ...: each column holds its index.
std::string selectFor(const std::vector<std::string>& columns) {
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) sql += ", ";
    sql += std::to_string(i) + " AS " + quoted(columns[i]);
  }
  return sql;
}

std::string caseLine(const LookupCase& lookupCase, long index) {
  std::string line = R"(    {"columns": [)";
  for (std::size_t i = 0; i < lookupCase.columns.size(); ++i) {
    if (i > 0) line += ", ";
    line += jsonString(lookupCase.columns[i]);
  }
  return line + R"(], "lookup": )" + jsonString(lookupCase.lookup) + R"(, "expect": )" + std::to_string(index) + "}";
}

// The fixture text the core gives, checking on the way that Row and RowView
// find the same column.
std::string fixtureText() {
  Database db = Database::open(":memory:");
  EXPECT_TRUE(db.isOpen()) << db.error();
  std::ostringstream text;
  text << "{\n"
       << R"(  "about": "Which column a name finds in a row: the leftmost whose name equals it but for ASCII )"
       << R"(case, or none (-1). Each column of the row holds its own index.",)" << "\n"
       << R"(  "generatedBy": "SQLITEBRIDGE_WRITE_FIXTURES=1 build/default/Tests/CxxTests/sqlitebridge-cxx-tests )"
       << R"(--gtest_filter='ColumnLookupFixture*'",)" << "\n"
       << R"(  "cases": [)" << "\n";
  for (std::size_t k = 0; k < kCases.size(); ++k) {
    const LookupCase& lookupCase = kCases[k];
    Row row;
    EXPECT_TRUE(db.execute(selectFor(lookupCase.columns), row)) << db.error();
    const long index = row.columnIndex(lookupCase.lookup);
    int viewIndex = -2;
    EXPECT_TRUE(db.forEachRow(selectFor(lookupCase.columns), [&](const RowView& view) {
      viewIndex = view.columnIndex(lookupCase.lookup);
    })) << db.error();
    EXPECT_EQ(viewIndex, index) << caseLine(lookupCase, index);
    // The value found by name is the one the index gives.
    if (index >= 0) EXPECT_EQ(row.value(lookupCase.lookup).asInteger(), index) << caseLine(lookupCase, index);
    text << caseLine(lookupCase, index) << (k + 1 < kCases.size() ? ",\n" : "\n");
  }
  text << "  ]\n}\n";
  return text.str();
}

}  // namespace

TEST(ColumnLookupFixture, EveryCaseMatchesTheCommittedFixture) {
  expectCommittedFixture("column-lookup.json", fixtureText());
}
