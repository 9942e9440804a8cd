#pragma once

#include <string>

#include "ResultCode.hpp"

namespace sqlitebridge {

/// What went wrong in the last failed call on a `Database` (or on a
/// `Statement` it prepared). After a successful call every field is empty
/// and both codes are 0 (SQLITE_OK).
struct Error {
  /// Primary SQLite result code, e.g. 19 (SQLITE_CONSTRAINT).
  int code = 0;
  /// Extended SQLite result code, e.g. 2067 (SQLITE_CONSTRAINT_UNIQUE).
  /// Equal to `code` when SQLite has nothing more specific.
  int extendedCode = 0;
  /// Human-readable description: SQLite's own message, or ours for errors
  /// the wrapper detects (bad name, trailing SQL, wrong argument count, ...).
  std::string message;
  /// The SQL being run when the error happened; empty when none was.
  std::string sql;

  /// True when this describes a failure (code is not SQLITE_OK).
  bool isError() const noexcept { return code != 0; }
  /// The primary code, typed: `ResultCode::Constraint` for a UNIQUE
  /// violation (extended code 2067).
  ResultCode resultCode() const noexcept { return static_cast<ResultCode>(primaryResultCode(code)); }
  /// Whether the primary code is `code`: `error.is(ResultCode::Constraint)`
  /// holds for every kind of constraint failure.
  bool is(ResultCode code) const noexcept { return resultCodeMatches(static_cast<int>(code), extendedCode); }
};

}  // namespace sqlitebridge
