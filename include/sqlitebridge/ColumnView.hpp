#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

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

inline ColumnView Value::view() const noexcept {
  ColumnView view{type(), 0, 0.0, nullptr, 0};
  switch (type()) {
    case ValueType::Integer:
      std::memcpy(&view.integer, data_, sizeof view.integer);
      break;
    case ValueType::Real:
      std::memcpy(&view.real, data_, sizeof view.real);
      break;
    case ValueType::Text:
    case ValueType::Blob:
      view.bytes = bytes();
      view.size = byteCount();
      break;
    case ValueType::Null:
      break;
  }
  return view;
}

}  // namespace sqlitebridge
