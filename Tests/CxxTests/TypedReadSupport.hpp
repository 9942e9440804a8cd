// A test fixture for typed reads of one value both ways, RowView::get (in
// place) and Row::get (on a copied row), which must agree. Used by the date
// and UUID tests.
#pragma once

#include <optional>
#include <string>

#include "TestSupport.hpp"

namespace sqlitebridge_test {

class TypedReads : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(db_.isOpen()) << db_.error(); }

  /// Reads column 0 of `sql`'s only row as `T` with RowView::get and with
  /// Row::get (on a copy of the row) and expects both to give the same
  /// outcome; the value, or nullopt when the reads failed.
  template <typename T>
  std::optional<T> read(const std::string& sql) {
    std::optional<T> viaView;
    sqlitebridge::Row copied;
    int rows = 0;
    db_.forEachRow(sql, [&](const sqlitebridge::RowView& row) {
      ++rows;
      copied = row.copy();
      T value{};
      if (row.get(0, value)) viaView = value;
    });
    EXPECT_EQ(rows, 1) << sql << ": " << db_.error();
    std::optional<T> viaRow;
    T value{};
    if (copied.get(0, value)) viaRow = value;
    EXPECT_EQ(viaView.has_value(), viaRow.has_value()) << sql;
    if (viaView && viaRow) EXPECT_TRUE(*viaView == *viaRow) << sql;
    return viaView;
  }

  /// Expects `sql`'s value (column `v`) to be refused as `T` by RowView::get
  /// (by index and by name) and Row::get, with SQLITE_MISMATCH naming the
  /// column, `shown` and `typeName`, the same message both ways, and the
  /// output (`before`) left alone.
  template <typename T>
  void expectMismatch(const std::string& sql, const std::string& shown, const std::string& typeName, const T& before) {
    sqlitebridge::Row copied;
    db_.forEachRow(sql, [&](const sqlitebridge::RowView& row) {
      copied = row.copy();
      T value = before;
      EXPECT_FALSE(row.get(0, value)) << sql;
      EXPECT_TRUE(value == before) << "a failed get must leave the output alone: " << sql;
      EXPECT_FALSE(row.get("v", value)) << sql;
    });
    const sqlitebridge::Error viewError = db_.lastError();
    T value = before;
    sqlitebridge::Error rowError;
    EXPECT_FALSE(copied.get(0, value, &rowError)) << sql;
    EXPECT_TRUE(value == before) << sql;
    for (const sqlitebridge::Error& error : {viewError, rowError}) {
      EXPECT_EQ(error.code, SQLITE_MISMATCH) << sql;
      EXPECT_NE(error.message.find("\"v\""), std::string::npos) << error.message;
      EXPECT_NE(error.message.find(shown), std::string::npos) << "'" << shown << "' not in: " << error.message;
      EXPECT_NE(error.message.find(typeName), std::string::npos) << error.message;
    }
    EXPECT_EQ(viewError.message, rowError.message);
  }

  sqlitebridge::Database db_ = sqlitebridge::Database::open(":memory:");
};

}  // namespace sqlitebridge_test
