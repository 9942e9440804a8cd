// Helpers for the query interface tests (Tests/CxxTests/Query/): a request
// rendered to text and described arguments, and a small schema to run on.
#pragma once

#include <string>
#include <vector>

#include "TestSupport.hpp"

namespace sqlitebridge_test {

/// What rendering a request gave: its SQL text and arguments (each as
/// `describe` writes it), or the error.
struct Rendered {
  bool ok = false;
  std::string sql;
  std::vector<std::string> arguments;
  sqlitebridge::Error error;
};

enum class RenderedStatement { Select, Count, Delete };

inline Rendered render(sqlitebridge::Database& db, const sqlitebridge::QueryRequest& request,
                       RenderedStatement statement = RenderedStatement::Select) {
  sqlitebridge::SQL sql;
  Rendered rendered;
  switch (statement) {
    case RenderedStatement::Select:
      rendered.ok = request.makeSQL(db, sql);
      break;
    case RenderedStatement::Count:
      rendered.ok = request.makeCountSQL(db, sql);
      break;
    case RenderedStatement::Delete:
      rendered.ok = request.makeDeleteSQL(db, sql);
      break;
  }
  rendered.error = db.lastError();
  if (rendered.ok) {
    rendered.sql = sql.text();
    for (const sqlitebridge::Value& argument : sql.arguments()) rendered.arguments.push_back(describe(argument));
  }
  return rendered;
}

/// The rendered SQL text of a request (empty, with a test failure, when it
/// does not render).
inline std::string sqlOf(sqlitebridge::Database& db, const sqlitebridge::QueryRequest& request) {
  const Rendered rendered = render(db, request);
  EXPECT_TRUE(rendered.ok) << rendered.error.message;
  return rendered.sql;
}

/// Every row `request` returns, rendered as `dump` renders rows (empty,
/// with a test failure, when it fails).
inline std::vector<std::string> fetched(sqlitebridge::Database& db, const sqlitebridge::QueryRequest& request) {
  std::vector<sqlitebridge::Row> rows;
  EXPECT_TRUE(db.fetch(request, &rows)) << db.error();
  return rowLines(rows);
}

/// Authors and their books (books.authorId references authors), a table
/// without any foreign key, and one with two keys to authors.
inline const char* librarySchema() {
  return "CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT, country TEXT);"
         "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, year INTEGER, "
         "  authorId INTEGER REFERENCES authors(id));"
         "CREATE TABLE loose (id INTEGER PRIMARY KEY, authorId INTEGER);"
         "CREATE TABLE translations (id INTEGER PRIMARY KEY, "
         "  authorId INTEGER REFERENCES authors(id), translatorId INTEGER REFERENCES authors(id));"
         "CREATE TABLE reviews (id INTEGER PRIMARY KEY, bookId INTEGER REFERENCES books, stars INTEGER);"
         "INSERT INTO authors VALUES (1, 'Ann', 'FR'), (2, 'Bob', 'US'), (3, 'Cid', NULL);"
         "INSERT INTO books VALUES (1, 'A1', 1990, 1), (2, 'A2', 2001, 1), (3, 'B1', 2010, 2), "
         "  (4, 'Orphan', NULL, NULL);"
         "INSERT INTO reviews VALUES (1, 1, 5), (2, 1, 3), (3, 3, 4);";
}

/// A fresh in-memory database holding `librarySchema()`.
inline sqlitebridge::Database openLibrary() {
  sqlitebridge::Database db = sqlitebridge::Database::open(":memory:");
  EXPECT_TRUE(db.isOpen()) << db.error();
  EXPECT_TRUE(db.executeScript(librarySchema())) << db.error();
  return db;
}

}  // namespace sqlitebridge_test
