// The round trip of generated records (GeneratedRecords tests): a copy of a
// database's schema with no rows, every row of a table read through its
// generated RecordTraits and inserted into the copy, and both tables'
// values (storage classes included) in key order.
#pragma once

#include <string>
#include <vector>

#include "TestSupport.hpp"

namespace sqlitebridge_test {

/// `name` as an SQL identifier.
inline std::string quotedName(const std::string& name) {
  std::string out = "\"";
  for (const char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// Makes `to` hold `from`'s tables, indexes, views and triggers, with no
/// rows (foreign keys off in `to`, so that rows can come in any order).
inline void copySchema(sqlitebridge::Database& from, sqlitebridge::Database& to) {
  std::vector<sqlitebridge::Row> statements;
  ASSERT_TRUE(
      from.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' "
                   "ESCAPE '\\' ORDER BY rowid",
                   &statements))
      << from.error();
  ASSERT_TRUE(to.execute("PRAGMA foreign_keys = OFF")) << to.error();
  for (const sqlitebridge::Row& statement : statements) {
    ASSERT_TRUE(to.execute(statement.value(0).asText())) << to.error();
  }
}

/// Every row of `T`'s table, each column as "name=class:value", in key order.
template <typename T>
std::vector<std::string> tableValues(sqlitebridge::Database& db) {
  std::string order;
  for (const std::string& column : sqlitebridge::RecordTraits<T>::primaryKey()) {
    order += (order.empty() ? "" : ", ") + quotedName(column);
  }
  return dump(db, "SELECT * FROM " + quotedName(sqlitebridge::RecordTraits<T>::table) + " ORDER BY " + order);
}

/// Reads every row of `T`'s table in `from` as a `T`, inserts each into
/// `to`, and expects the two tables to hold the same values; returns how
/// many rows went across.
template <typename T>
std::size_t roundTrip(sqlitebridge::Database& from, sqlitebridge::Database& to) {
  std::vector<T> records;
  EXPECT_TRUE(from.fetchAll(records)) << from.error();
  for (const T& record : records) EXPECT_TRUE(to.insert(record)) << to.error();
  EXPECT_EQ(tableValues<T>(to), tableValues<T>(from)) << sqlitebridge::RecordTraits<T>::table;
  return records.size();
}

}  // namespace sqlitebridge_test
