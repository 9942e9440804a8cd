#include "SQLiteValue.hpp"

#include <cstdint>
#include <new>
#include <string>

namespace sqlitebridge {

Value valueOf(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
      return Value(static_cast<std::int64_t>(sqlite3_value_int64(value)));
    case SQLITE_FLOAT:
      return Value(sqlite3_value_double(value));
    case SQLITE_TEXT: {
      const unsigned char* text = sqlite3_value_text(value);
      const int size = sqlite3_value_bytes(value);
      if (text == nullptr && size > 0) throw std::bad_alloc();
      return Value(std::string(reinterpret_cast<const char*>(text), text != nullptr ? size : 0));
    }
    case SQLITE_BLOB: {
      const void* bytes = sqlite3_value_blob(value);
      const int size = sqlite3_value_bytes(value);
      if (bytes == nullptr && size > 0) throw std::bad_alloc();
      return Value::fromBlob(bytes, static_cast<std::size_t>(size));
    }
    default:
      return Value();
  }
}

}  // namespace sqlitebridge
