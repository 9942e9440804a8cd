#pragma once

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ColumnView.hpp"
#include "Date.hpp"
#include "Uuid.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// Exact conversion of one column to a C++ type, for `RowView::get`. The
/// rules are the same in C++ and Swift: a conversion happens only when it
/// loses nothing — an integer reads as any integer type it fits, a real
/// with no fractional part reads as an integer, an integer reads as a
/// floating-point type, `bool` reads any non-zero integer as true; text is
/// never parsed as a number, NULL never reads as a non-optional type.
///
/// `decode(view, out)` returns false, leaving `out` alone, when the value
/// does not convert. Specialize it to teach `get` a type of your own.
template <typename T, typename Enable = void>
struct ColumnDecoder;

/// Integers of every width, and bool.
template <typename T>
struct ColumnDecoder<T, std::enable_if_t<std::is_integral_v<T>>> {
  /// Reads an integer, or a real holding a whole number, that fits `T`
  /// (for bool: nonzero is true); false (leaving `out` alone) otherwise.
  static bool decode(const ColumnView& view, T& out) noexcept {
    std::int64_t integer = 0;
    if (view.type == ValueType::Integer) {
      integer = view.integer;
    } else if (view.type == ValueType::Real && std::trunc(view.real) == view.real &&
               view.real >= -9223372036854775808.0 && view.real < 9223372036854775808.0) {
      integer = static_cast<std::int64_t>(view.real);
    } else {
      return false;
    }
    if constexpr (std::is_same_v<T, bool>) {
      out = integer != 0;
      return true;
    } else if constexpr (std::is_signed_v<T>) {
      if (integer < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
          integer > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
        return false;
      }
      out = static_cast<T>(integer);
      return true;
    } else {
      if (integer < 0 || static_cast<std::uint64_t>(integer) > std::numeric_limits<T>::max()) return false;
      out = static_cast<T>(integer);
      return true;
    }
  }
};

/// float and double: from a real, or from an integer, as the nearest value.
/// A finite real beyond the type's range (it would become infinity) fails.
template <typename T>
struct ColumnDecoder<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  /// Reads a real or an integer as the nearest `T`; false (leaving `out`
  /// alone) for text, a blob, NULL or a finite real beyond `T`'s range.
  static bool decode(const ColumnView& view, T& out) noexcept {
    if (view.type == ValueType::Real) {
      // IEEE conversion: rounds to nearest, overflows to infinity.
      const T nearest = static_cast<T>(view.real);
      if (std::isfinite(view.real) && !std::isfinite(nearest)) return false;
      out = nearest;
    } else if (view.type == ValueType::Integer) {
      out = static_cast<T>(view.integer);
    } else {
      return false;
    }
    return true;
  }
};

/// Text only (a blob is not text).
template <>
struct ColumnDecoder<std::string> {
  /// Reads text; false (leaving `out` alone) for any other storage class.
  static bool decode(const ColumnView& view, std::string& out) {
    if (view.type != ValueType::Text) return false;
    out.assign(static_cast<const char*>(view.bytes), view.size);
    return true;
  }
};

/// Blobs only (text is not a blob).
template <>
struct ColumnDecoder<std::vector<std::uint8_t>> {
  /// Reads a blob; false (leaving `out` alone) for any other storage class.
  static bool decode(const ColumnView& view, std::vector<std::uint8_t>& out) {
    if (view.type != ValueType::Blob) return false;
    const auto* bytes = static_cast<const std::uint8_t*>(view.bytes);
    out.assign(bytes, bytes + view.size);
    return true;
  }
};

/// Any value, as it is.
template <>
struct ColumnDecoder<Value> {
  /// Copies the value, whatever its storage class; never false. Throws
  /// std::bad_alloc when text or a blob cannot be copied.
  static bool decode(const ColumnView& view, Value& out) {
    switch (view.type) {
      case ValueType::Null:
        out = Value();
        break;
      case ValueType::Integer:
        out = Value(view.integer);
        break;
      case ValueType::Real:
        out = Value(view.real);
        break;
      case ValueType::Text:
        out = Value(std::string(static_cast<const char*>(view.bytes), view.size));
        break;
      case ValueType::Blob:
        out = Value::fromBlob(view.bytes, view.size);
        break;
    }
    return true;
  }
};

