#pragma once

#include <cstddef>
#include <cstdint>

#include "Value.hpp"

namespace sqlitebridge {

/// One column of a statement's current row, read with a single sqlite3 call
/// and borrowed, not copied: `bytes` points into the statement and is valid
/// only until the statement steps, resets or is finalized.
struct ColumnView {
  /// The storage class of the value.
  ValueType type;
  /// The value when `type` is Integer; 0 otherwise.
  std::int64_t integer;
  /// The value when `type` is Real; 0 otherwise.
  double real;
  /// UTF-8 text or blob bytes when `type` is Text or Blob (may be null when
  /// `size` is 0); null otherwise. Text is not NUL-terminated here: use
  /// `size`.
  const void* bytes;
  /// Number of bytes at `bytes`.
  std::size_t size;
};

}  // namespace sqlitebridge
