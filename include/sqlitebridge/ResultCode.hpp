#pragma once

#include "Export.hpp"

namespace sqlitebridge {

/// SQLite's primary result codes, typed. An error's extended code (for
/// example SQLITE_CONSTRAINT_UNIQUE, 2067) keeps its primary code in its low
/// 8 bits; `Error::resultCode()` gives that primary code.
enum class ResultCode : int {
  OK = 0,
  Error = 1,
  Internal = 2,
  Perm = 3,
  Abort = 4,
  Busy = 5,
  Locked = 6,
  NoMem = 7,
  ReadOnly = 8,
  Interrupt = 9,
  IOErr = 10,
  Corrupt = 11,
  NotFound = 12,
  Full = 13,
  CantOpen = 14,
  Protocol = 15,
  Empty = 16,
  Schema = 17,
  TooBig = 18,
  Constraint = 19,
  Mismatch = 20,
  Misuse = 21,
  NoLFS = 22,
  Auth = 23,
  Format = 24,
  Range = 25,
  NotADB = 26,
  Notice = 27,
  Warning = 28,
  Row = 100,
  Done = 101,
};

/// SQLite's name of a primary code, "SQLITE_CONSTRAINT" for
/// `ResultCode::Constraint`; "SQLITE_UNKNOWN" for a value that is none.
SQLITEBRIDGE_API const char* describe(ResultCode code) noexcept;

/// SQLite's name of any primary or extended result code:
/// "SQLITE_CONSTRAINT_UNIQUE" for 2067, and dqlite's two,
/// "SQLITE_IOERR_NOT_LEADER" (10250) and "SQLITE_IOERR_LEADERSHIP_LOST"
/// (10506); nullptr for a number neither defines.
SQLITEBRIDGE_API const char* resultCodeName(int code) noexcept;

/// The primary code of a primary or extended result code (its low 8 bits).
constexpr int primaryResultCode(int code) noexcept { return code & 0xff; }

/// Whether an error with extended code `code` matches `pattern`: a primary
/// pattern (below 256) matches its every extended code, an extended pattern
/// only itself.
constexpr bool resultCodeMatches(int pattern, int code) noexcept {
  return pattern == primaryResultCode(pattern) ? pattern == primaryResultCode(code) : pattern == code;
}

}  // namespace sqlitebridge
