#pragma once

#include <optional>
#include <string>
#include <utility>

#include "Value.hpp"

namespace sqlitebridge {

/// What an INSERT does when it would break a UNIQUE, NOT NULL, CHECK or
/// PRIMARY KEY constraint (SQLite's `INSERT OR …`): `Abort` fails and undoes
/// the statement (the transaction stays open), `Replace` deletes the rows in
/// the way and inserts, `Ignore` skips the row without an error, `Fail`
/// fails keeping what the statement already changed, `Rollback` fails and
/// rolls back the whole transaction. Always written out, so it overrides an
/// `ON CONFLICT` clause of the table's own.
enum class ConflictResolution { Abort, Replace, Ignore, Fail, Rollback };

/// One column of `Database::createTable` or `Database::addColumn`, rendered
/// as `"name" type [PRIMARY KEY [AUTOINCREMENT]] [NOT NULL] [UNIQUE]
/// [DEFAULT literal] [REFERENCES "table"("column")]`, the name quoted (any
/// name is just a name).
///
/// The rendering fails with SQLITE_MISUSE (nothing runs) when `name` or
/// `references` holds NUL; when `type` is not a type name: one or more
/// words (ASCII letters, digits and `_`, not starting with a digit) and,
/// at the end, optionally `(n)` or `(n, m)` with n and m signed numbers —
/// words that start a column constraint (CONSTRAINT, PRIMARY, NOT, NULL,
/// UNIQUE, CHECK, DEFAULT, COLLATE, REFERENCES, GENERATED, AS) are refused,
/// so that only the options below add constraints (an empty type is
/// allowed); when `autoincrement` is set without `primaryKey`; when
/// `defaultValue` is text holding NUL; when `references` is not
/// `table(column)` or `table` (both parts non-empty after trimming spaces;
/// the table is what precedes the first `(`, the column what lies between
/// it and the final `)`); when `references` names one of SQLite's own
/// tables (`sqlite_` in any case: SQLite would create the key, and then
/// every schema change would fail with "foreign key mismatch").
struct ColumnDefinition {
  /// A column without a name yet (every option off).
  ColumnDefinition() = default;
  /// A column called `name` of `type` with the options given, in the order
  /// of the members below: `ColumnDefinition("id", "INTEGER", true)` is the
  /// primary key.
  ColumnDefinition(std::string name, std::string type = std::string(), bool primaryKey = false,
                   bool autoincrement = false, bool notNull = false, bool unique = false,
                   std::optional<Value> defaultValue = std::nullopt, std::string references = std::string())
      : name(std::move(name)),
        type(std::move(type)),
        primaryKey(primaryKey),
        autoincrement(autoincrement),
        notNull(notNull),
        unique(unique),
        defaultValue(std::move(defaultValue)),
        references(std::move(references)) {}

  /// The column's name, quoted when rendered.
  std::string name;
  /// The declared type as written (`INTEGER`, `TEXT`, `VARCHAR(20)`, or
  /// empty for none); see above for what is allowed.
  std::string type;
  /// PRIMARY KEY.
  bool primaryKey = false;
  /// AUTOINCREMENT after PRIMARY KEY (SQLite allows it on an INTEGER
  /// PRIMARY KEY only).
  bool autoincrement = false;
  /// NOT NULL.
  bool notNull = false;
  /// UNIQUE.
  bool unique = false;
  /// DEFAULT as a literal made from the value: an integer; a real as the
  /// shortest decimal that this SQLite reads back as the same bits (checked
  /// with SQLite itself, whose decimal reading is not exact in every
  /// version), an integral one inside (CAST(… AS REAL)) so that it stays a
  /// real even for rows that existed before `addColumn`, infinities as
  /// (9e999) and (-9e999), NaN as NULL (as SQLite stores it); 'text' with
  /// quotes doubled; x'…' for a blob; NULL.
  std::optional<Value> defaultValue;
  /// REFERENCES: `"table(column)"` (or `"table"` for its primary key); each
  /// part is quoted when rendered. Empty for none.
  std::string references;
};

}  // namespace sqlitebridge
