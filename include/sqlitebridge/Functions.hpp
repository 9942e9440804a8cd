#pragma once

#include <string>
#include <vector>

#include "Value.hpp"

namespace sqlitebridge {

/// One group's state of a custom aggregate function (`Database::createAggregate`).
///
/// The factory given to `createAggregate` makes one per group (one for the
/// whole result without GROUP BY, also when there are no rows); SQLite calls
/// `step` once per row of the group, then `finalize` once, and the object is
/// destroyed afterwards, also when the query fails or is abandoned midway (a
/// statement reset or finalized before its last row still calls `finalize`
/// for the group in progress, whose result is then discarded). Called on the
/// thread that runs the query.
struct Aggregate {
  virtual ~Aggregate() = default;
  /// Takes one row's arguments. Returning false (with `error` set to why)
  /// fails the query with SQLITE_ERROR and that message; so does a C++
  /// exception (its `what()`), which never reaches SQLite.
  virtual bool step(const std::vector<Value>& arguments, std::string& error) = 0;
  /// Sets `result` to the group's value (NULL by default). Returning false,
  /// or throwing, fails the query as `step` does.
  virtual bool finalize(Value& result, std::string& error) = 0;
};

}  // namespace sqlitebridge
