#include "sqlitebridge/Uuid.hpp"

#include <cstddef>

#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {

namespace {

/// Length of the text form, and where its hyphens are.
constexpr std::size_t kTextLength = 36;

bool isHyphenPosition(std::size_t position) noexcept {
  return position == 8 || position == 13 || position == 18 || position == 23;
}

/// The value of hex digit `character` (either case), or -1.
int hexValue(char character) noexcept {
  if (character >= '0' && character <= '9') return character - '0';
  if (character >= 'a' && character <= 'f') return character - 'a' + 10;
  if (character >= 'A' && character <= 'F') return character - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<Uuid> Uuid::fromString(std::string_view text) noexcept {
  if (text.size() != kTextLength) return std::nullopt;
  std::array<std::uint8_t, 16> bytes{};
  std::size_t nibble = 0;  // hex digits read so far
  for (std::size_t position = 0; position < kTextLength; ++position) {
    const char character = text[position];
    if (isHyphenPosition(position)) {
      if (character != '-') return std::nullopt;
      continue;
    }
    const int value = hexValue(character);
    if (value < 0) return std::nullopt;
    bytes[nibble / 2] = static_cast<std::uint8_t>(bytes[nibble / 2] << 4 | value);
    ++nibble;
  }
  return Uuid(bytes);
}

std::string Uuid::toString() const {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text(kTextLength, '-');
  std::size_t nibble = 0;
  for (std::size_t position = 0; position < kTextLength; ++position) {
    if (isHyphenPosition(position)) continue;
    const std::uint8_t byte = bytes_[nibble / 2];
    text[position] = kDigits[nibble % 2 == 0 ? byte >> 4 : byte & 0x0F];
    ++nibble;
  }
  return text;
}

// MARK: Writing a Uuid

Value::Value(const Uuid& uuid) {
  copyBytes(uuid.bytes().data(), uuid.bytes().size());
  type_ = static_cast<std::uint8_t>(ValueType::Blob);
}

}  // namespace sqlitebridge
