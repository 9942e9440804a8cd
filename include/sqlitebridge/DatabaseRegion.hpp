// The part of a database a statement reads or a transaction changes: tables,
// with all their columns or some of them, or the whole database.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "Export.hpp"

namespace sqlitebridge {

/// A set of tables and columns (or the whole database), compared as SQLite
/// compares identifiers: ASCII letters without regard to case, every other
/// byte exactly. A value type; every operation is pure and never fails
/// (except `std::bad_alloc` from the ones that build strings or sets, when
/// memory runs out).
///
/// The region a statement reads is what SQLite's authorizer reports while it
/// is prepared (`Database::region`): views are resolved to the tables they
/// read, SQLite's own tables (`sqlite_*`) and table-valued pragmas
/// (`pragma_*`) are left out, and a read that names no column (`COUNT(*)`,
/// a rowid or its alias) counts as the whole table.
class SQLITEBRIDGE_API DatabaseRegion {
 public:
  /// The empty region: it intersects nothing.
  DatabaseRegion();
  /// The whole database: it intersects every region but the empty one.
  static DatabaseRegion fullDatabase();
  /// Every column of table `name` (its rows as a whole: inserts and deletes
  /// too).
  static DatabaseRegion table(const std::string& name);
  /// The given columns of `table`; with no columns, the empty region.
  static DatabaseRegion columns(const std::string& table, const std::vector<std::string>& columns);

  /// Adds `other` to this region; returns it.
  DatabaseRegion& formUnion(const DatabaseRegion& other);
  /// Whether the two regions share a column (a table as a whole shares every
  /// column of it; the full database shares everything that is not empty).
  bool intersects(const DatabaseRegion& other) const noexcept;
  /// Whether the region holds nothing.
  bool isEmpty() const noexcept;
  /// Whether the region is the whole database.
  bool isFullDatabase() const noexcept;
  /// Whether the region holds table `name` (all of it or some columns).
  bool containsTable(const std::string& name) const noexcept;
  /// "t(a,b),u(*)": tables in order of their case-folded names, each with its
  /// columns in that order or `*` for all; "empty", or "full database". A
  /// name is spelled as it was first added.
  std::string description() const;
  /// The tables of the region, as first spelled, in description order.
  std::vector<std::string> tableNames() const;
  /// A hash that equal regions share (names case-folded).
  std::size_t hashValue() const noexcept;
  /// Whether both hold the same tables and columns (names compared as
  /// SQLite compares identifiers), or are both the full database.
  bool operator==(const DatabaseRegion& other) const noexcept;
  /// The opposite of `==`.
  bool operator!=(const DatabaseRegion& other) const noexcept { return !(*this == other); }

 private:
  struct Columns {
    std::string spelling;  // the table's name as first added
    bool all = false;
    std::map<std::string, std::string> names;  // case-folded name -> first spelling
  };
  bool full_ = false;
  std::map<std::string, Columns> tables_;  // case-folded table name -> columns
};

}  // namespace sqlitebridge
