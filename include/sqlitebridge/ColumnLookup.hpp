#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "SQLite.hpp"

namespace sqlitebridge {

/// Remembers, over the rows of one run of a statement, which column each
/// `RowView::get(name, out)` found, so that reading by name costs one string
/// comparison per value instead of a search through the column names.
///
/// It relies on what record code does: each row reads the same names in the
/// same order. The n-th lookup of a row is checked against the n-th lookup
/// of the row before (exactly the same bytes: the same answer); anything
/// else is searched as without it, and remembered. A `RowView` made with a
/// lookup (`RowView(statement, &lookup)`) uses it; `startRow()` must be
/// called before each row's reads. Only for the rows of one run of one
/// statement (a statement re-prepared after a schema change may name its
/// columns differently): make a new one per run. `Database::fetch`,
/// `fetchOne`, `forEach`, `fetchByKey` and `fetchAll` use one.
class ColumnLookup {
 public:
  /// Starts a row: the next lookup is checked against the first of the row
  /// before.
  void startRow() noexcept { next_ = 0; }

  /// The column index remembered for `name` at this point of the row, or
  /// `kUnknown` when it must be searched (then `remember` it).
  int recall(const std::string& name) const noexcept { return recall(name.data(), name.size()); }
  /// `recall` for the `size` bytes at `name`.
  SQLITEBRIDGE_INLINE int recall(const char* name, std::size_t size) const noexcept {
    if (next_ >= count_) return kUnknown;
    const Entry& entry = entries_.data()[next_];
    if (entry.name.size() != size) return kUnknown;
    // Names are short: a loop the compiler keeps inline (and unrolls for a
    // literal) beats a memcmp call.
    const char* known = entry.name.data();
    for (std::size_t i = 0; i < size; ++i) {
      if (known[i] != name[i]) return kUnknown;
    }
    return entry.index;
  }
  /// Moves to the next lookup of the row, after a hit of `recall`.
  SQLITEBRIDGE_INLINE void advance() noexcept { ++next_; }
  /// Remembers that `name` is at `index` (-1: no such column) at this point
  /// of the row, and moves to the next lookup. When memory runs out it only
  /// forgets (the next rows search again).
  void remember(const std::string& name, int index) noexcept {
    try {
      if (next_ < entries_.size()) {
        entries_[next_].name = name;
        entries_[next_].index = index;
      } else {
        entries_.push_back(Entry{name, index});
        count_ = entries_.size();
      }
      ++next_;
    } catch (...) {
      entries_.resize(next_);
      count_ = entries_.size();
    }
  }

  /// `statement.columnCount()`, asked once per run (fixed once it steps).
  template <typename AnyStatement>
  SQLITEBRIDGE_INLINE int columnCount(const AnyStatement& statement) noexcept {
    if (columnCount_ < 0) columnCount_ = statement.columnCount();
    return columnCount_;
  }

  /// What `recall` returns when it has no answer.
  static constexpr int kUnknown = -2;

 private:
  struct Entry {
    std::string name;
    int index;
  };
  std::vector<Entry> entries_;
  std::size_t next_ = 0;
  std::size_t count_ = 0;
  int columnCount_ =
      -1;  // of the statement's rows; -1 until the first  // entries_.size(), kept: no division per lookup
};

}  // namespace sqlitebridge
