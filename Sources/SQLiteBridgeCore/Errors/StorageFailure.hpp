// Messages for I/O errors and full disks that say what failed. Internal.
#pragma once

#include <string>

namespace sqlitebridge {

/// SQLite's message for an I/O error or a full disk (its "disk I/O error"
/// names no operation) followed by what failed, by the extended code: "disk
/// I/O error (writing to a file failed; SQLITE_IOERR_WRITE)", "database or
/// disk is full (SQLITE_FULL)", a plain I/O error "(SQLITE_IOERR)". Any
/// other code, or an I/O error subcode SQLite does not define, leaves
/// `message` as it is (so do dqlite's
/// codes, whose messages say it already). Never throws: on failure returns
/// `message` unchanged.
std::string describeStorageFailure(int extendedCode, const std::string& message) noexcept;

}  // namespace sqlitebridge
