// What the scenarios' apps do after a failure, in one place: report the
// first failure, stop when the power is off, and try once more.
#pragma once

#include <sqlitebridge/sqlitebridge.hpp>

#include <cstdint>
#include <functional>

#include "Harness.hpp"

namespace powerloss {

/// Opens a database with `open` and runs `step` on it; after a failure
/// (noted in `failure` when it holds none yet) tries once more, opening
/// again when the open itself failed, unless the power is off. Returns
/// `done` when a try succeeded, else 0 (with `workedAfter` false when the
/// second try failed too).
std::int64_t tryTwice(const std::function<sqlitebridge::Database()>& open,
                      const std::function<bool(sqlitebridge::Database&)>& step, std::int64_t done, Failure& failure,
                      bool& workedAfter);

}  // namespace powerloss
