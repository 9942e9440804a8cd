// A table's columns as the session extension sees them (PRAGMA table_info:
// no hidden or generated columns), to refuse what SQLite would silently
// skip or record nothing of. Internal.
#pragma once

#include <string>
#include <vector>

#include "sqlitebridge/Error.hpp"

namespace sqlitebridge {

class Connection;

struct TableShape {
  /// Whether the table exists (false: the rest is empty).
  bool exists = false;
  /// One flag per column, in order: whether it is in the PRIMARY KEY.
  std::vector<bool> primaryKey;
  /// One byte per column, in order: 0, or the column's place in the
  /// PRIMARY KEY (1, 2, ...): what a changeset's table header holds, and
  /// what SQLite's apply compares it with, byte for byte.
  std::vector<unsigned char> keyPositions;
  /// Whether any column is in the PRIMARY KEY.
  bool hasPrimaryKey() const noexcept;
};

/// The shape of `table` in `schema` of `connection` (open), into `out`.
/// False with SQLite's error in `*error` when the schema cannot be read.
bool readTableShape(Connection& connection, const std::string& schema, const std::string& table, TableShape& out,
                    Error* error) noexcept;

/// Whether a changeset's table header, `changesetKey` (its primary key
/// bytes, one per column it holds: 0 or the column's place in the key), can
/// be applied to `shape`: SQLite applies it when the table exists, has a
/// PRIMARY KEY, at least as many columns, and the same key bytes (every key
/// column among the changeset's, at the same place in the key). Otherwise
/// SQLITE_SCHEMA in `*error`, naming `table` and why.
bool changesetFitsTable(const std::string& table, const std::vector<unsigned char>& changesetKey,
                        const TableShape& shape, Error* error) noexcept;

}  // namespace sqlitebridge
