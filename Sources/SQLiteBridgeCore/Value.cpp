#include "sqlitebridge/Value.hpp"

#include <cmath>
#include <cstring>

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
  Result convert(ValueType type, std::int64_t integer, double real, const std::string& bytes, Read read,
                 Result fallback) noexcept {
    if (stmt_ == nullptr) return fallback;
    bind(type, integer, real, bytes);
    Result result = fallback;
    if (sqlite3_step(stmt_) == SQLITE_ROW) result = read(stmt_);
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    return result;
  }

 private:
  void bind(ValueType type, std::int64_t integer, double real, const std::string& bytes) noexcept {
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
        sqlite3_bind_text64(stmt_, 1, bytes.data(), bytes.size(), SQLITE_STATIC, SQLITE_UTF8);
        break;
      case ValueType::Blob:
        sqlite3_bind_blob64(stmt_, 1, bytes.data(), bytes.size(), SQLITE_STATIC);
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

Value::Value(const char* text) {
  if (text != nullptr) {
    type_ = ValueType::Text;
    bytes_ = text;
  }
}

Value Value::fromBlob(std::vector<std::uint8_t> bytes) { return fromBlob(bytes.data(), bytes.size()); }

Value Value::fromBlob(const void* bytes, std::size_t size) {
  Value value;
  value.type_ = ValueType::Blob;
  if (size > 0) value.bytes_.assign(static_cast<const char*>(bytes), size);
  return value;
}

std::int64_t Value::asInteger() const noexcept {
  switch (type_) {
    case ValueType::Null:
      return 0;
    case ValueType::Integer:
      return integer_;
    case ValueType::Real:
      return realToInteger(real_);
    default:
      return converter().convert(
          type_, integer_, real_, bytes_,
          [](sqlite3_stmt* stmt) { return static_cast<std::int64_t>(sqlite3_column_int64(stmt, 0)); }, std::int64_t{0});
  }
}

double Value::asReal() const noexcept {
  switch (type_) {
    case ValueType::Null:
      return 0.0;
    case ValueType::Integer:
      return static_cast<double>(integer_);
    case ValueType::Real:
      return real_;
    default:
      return converter().convert(
          type_, integer_, real_, bytes_, [](sqlite3_stmt* stmt) { return sqlite3_column_double(stmt, 0); }, 0.0);
  }
}

std::string Value::asText() const {
  switch (type_) {
    case ValueType::Null:
      return std::string();
    case ValueType::Text:
    case ValueType::Blob:
      return bytes_;
    default:
      return converter().convert(
          type_, integer_, real_, bytes_,
          [](sqlite3_stmt* stmt) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
            return text == nullptr ? std::string()
                                   : std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
          },
          std::string());
  }
}

std::vector<std::uint8_t> Value::asBlob() const {
  switch (type_) {
    case ValueType::Null:
      return {};
    case ValueType::Text:
    case ValueType::Blob:
      return std::vector<std::uint8_t>(bytes_.begin(), bytes_.end());
    default: {
      // A number's bytes are those of its text form, as in SQLite.
      const std::string text = asText();
      return std::vector<std::uint8_t>(text.begin(), text.end());
    }
  }
}

bool operator==(const Value& a, const Value& b) noexcept {
  if (a.type_ != b.type_) return false;
  switch (a.type_) {
    case ValueType::Null:
      return true;
    case ValueType::Integer:
      return a.integer_ == b.integer_;
    case ValueType::Real:
      return a.real_ == b.real_;
    default:
      return a.bytes_ == b.bytes_;
  }
}

}  // namespace sqlitebridge
