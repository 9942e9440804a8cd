#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Export.hpp"
#include "Uuid.hpp"

namespace sqlitebridge {

struct ColumnView;

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
class SQLITEBRIDGE_API Value {
 public:
  /// NULL.
  Value() noexcept = default;
  /// A 64-bit integer.
  Value(int integer) noexcept : Value(static_cast<std::int64_t>(integer)) {}
  /// A 64-bit integer.
  Value(std::int64_t integer) noexcept : type_(static_cast<std::uint8_t>(ValueType::Integer)) {
    std::memcpy(data_, &integer, sizeof integer);
  }
  /// A double. NaN is stored by SQLite as NULL, as SQLite itself does.
  Value(double real) noexcept : type_(static_cast<std::uint8_t>(ValueType::Real)) {
    std::memcpy(data_, &real, sizeof real);
  }
  /// UTF-8 text; embedded NUL bytes are kept. (Text longer than a few bytes
  /// is copied to storage of the Value's own; if that allocation fails, the
  /// program terminates, as for any allocation failure in a noexcept call.)
  Value(std::string text) noexcept;
  /// NUL-terminated UTF-8 text; a null pointer makes a NULL value.
  Value(const char* text);
  /// The date text of `time` (`formatDateText`, e.g.
  /// `2024-03-05 12:34:56.789`, UTC), rounded to the nearest millisecond as
  /// `unixMillisecondsOf` rounds it (a tie to the even millisecond). Throws
  /// std::bad_alloc when the text cannot be stored.
  Value(std::chrono::system_clock::time_point time);
  /// A blob of the UUID's 16 bytes, in RFC 4122 order (`Uuid::bytes()`).
  /// Throws std::bad_alloc when the bytes cannot be stored.
  Value(const Uuid& uuid);
  /// A blob holding `bytes` (zero-length is a blob, not NULL).
  static Value fromBlob(std::vector<std::uint8_t> bytes);
  /// A blob holding `size` bytes copied from `bytes`.
  static Value fromBlob(const void* bytes, std::size_t size);

  /// A copy (text and blob bytes are copied).
  Value(const Value& other) : type_(other.type_) {
    if (other.onHeap()) {
      copyBytes(other.heapBytes(), other.heapSize());
    } else {
      std::memcpy(data_, other.data_, sizeof data_);
      size_ = other.size_;
    }
  }
  /// Takes `other`'s content; `other` keeps its storage class but is left
  /// without bytes (moved-from text is empty text).
  Value(Value&& other) noexcept : size_(other.size_), type_(other.type_) {
    std::memcpy(data_, other.data_, sizeof data_);
    other.size_ = 0;
  }
  /// Replaces the content with a copy of `other`'s.
  Value& operator=(const Value& other) {
    if (this != &other) *this = Value(other);
    return *this;
  }
  /// Replaces the content with `other`'s, leaving `other` as a move does.
  Value& operator=(Value&& other) noexcept {
    if (this != &other) {
      release();
      std::memcpy(data_, other.data_, sizeof data_);
      size_ = other.size_;
      type_ = other.type_;
      other.size_ = 0;
    }
    return *this;
  }
  /// Frees the bytes of long text or a long blob.
  ~Value() { release(); }

  /// The storage class.
  ValueType type() const noexcept { return static_cast<ValueType>(type_); }
  /// True for NULL.
  bool isNull() const noexcept { return type_ == static_cast<std::uint8_t>(ValueType::Null); }

  /// The value as a 64-bit integer, converted as `sqlite3_value_int64` does.
  std::int64_t asInteger() const noexcept;
  /// The value as a double, converted as `sqlite3_value_double` does.
  double asReal() const noexcept;
  /// The value as UTF-8 text, converted as `sqlite3_value_text` does.
  std::string asText() const;
  /// The value's bytes, converted as `sqlite3_value_blob` does.
  std::vector<std::uint8_t> asBlob() const;
  /// The value as a statement's column reads (`ColumnView`), in place: text
  /// and blob bytes point into this `Value` and stay valid while it lives
  /// unchanged. `Row::get` decodes it exactly as `RowView::get` decodes a
  /// column.
  ColumnView view() const noexcept;

  /// Same storage class and same content (reals compare with `==`).
  friend SQLITEBRIDGE_API bool operator==(const Value& a, const Value& b) noexcept;
  /// Not `==`.
  friend bool operator!=(const Value& a, const Value& b) noexcept { return !(a == b); }

 private:
  friend class Statement;  // makes text and blob values straight from a column's bytes

  // Ten bytes, byte-aligned, so that a row of values stays small: a row of
  // ten is 100 bytes (a std::string per value made it 560, and filling that
  // memory cost execute more than SQLite's own work). `data_` holds the
  // integer or the double (copied in and out with memcpy, which compiles to
  // one unaligned move), or text/blob bytes: up to kInline of them in place,
  // longer ones in a heap block (their count, then the bytes) that `data_`
  // points to.
  static constexpr std::size_t kInline = 8;
  static constexpr std::uint8_t kOnHeap = 0xFF;  // `size_` of a value whose bytes are on the heap

  /// A text or blob value of `size` bytes copied from `bytes`; throws
  /// std::bad_alloc when the bytes do not fit in place and cannot be
  /// allocated.
  static Value ofBytes(ValueType type, const void* bytes, std::size_t size);
  /// Stores a copy of `size` bytes (in place or on the heap); throws
  /// std::bad_alloc.
  void copyBytes(const void* bytes, std::size_t size);

  bool onHeap() const noexcept { return size_ == kOnHeap; }
  char* heap() const noexcept {
    char* block;
    std::memcpy(&block, data_, sizeof block);
    return block;
  }
  std::size_t heapSize() const noexcept {
    std::size_t size;
    std::memcpy(&size, heap(), sizeof size);
    return size;
  }
  const char* heapBytes() const noexcept { return heap() + sizeof(std::size_t); }
  /// Text or blob bytes (meaningless for other storage classes).
  const char* bytes() const noexcept { return onHeap() ? heapBytes() : data_; }
  std::size_t byteCount() const noexcept { return onHeap() ? heapSize() : size_; }
  void release() noexcept {
    if (onHeap()) std::free(heap());
  }

  char data_[kInline] = {};
  std::uint8_t size_ = 0;  // bytes in place, or kOnHeap
  std::uint8_t type_ = static_cast<std::uint8_t>(ValueType::Null);
};

}  // namespace sqlitebridge