/// A date, to the millisecond, with the rules of the Swift facade's `Date`:
/// text as `parseDateText` reads it (`yyyy-MM-dd`, optionally a time, a
/// fraction and a `Z` or `±HH:mm` offset), an integer as Unix seconds
/// (`dateFromUnixSeconds`), a real as a Julian day number
/// (`dateFromJulianDay`). Fails for other text, a blob or NULL, for a number
/// out of range, and for a date that `std::chrono::system_clock` cannot hold
/// (with nanosecond ticks, as on Linux, about 292 years either side of
/// 1970; see `timePointFromUnixMilliseconds`).
template <>
struct ColumnDecoder<std::chrono::system_clock::time_point> {
  /// Reads a date as described above; false (leaving `out` alone) when
  /// the value is not one.
  static bool decode(const ColumnView& view, std::chrono::system_clock::time_point& out) noexcept {
    std::int64_t milliseconds = 0;
    switch (view.type) {
      case ValueType::Text:
        if (!parseDateText(view.bytes, view.size, milliseconds)) return false;
        break;
      case ValueType::Integer:
        if (!dateFromUnixSeconds(view.integer, milliseconds)) return false;
        break;
      case ValueType::Real:
        if (!dateFromJulianDay(view.real, milliseconds)) return false;
        break;
      case ValueType::Null:
      case ValueType::Blob:
        return false;
    }
    return timePointFromUnixMilliseconds(milliseconds, out);
  }
};

/// A UUID, with the rules of the Swift facade's `UUID`: a blob of exactly 16
/// bytes (RFC 4122 order), or text in the 36-character form
/// `Uuid::fromString` reads (either case). Fails for a blob of another
/// length, other text, a number or NULL.
template <>
struct ColumnDecoder<Uuid> {
  /// Reads a UUID as described above; false (leaving `out` alone) when
  /// the value is not one.
  static bool decode(const ColumnView& view, Uuid& out) noexcept {
    if (view.type == ValueType::Blob) {
      std::array<std::uint8_t, 16> bytes;
      if (view.size != bytes.size()) return false;
      std::memcpy(bytes.data(), view.bytes, bytes.size());
      out = Uuid(bytes);
      return true;
    }
    if (view.type == ValueType::Text) {
      const std::optional<Uuid> uuid =
          Uuid::fromString(std::string_view(static_cast<const char*>(view.bytes), view.size));
      if (!uuid) return false;
      out = *uuid;
      return true;
    }
    return false;
  }
};

/// NULL reads as an empty optional; anything else as `T` does.
template <typename T>
struct ColumnDecoder<std::optional<T>> {
  /// Empties `out` for NULL, else reads a `T`; false (leaving `out` alone)
  /// when the value does not convert to `T`.
  static bool decode(const ColumnView& view, std::optional<T>& out) {
    if (view.type == ValueType::Null) {
      out.reset();
      return true;
    }
    T value{};
    if (!ColumnDecoder<T>::decode(view, value)) return false;
    out = std::move(value);
    return true;
  }
};

/// The type's name in conversion errors ("int32", "double", "string",
/// "date", "uuid", ...).
template <typename T>
struct DecodedTypeName {
  /// The name, a static string.
  static constexpr const char* value() noexcept {
    if constexpr (std::is_same_v<T, bool>) {
      return "bool";
    } else if constexpr (std::is_integral_v<T>) {
      constexpr const char* names[2][4] = {{"uint8", "uint16", "uint32", "uint64"},
                                           {"int8", "int16", "int32", "int64"}};
      constexpr int width = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
      return names[std::is_signed_v<T> ? 1 : 0][width];
    } else if constexpr (std::is_same_v<T, float>) {
      return "float";
    } else if constexpr (std::is_floating_point_v<T>) {
      return "double";
    } else if constexpr (std::is_same_v<T, std::string>) {
      return "string";
    } else if constexpr (std::is_same_v<T, std::vector<std::uint8_t>>) {
      return "blob";
    } else if constexpr (std::is_same_v<T, std::chrono::system_clock::time_point>) {
      return "date";
    } else if constexpr (std::is_same_v<T, Uuid>) {
      return "uuid";
    } else {
      return "the requested type";
    }
  }
};

template <typename T>
struct DecodedTypeName<std::optional<T>> : DecodedTypeName<T> {};

}  // namespace sqlitebridge
