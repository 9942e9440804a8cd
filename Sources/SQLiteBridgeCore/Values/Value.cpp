#include "sqlitebridge/Value.hpp"

#include <cmath>
#include <cstring>
#include <exception>
#include <new>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

namespace {

// SQLite's conversions between text, blobs and numbers are intricate
// (prefix parsing, clamping, "%!.15g" formatting). Rather than re-implement
// them, a per-thread in-memory connection runs "SELECT ?" and reads the
// bound value back with the sqlite3_column_* function asked for, which
// converts exactly as sqlite3_value_* does.
class Converter {
 public:
  Converter() noexcept {
    if (sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) == SQLITE_OK) {
      sqlite3_prepare_v2(db_, "SELECT ?", -1, &stmt_, nullptr);
    }
  }
  ~Converter() {
    sqlite3_finalize(stmt_);
    sqlite3_close(db_);
  }
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;

  // Binds `value`, steps, and hands the statement to `read`; `fallback` when
  // SQLite is unavailable (out of memory).
  template <typename Read, typename Result>
  Result convert(ValueType type, std::int64_t integer, double real, const char* bytes, std::size_t size, Read read,
                 Result fallback) noexcept {
    if (stmt_ == nullptr) return fallback;
    bind(type, integer, real, bytes, size);
    Result result = fallback;
    if (sqlite3_step(stmt_) == SQLITE_ROW) result = read(stmt_);
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    return result;
  }

 private:
  void bind(ValueType type, std::int64_t integer, double real, const char* bytes, std::size_t size) noexcept {
    switch (type) {
      case ValueType::Null:
        sqlite3_bind_null(stmt_, 1);
        break;
      case ValueType::Integer:
        sqlite3_bind_int64(stmt_, 1, integer);
        break;
      case ValueType::Real:
        sqlite3_bind_double(stmt_, 1, real);
        break;
      case ValueType::Text:
        sqlite3_bind_text64(stmt_, 1, bytes, size, SQLITE_STATIC, SQLITE_UTF8);
        break;
      case ValueType::Blob:
        // A null pointer would bind NULL; a zero-length blob is not NULL.
        sqlite3_bind_blob64(stmt_, 1, size == 0 ? "" : bytes, size, SQLITE_STATIC);
        break;
    }
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

Converter& converter() {
  thread_local Converter instance;
  return instance;
}

// sqlite3_value_int64 of a real: truncate toward zero, clamp to the range.
std::int64_t realToInteger(double real) noexcept {
  if (std::isnan(real)) return 0;
  if (real <= static_cast<double>(INT64_MIN)) return INT64_MIN;
  if (real >= static_cast<double>(INT64_MAX)) return INT64_MAX;
  return static_cast<std::int64_t>(real);
}

}  // namespace

// A row of values is read into memory value by value: keep them small.
static_assert(sizeof(Value) == 10, "a Value is its 8-byte payload, its byte count and its storage class");

// Heap blocks: the byte count, then the bytes. malloc rather than new: a
// block is raw bytes, and malloc reports failure without throwing.
void Value::copyBytes(const void* bytes, std::size_t size) {
  if (size <= kInline) {
    if (size > 0) std::memcpy(data_, bytes, size);
    size_ = static_cast<std::uint8_t>(size);
    return;
  }
  if (size > SIZE_MAX - sizeof(std::size_t)) throw std::bad_alloc();
  char* block = static_cast<char*>(std::malloc(sizeof(std::size_t) + size));
  if (block == nullptr) throw std::bad_alloc();
  std::memcpy(block, &size, sizeof size);
  std::memcpy(block + sizeof(std::size_t), bytes, size);
  std::memcpy(data_, &block, sizeof block);
  size_ = kOnHeap;
}

Value Value::ofBytes(ValueType type, const void* bytes, std::size_t size) {
  Value value;
  value.copyBytes(bytes, size);
  value.type_ = static_cast<std::uint8_t>(type);
  return value;
}

Value::Value(std::string text) noexcept : type_(static_cast<std::uint8_t>(ValueType::Text)) {
  try {
    copyBytes(text.data(), text.size());
  } catch (...) {
    // No way to report it from a noexcept constructor, and making the value
    // anything but this text would silently change data.
    std::terminate();
  }
}

Value::Value(const char* text) {
  if (text != nullptr) {
    copyBytes(text, std::strlen(text));
    type_ = static_cast<std::uint8_t>(ValueType::Text);
  }
}

Value Value::fromBlob(std::vector<std::uint8_t> bytes) { return fromBlob(bytes.data(), bytes.size()); }

Value Value::fromBlob(const void* bytes, std::size_t size) { return ofBytes(ValueType::Blob, bytes, size); }

std::int64_t Value::asInteger() const noexcept {
  std::int64_t integer;
  double real;
  std::memcpy(&integer, data_, sizeof integer);
  std::memcpy(&real, data_, sizeof real);
  switch (type()) {
    case ValueType::Null:
      return 0;
    case ValueType::Integer:
      return integer;
    case ValueType::Real:
      return realToInteger(real);
    default:
      return converter().convert(
          type(), 0, 0.0, bytes(), byteCount(),
          [](sqlite3_stmt* stmt) { return static_cast<std::int64_t>(sqlite3_column_int64(stmt, 0)); }, std::int64_t{0});
  }
}

double Value::asReal() const noexcept {
  std::int64_t integer;
  double real;
  std::memcpy(&integer, data_, sizeof integer);
  std::memcpy(&real, data_, sizeof real);
  switch (type()) {
    case ValueType::Null:
      return 0.0;
    case ValueType::Integer:
      return static_cast<double>(integer);
    case ValueType::Real:
      return real;
    default:
      return converter().convert(
          type(), 0, 0.0, bytes(), byteCount(), [](sqlite3_stmt* stmt) { return sqlite3_column_double(stmt, 0); }, 0.0);
  }
}

std::string Value::asText() const {
  std::int64_t integer;
  double real;
  std::memcpy(&integer, data_, sizeof integer);
  std::memcpy(&real, data_, sizeof real);
  switch (type()) {
    case ValueType::Null:
      return std::string();
    case ValueType::Text:
    case ValueType::Blob:
      return std::string(bytes(), byteCount());
    default:
      return converter().convert(
          type(), integer, real, nullptr, 0,
          [](sqlite3_stmt* stmt) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
            return text == nullptr ? std::string()
                                   : std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
          },
          std::string());
  }
}

std::vector<std::uint8_t> Value::asBlob() const {
  switch (type()) {
    case ValueType::Null:
      return {};
    case ValueType::Text:
    case ValueType::Blob: {
      const auto* first = reinterpret_cast<const std::uint8_t*>(bytes());
      return std::vector<std::uint8_t>(first, first + byteCount());
    }
    default: {
      // A number's bytes are those of its text form, as in SQLite.
      const std::string text = asText();
      return std::vector<std::uint8_t>(text.begin(), text.end());
    }
  }
}

bool operator==(const Value& a, const Value& b) noexcept {
  if (a.type_ != b.type_) return false;
  switch (a.type()) {
    case ValueType::Null:
      return true;
    case ValueType::Integer:
      return a.asInteger() == b.asInteger();
    case ValueType::Real: {
      double x;
      double y;
      std::memcpy(&x, a.data_, sizeof x);
      std::memcpy(&y, b.data_, sizeof y);
      return x == y;
    }
    default: {
      const std::size_t size = a.byteCount();
      return size == b.byteCount() && (size == 0 || std::memcmp(a.bytes(), b.bytes(), size) == 0);
    }
  }
}

}  // namespace sqlitebridge
