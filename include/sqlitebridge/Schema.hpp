#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sqlitebridge {

/// One column of a table or view, as `Database::columns` reports it (from
/// SQLite's `PRAGMA table_xinfo`).
struct ColumnInfo {
  /// The name as declared (its case kept).
  std::string name;
  /// The declared type as written (`INTEGER`, `VARCHAR(20)`, ...); empty when
  /// none was declared.
  std::string declaredType;
  /// Whether the column is declared NOT NULL.
  bool isNotNull = false;
  /// The SQL text of the column's DEFAULT (`'x'`, `0`, `CURRENT_TIMESTAMP`,
  /// ...); empty (no value) when it has none.
  std::optional<std::string> defaultValueSQL;
  /// The column's position in the primary key, 1-based; 0 when it is not
  /// part of it.
  int primaryKeyIndex = 0;
  /// Whether `PRAGMA table_info` leaves the column out: a hidden column of a
  /// virtual table, or a generated column (VIRTUAL or STORED).
  bool isHidden = false;
};

/// Why an index exists (`origin` in SQLite's `PRAGMA index_list`).
enum class IndexOrigin {
  /// A CREATE INDEX statement ("c").
  CreateIndex,
  /// A UNIQUE constraint of the table ("u").
  UniqueConstraint,
  /// The PRIMARY KEY of the table ("pk"); an INTEGER PRIMARY KEY is the
  /// rowid itself and has no index.
  PrimaryKey,
};

/// One index of a table, as `Database::indexes` reports it.
struct IndexInfo {
  /// The index's name (`sqlite_autoindex_<table>_<n>` for the indexes of
  /// constraints).
  std::string name;
  /// The indexed columns in key order; an empty string for an
  /// expression (`CREATE INDEX i ON t(a + 1)`).
  std::vector<std::string> columns;
  /// Whether the index is UNIQUE.
  bool isUnique = false;
  /// What made the index.
  IndexOrigin origin = IndexOrigin::CreateIndex;
};

/// One foreign key of a table, as `Database::foreignKeys` reports it (from
/// `PRAGMA foreign_key_list`; a key over several columns is one entry).
struct ForeignKeyInfo {
  /// The referenced table, as the REFERENCES clause names it.
  std::string destinationTable;
  /// The referencing columns of this table, in key order.
  std::vector<std::string> columns;
  /// The referenced columns, in the same order; empty when the key
  /// references the destination's primary key implicitly (`REFERENCES p`).
  std::vector<std::string> destinationColumns;
  /// The ON UPDATE action: "NO ACTION", "RESTRICT", "SET NULL", "SET
  /// DEFAULT" or "CASCADE".
  std::string onUpdate;
  /// The ON DELETE action, as `onUpdate`.
  std::string onDelete;
};

/// One row that breaks a foreign key, as `Database::foreignKeyCheck` reports
/// it (from `PRAGMA foreign_key_check`).
struct ForeignKeyViolation {
  /// The table holding the row.
  std::string table;
  /// The row's rowid; no value for a WITHOUT ROWID table.
  std::optional<std::int64_t> rowID;
  /// The table the broken key references.
  std::string destinationTable;
  /// Which foreign key of `table` is broken: its position in
  /// `Database::foreignKeys(table, ...)` (SQLite's foreign key id).
  int foreignKeyIndex = 0;
};

}  // namespace sqlitebridge
