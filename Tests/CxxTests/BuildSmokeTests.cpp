// Proves that the CMake build links the core, SQLite and GoogleTest into one
// runnable test executable. Behaviour tests live in the other files here.
#include <gtest/gtest.h>

#include <sqlitebridge/sqlitebridge.hpp>

#include <string>
#include <vector>

using sqlitebridge::Database;
using sqlitebridge::Row;

TEST(BuildSmoke, InMemoryDatabaseComputesAnExpression) {
  Database db = Database::open(":memory:");
  ASSERT_TRUE(db.isOpen()) << db.error();

  std::vector<Row> rows;
  ASSERT_TRUE(db.execute("SELECT 1 + 1 AS two", &rows)) << db.error();
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].size(), 1u);
  EXPECT_EQ(rows[0].columnName(0), "two");
  EXPECT_EQ(rows[0].value(0).asInteger(), 2);
}
