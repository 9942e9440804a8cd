// The parts of a statement that few uses need, made on first use. A cached
// statement keeps them in its cache entry, so they serve every use of it
// (one at a time: the cache lends a statement to one borrower). Internal.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sqlitebridge/Statement.hpp"

namespace sqlitebridge {

struct Statement::State {
  // Parameter names, read once: parameter i (1-based) is prefix[i] followed
  // by bare[i]; prefix 0 marks a positional parameter (`?` or `?NNN`).
  bool namesRead = false;
  bool hasPositional = false;
  std::vector<std::string> bare;
  std::vector<char> prefix;
  // Whether parameter i's bare name also appears with another prefix (then
  // a key without prefix fills several parameters).
  std::vector<bool> sharedBare;

  // Named binding in progress: parameter i is filled when filledIn[i] equals
  // `round`; a new round starts at each beginNamedArguments, so nothing has
  // to be cleared between uses.
  std::vector<std::uint32_t> filledIn;
  std::uint32_t round = 0;
  int filled = 0;
  // Where the next key is looked for first: keys usually come in parameter
  // order.
  int hint = 1;

  // Parameters a bind callback bound: parameter i is bound when boundIn[i]
  // equals `bindRound` (a new round per callback, as for named binding).
  std::vector<std::uint32_t> boundIn;
  std::uint32_t bindRound = 0;

  // Column names shared by the Rows of one run (reset when a cached
  // statement is given back: a schema change may rename columns).
  std::shared_ptr<const std::vector<std::string>> columnNames;

  void readNames(sqlite3_stmt* stmt) {
    const int count = sqlite3_bind_parameter_count(stmt);
    bare.assign(static_cast<std::size_t>(count) + 1, std::string());
    prefix.assign(static_cast<std::size_t>(count) + 1, 0);
    sharedBare.assign(static_cast<std::size_t>(count) + 1, false);
    hasPositional = false;
    for (int index = 1; index <= count; ++index) {
      const char* name = sqlite3_bind_parameter_name(stmt, index);
      if (name == nullptr || name[0] == '?') {
        hasPositional = true;
        continue;
      }
      prefix[static_cast<std::size_t>(index)] = name[0];
      bare[static_cast<std::size_t>(index)] = name + 1;
    }
    for (int i = 1; i <= count; ++i) {
      for (int j = 1; j <= count; ++j) {
        if (i != j && prefix[static_cast<std::size_t>(i)] != 0 &&
            bare[static_cast<std::size_t>(i)] == bare[static_cast<std::size_t>(j)]) {
          sharedBare[static_cast<std::size_t>(i)] = true;
        }
      }
    }
    filledIn.assign(static_cast<std::size_t>(count) + 1, 0);
    round = 0;
    namesRead = true;
  }

  /// Whether parameter `index` is named `key` (with a prefix: exactly; without
  /// one: under any prefix).
  bool names(int index, std::string_view key, bool prefixed) const noexcept {
    const auto i = static_cast<std::size_t>(index);
    if (prefix[i] == 0) return false;
    if (prefixed) return prefix[i] == key[0] && bare[i] == key.substr(1);
    return bare[i] == key;
  }
};

}  // namespace sqlitebridge
