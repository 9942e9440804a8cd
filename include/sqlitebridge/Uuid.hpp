#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "Export.hpp"

namespace sqlitebridge {

/// A UUID: its 16 bytes in RFC 4122 order (the order of the text form, most
/// significant first), as Foundation's `UUID` holds them. A database stores
/// it as a blob of those 16 bytes (`Value(const Uuid&)`,
/// `Statement::bind(int, const Uuid&)`) and reads it back from such a blob
/// or from its text form (`ColumnDecoder<Uuid>`).
class SQLITEBRIDGE_API Uuid {
 public:
  /// The nil UUID, 00000000-0000-0000-0000-000000000000.
  constexpr Uuid() noexcept = default;
  /// The UUID of these 16 bytes, in RFC 4122 order.
  explicit constexpr Uuid(const std::array<std::uint8_t, 16>& bytes) noexcept : bytes_(bytes) {}

  /// The 16 bytes, in RFC 4122 order.
  const std::array<std::uint8_t, 16>& bytes() const noexcept { return bytes_; }

  /// Parses the 36-character text form, as Foundation's
  /// `UUID(uuidString:)` does: hex digits of either case in groups of 8, 4,
  /// 4, 4 and 12, separated by `-`, e.g.
  /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`. Nullopt for anything else
  /// (another length, braces, spaces, a missing or misplaced hyphen, a
  /// character that is not a hex digit).
  static std::optional<Uuid> fromString(std::string_view text) noexcept;

  /// The 36-character uppercase text form (as Foundation's `uuidString`).
  /// Throws std::bad_alloc when the string cannot be allocated.
  std::string toString() const;

  /// Same 16 bytes.
  friend bool operator==(const Uuid& a, const Uuid& b) noexcept { return a.bytes_ == b.bytes_; }
  /// Different bytes.
  friend bool operator!=(const Uuid& a, const Uuid& b) noexcept { return !(a == b); }

 private:
  std::array<std::uint8_t, 16> bytes_{};
};

}  // namespace sqlitebridge
