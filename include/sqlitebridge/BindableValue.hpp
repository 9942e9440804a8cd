#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "Uuid.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// True for the types `Statement::bindValues` and the variadic
/// `Database::execute(sql, values...)` bind, each with `Statement`'s typed
/// `bind` overload: `std::nullptr_t` and `std::nullopt_t` (NULL), `bool`,
/// every integer and floating-point type, `const char*` and string literals,
/// `std::string`, `std::string_view`, `std::vector<std::uint8_t>` (a blob),
/// `std::chrono::system_clock::time_point` (date text), `Uuid` (a 16-byte
/// blob), `Value`, and `std::optional` of any of these (NULL when empty).
///
/// Everything else is false: `long double` (it would bind as `float` or
/// `double` alike), and pointers other than `char` pointers among
/// them: a `std::vector<Row>*` or `int*` would otherwise bind as `bool`.
/// That keeps the older `execute` overloads (`execute(sql, &rows)`,
/// `execute(sql, arguments)`, `execute(sql, namedValues)`,
/// `execute(sql, bind, onRow)`, ...) out of the variadic one's reach.
template <typename T>
struct IsBindableValue
    : std::bool_constant<(std::is_arithmetic_v<T> && !std::is_same_v<T, long double>) ||
                         std::is_same_v<T, std::nullptr_t> || std::is_same_v<T, std::nullopt_t> ||
                         std::is_same_v<T, const char*> || std::is_same_v<T, char*> || std::is_same_v<T, std::string> ||
                         std::is_same_v<T, std::string_view> || std::is_same_v<T, std::vector<std::uint8_t>> ||
                         std::is_same_v<T, std::chrono::system_clock::time_point> || std::is_same_v<T, Uuid> ||
                         std::is_same_v<T, Value>> {};
/// String literals and char arrays bind as NUL-terminated text.
template <std::size_t N>
struct IsBindableValue<char[N]> : std::true_type {};
template <std::size_t N>
struct IsBindableValue<const char[N]> : std::true_type {};
/// An optional binds its value, or NULL.
template <typename T>
struct IsBindableValue<std::optional<T>> : IsBindableValue<T> {};

/// `IsBindableValue` of `T` without references and cv-qualifiers.
template <typename T>
inline constexpr bool isBindableValue = IsBindableValue<std::remove_cv_t<std::remove_reference_t<T>>>::value;

/// True when `Values` can be the values of the variadic
/// `Database::execute(sql, values...)`: at least one, each bindable, and
/// not a lone `std::nullptr_t`, which keeps meaning `execute(sql, nullptr)`,
/// "no results" (bind a single NULL with `std::nullopt`).
template <typename... Values>
inline constexpr bool areExecuteValues =
    sizeof...(Values) > 0 && (isBindableValue<Values> && ...) &&
    !(sizeof...(Values) == 1 &&
      (std::is_same_v<std::remove_cv_t<std::remove_reference_t<Values>>, std::nullptr_t> && ...));

}  // namespace sqlitebridge
