#include "ConversionFailure.hpp"

#include <cstdint>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

namespace {

constexpr std::size_t kShownTextBytes = 40;

// The length of the longest prefix of `text` that is at most `limit` bytes
// and does not cut a character (text is valid UTF-8 here).
std::size_t prefixLength(const unsigned char* text, std::size_t size, std::size_t limit) noexcept {
  if (size <= limit) return size;
  std::size_t length = limit;
  while (length > 0 && (text[length] & 0xC0) == 0x80) --length;  // back to a character's first byte
  return length;
}

}  // namespace

bool isValidUTF8(const void* bytes, std::size_t size) noexcept {
  const auto* text = static_cast<const unsigned char*>(bytes);
  std::size_t i = 0;
  while (i < size) {
    const unsigned char lead = text[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    std::uint32_t codePoint = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      codePoint = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      codePoint = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      codePoint = lead & 0x07;
    } else {
      return false;
    }
    if (size - i < length) return false;
    for (std::size_t k = 1; k < length; ++k) {
      if ((text[i + k] & 0xC0) != 0x80) return false;
      codePoint = (codePoint << 6) | (text[i + k] & 0x3F);
    }
    const std::uint32_t smallest = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (codePoint < smallest || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

std::string describeValueForConversion(const ColumnView& value) {
  switch (value.type) {
    case ValueType::Null:
      return "NULL";
    case ValueType::Integer:
      return "integer " + std::to_string(value.integer);
    case ValueType::Real: {
      // As SQLite turns a real into text ("2.0", "1.0e+300").
      char text[64];
      sqlite3_snprintf(static_cast<int>(sizeof text), text, "%!.15g", value.real);
      return std::string("real ") + text;
    }
    case ValueType::Text: {
      const auto* bytes = static_cast<const unsigned char*>(value.bytes);
      if (!isValidUTF8(bytes, value.size)) {
        return "text that is not valid UTF-8 (" + std::to_string(value.size) + " byte(s))";
      }
      const std::size_t shown = prefixLength(bytes, value.size, kShownTextBytes);
      return "text '" + std::string(reinterpret_cast<const char*>(bytes), shown) + (shown < value.size ? "...'" : "'");
    }
    case ValueType::Blob:
      return "a blob of " + std::to_string(value.size) + " byte(s)";
  }
  return "a value";
}

std::string conversionFailureMessage(const std::string& column, const ColumnView& value, const std::string& typeName,
                                     const std::string& note) {
  return "column \"" + column + "\" holds " + describeValueForConversion(value) + (note.empty() ? "" : " " + note) +
         ", which does not convert to " + typeName;
}

std::string columnIndexOutOfRangeMessage(long long index, std::size_t count) {
  return "column index " + std::to_string(index) + " is out of range: the row has " + std::to_string(count) +
         " column(s)";
}

std::string missingColumnMessage(const std::string& name) { return "no column named \"" + name + "\" in the row"; }

}  // namespace sqlitebridge
