// The rules of a hub's log that every hub of this library keeps: the table
// (position, device, sequence, changeset; (device, sequence) unique), the
// entries it takes, the refusals it words, the entries it reads back. The
// SQLite-file hub (DatabaseSyncHub) and the cluster's (ClusterSyncHub, in
// the cluster library, hence exported) both call them. Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sqlitebridge/Error.hpp"
#include "sqlitebridge/Export.hpp"
#include "sqlitebridge/Sync.hpp"

namespace sqlitebridge {

/// Sets `*error` (when not null) to `code` and `message`; returns false.
/// Never throws.
SQLITEBRIDGE_API bool syncLogFailure(Error* error, int code, const std::string& message) noexcept;
/// Copies `reason` into `*error` (when not null); returns false. Never
/// throws (when the message cannot be copied, the code is still told).
SQLITEBRIDGE_API bool syncLogReport(Error* error, const Error& reason) noexcept;

/// The SQL that makes the log `table` (quoted) when it is missing.
SQLITEBRIDGE_API std::string syncLogCreateSQL(const std::string& table);
/// The SQL that reads the log's last position (0 when empty).
SQLITEBRIDGE_API std::string syncLogLastPositionSQL(const std::string& table);
/// The SQL that finds the position of (device ?1, sequence ?2).
SQLITEBRIDGE_API std::string syncLogFindSQL(const std::string& table);
/// The SQL that inserts `rows` entries (position, device, sequence,
/// changeset for each, in that order of parameters).
SQLITEBRIDGE_API std::string syncLogInsertSQL(const std::string& table, std::size_t rows);
/// The SQL that reads the entries after ?1, at most ?2, in order.
SQLITEBRIDGE_API std::string syncLogSelectSQL(const std::string& table);
/// The SQL that lists the columns of `table` (their names in column 0).
SQLITEBRIDGE_API std::string syncLogColumnsSQL(const std::string& table);

/// Whether `columns` are a log's (position, device, sequence, changeset);
/// otherwise false with SQLITE_ERROR in `*error` naming the table and the
/// columns found.
SQLITEBRIDGE_API bool checkSyncLogColumns(const std::string& table, const std::vector<std::string>& columns,
                                          Error* error) noexcept;
/// Whether every entry can be appended (a device name, a sequence from 1);
/// otherwise false with SQLITE_MISUSE in `*error` naming the entry.
SQLITEBRIDGE_API bool checkEntriesToAppend(const std::vector<SyncEntry>& entries, Error* error) noexcept;
/// What `SyncHub::append` settles before it writes.
enum class AppendStart {
  /// The entries are valid and there is at least one: write them.
  Write,
  /// An empty batch: `hub.lastPosition` said whether `after` is the log's
  /// last position (`appended`); the append succeeds without writing.
  Settled,
  /// An invalid entry (SQLITE_MISUSE, `checkEntriesToAppend`) or the read
  /// of an empty batch failed: `*error` set, nothing appended.
  Failed,
};
/// The start every hub's append shares: `appended` false, the entries
/// checked, an empty batch answered by a read (no write lock taken).
SQLITEBRIDGE_API AppendStart startAppend(SyncHub& hub, const std::vector<SyncEntry>& entries, std::int64_t after,
                                         bool& appended, Error* error) noexcept;
/// Whether positions after `after` are left for `count` entries; otherwise
/// false with SQLITE_FULL.
SQLITEBRIDGE_API bool checkPositionsLeft(std::int64_t after, std::size_t count, Error* error) noexcept;
/// What an append's write ended with, as `SyncHub::append` reports it:
/// `committed` (true, `appended`), `stale` (the log had moved: true,
/// nothing appended), else the hub's own `refusal` when it made one, else
/// the write's `failure` (SQLITE_ERROR when that is clear too).
SQLITEBRIDGE_API bool appendOutcome(bool committed, bool stale, const Error& refusal, const Error& failure,
                                    bool& appended, Error* error) noexcept;
/// The refusal of entry `index` of a batch appended after `after`, whose
/// (device, sequence) is at `existing` already (in the log, or earlier in
/// the batch when `existing` > `after`): SQLITE_CONSTRAINT_UNIQUE.
SQLITEBRIDGE_API bool duplicateEntry(const SyncEntry& entry, std::size_t index, std::int64_t existing,
                                     std::int64_t after, Error* error) noexcept;
/// The entry read back at `position`: its changeset parsed from `size`
/// bytes at `bytes` (`isBlob` false: not a blob) into `out`; otherwise
/// false with SQLITE_CORRUPT naming the position (or the parse's own
/// failure: no session extension, no memory).
SQLITEBRIDGE_API bool readSyncLogEntry(std::int64_t position, std::string device, std::int64_t sequence, bool isBlob,
                                       const void* bytes, std::size_t size, SyncEntry& out, Error* error) noexcept;

}  // namespace sqlitebridge
