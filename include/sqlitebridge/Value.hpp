#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sqlitebridge {

/// The five storage classes of SQLite.
enum class ValueType { Null, Integer, Real, Text, Blob };

/// One SQLite value, owned. Default-constructed, it is NULL.
///
/// Text is UTF-8 and may hold embedded NUL bytes; a zero-length blob is a
/// blob, not NULL. The `as…` accessors never fail: like SQLite's own
/// `sqlite3_value_int64`, `sqlite3_value_double`, `sqlite3_value_text` and
/// `sqlite3_value_blob`, they convert (text "12abc" reads as integer 12,
/// real 2.5 as integer 2, integer 7 as text "7", NULL as 0, 0.0, "" or an
/// empty blob). Conversions other than integer<->real are done by SQLite
/// itself, so they match it to the byte.
class Value {
 public:
  /// NULL.
  Value() noexcept = default;
  /// A 64-bit integer.
  Value(int integer) noexcept : type_(ValueType::Integer), integer_(integer) {}
  /// A 64-bit integer.
  Value(std::int64_t integer) noexcept : type_(ValueType::Integer), integer_(integer) {}
  /// A double. NaN is stored by SQLite as NULL, as SQLite itself does.
  Value(double real) noexcept : type_(ValueType::Real), real_(real) {}
  /// UTF-8 text; embedded NUL bytes are kept.
  Value(std::string text) noexcept : type_(ValueType::Text), bytes_(std::move(text)) {}
  /// NUL-terminated UTF-8 text; a null pointer makes a NULL value.
  Value(const char* text);
  /// A blob holding `bytes` (zero-length is a blob, not NULL).
  static Value fromBlob(std::vector<std::uint8_t> bytes);
  /// A blob holding `size` bytes copied from `bytes`.
  static Value fromBlob(const void* bytes, std::size_t size);

  /// The storage class.
  ValueType type() const noexcept { return type_; }
  /// True for NULL.
  bool isNull() const noexcept { return type_ == ValueType::Null; }

  /// The value as a 64-bit integer, converted as `sqlite3_value_int64` does.
  std::int64_t asInteger() const noexcept;
  /// The value as a double, converted as `sqlite3_value_double` does.
  double asReal() const noexcept;
  /// The value as UTF-8 text, converted as `sqlite3_value_text` does.
  std::string asText() const;
  /// The value's bytes, converted as `sqlite3_value_blob` does.
  std::vector<std::uint8_t> asBlob() const;

  /// Same storage class and same content (reals compare with `==`).
  friend bool operator==(const Value& a, const Value& b) noexcept;
  friend bool operator!=(const Value& a, const Value& b) noexcept { return !(a == b); }

 private:
  ValueType type_ = ValueType::Null;
  std::int64_t integer_ = 0;
  double real_ = 0;
  std::string bytes_;  // text or blob bytes
};

}  // namespace sqlitebridge
