#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Error.hpp"
#include "Export.hpp"
#include "Value.hpp"

namespace sqlitebridge {

/// A statement built from typed pieces, so that what a user typed can only
/// ever be a value or a name, never SQL:
///
///     SQL query = SQL::raw("SELECT * FROM ").identifier(table)
///                     .sql(" WHERE title = ").value(title)
///                     .sql(" AND id IN ").list(ids);
///     database.execute(query, &rows);
///
/// Each piece says what it is by the method that appends it: `value` binds
/// its argument to a `?` (text, blobs and numbers alike: never spliced into
/// the text), `identifier` quotes a name (every `"` doubled), `list` expands
/// values to `(?, ?, ?)`, `literal` appends another `SQL` with its arguments
/// kept in order, and `sql` (or `raw`) appends text unchecked: the one way to
/// put SQL text in, meant for the text the program itself writes. No method
/// takes text that could mean either, so a `std::string` is SQL only where
/// the caller wrote `sql(…)`. The Swift `SQL` interpolation follows the same
/// rules, which live here (`quoteIdentifier`, `placeholderList`).
///
/// Raw text may hold its own `?` placeholders (with `raw`'s arguments, in
/// order); numbered (`?NNN`) and named (`:name`) parameters are not
/// renumbered when pieces are joined, so keep to plain `?` in raw text.
///
/// `Database` (`execute`, `prepare`, `forEachRow`, `fetch`, `fetchOne`,
/// `forEach`) and `ClusterDatabase` (`execute`) run it with its arguments.
/// An identifier holding a NUL byte (no SQL name can) makes the SQL invalid:
/// running it fails with SQLITE_MISUSE naming the identifier, before
/// anything runs (`failure()`).
class SQLITEBRIDGE_API SQL {
 public:
  /// Empty SQL: no text, no arguments.
  SQL() = default;

  /// `text` taken as SQL unchecked, with `arguments` bound to the plain `?`
  /// placeholders it holds, in order. Never give it what a user typed.
  static SQL raw(std::string text, std::vector<Value> arguments = {});

  /// Appends `text` as SQL, unchecked. Never give it what a user typed.
  SQL& sql(std::string_view text);
  /// Appends a `?` bound to `value`: any text, blob or number stays a value.
  SQL& value(Value value);
  /// Appends a `?` bound to NULL.
  SQL& value(std::nullopt_t) { return value(Value()); }
  /// Appends a `?` bound to `*value`, or to NULL when it is empty.
  template <typename T>
  SQL& value(const std::optional<T>& value) {
    return this->value(makeValue(value));
  }
  /// Appends `name` as a double-quoted identifier ("a""b" for a"b), so any
  /// name stays a name. A name holding NUL makes this SQL invalid.
  SQL& identifier(std::string_view name);
  /// Appends `(?, ?, …)` with one `?` bound to each value, in order; an
  /// empty list appends `()`, which SQLite reads as a list that matches
  /// nothing (`x IN ()` is false, `x NOT IN ()` true).
  SQL& list(const std::vector<Value>& values);
  /// `list` for any range of values `Value` can be made from (ints,
  /// doubles, strings…, and `std::optional`s of them: NULL when empty).
  template <typename Values>
  SQL& list(const Values& values) {
    std::vector<Value> converted;
    for (const auto& element : values) converted.push_back(makeValue(element));
    return list(converted);
  }
  /// Appends `other`'s text and its arguments (after this one's). An invalid
  /// `other` makes this SQL invalid too.
  SQL& literal(const SQL& other);

  /// The text SQLite prepares: values appear only as `?`.
  const std::string& text() const noexcept { return text_; }
  /// The values bound to the text's parameters, in order.
  const std::vector<Value>& arguments() const noexcept { return arguments_; }
  /// True unless an identifier held a NUL byte.
  bool isValid() const noexcept { return !failure_.isError(); }
  /// Why this SQL cannot run (SQLITE_MISUSE naming the identifier); no
  /// error when it is valid.
  const Error& failure() const noexcept { return failure_; }

  /// The rule of `identifier`: `quoted` gets `name` in double quotes, every
  /// `"` doubled. Fails (false, `error` set to SQLITE_MISUSE naming it) when
  /// `name` holds a NUL byte, which SQLite's text cannot carry.
  static bool quoteIdentifier(const std::string& name, std::string& quoted, Error& error) noexcept;
  /// The rule of `list`: "(?, ?, ?)" for 3, "()" for 0.
  static std::string placeholderList(std::size_t count) noexcept;

 private:
  template <typename T>
  static Value makeValue(const T& element) {
    return Value(element);
  }
  template <typename T>
  static Value makeValue(const std::optional<T>& element) {
    return element ? Value(*element) : Value();
  }

  std::string text_;
  std::vector<Value> arguments_;
  Error failure_;
};

}  // namespace sqlitebridge
