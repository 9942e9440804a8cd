// Running a script of several statements. Internal.
#pragma once

#include <string>

#include "Connection.hpp"

namespace sqlitebridge {

/// Runs every statement in `sql` in order, stepping each to completion and
/// ignoring rows. Stops at the first failure, recording it with that
/// statement's text as the error's SQL; returns false then.
bool runScript(Connection& connection, const std::string& sql) noexcept;

}  // namespace sqlitebridge
