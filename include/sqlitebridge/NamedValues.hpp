#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "Value.hpp"

namespace sqlitebridge {

/// Arguments for named parameters (`:name`, `@name`, `$name`), each keyed
/// by the parameter's name without its prefix (`{"id", 1}` fills `:id`,
/// `@id` and `$id`) or with it (`{":id", 1}` fills only `:id`), in the order
/// given. Written as a braced list: `{{"id", 1}, {"title", "x"}}`.
///
/// A type of its own (not a std::map) so that a braced list of values,
/// `{Value(1), Value(2)}`, stays unambiguously positional.
class NamedValues {
 public:
  /// One argument: its name and its value.
  using value_type = std::pair<std::string, Value>;
  /// Iterates over the arguments in order.
  using const_iterator = std::vector<value_type>::const_iterator;

  /// No arguments.
  NamedValues() = default;
  /// The given name/value pairs, in order.
  NamedValues(std::initializer_list<value_type> values) : values_(values) {}
  /// The map's pairs, in key order.
  NamedValues(const std::map<std::string, Value>& values) : values_(values.begin(), values.end()) {}

  /// Adds an argument.
  void add(std::string name, Value value) { values_.emplace_back(std::move(name), std::move(value)); }
  /// Number of arguments.
  std::size_t size() const noexcept { return values_.size(); }
  /// True when there are no arguments.
  bool empty() const noexcept { return values_.empty(); }
  /// The first argument.
  const_iterator begin() const noexcept { return values_.begin(); }
  /// Past the last argument.
  const_iterator end() const noexcept { return values_.end(); }

 private:
  std::vector<value_type> values_;
};

}  // namespace sqlitebridge
