// The rules of a hub's log (see SyncLogRules.hpp).
#include "SyncLogRules.hpp"

#include <iterator>
#include <limits>
#include <new>
#include <utility>

#include "SessionAPI.hpp"
#include "SqlText.hpp"

namespace sqlitebridge {

namespace {

// The columns a log has, in this order (what every statement names).
const char* const kLogColumns[] = {"position", "device", "sequence", "changeset"};

}  // namespace

bool syncLogFailure(Error* error, int code, const std::string& message) noexcept {
  return changesetFailure(error, code, message);
}

bool syncLogReport(Error* error, const Error& reason) noexcept {
  if (error == nullptr) return false;
  try {
    *error = reason;
  } catch (const std::bad_alloc&) {
    changesetFailure(error, reason.extendedCode != 0 ? reason.extendedCode : reason.code, "");
  }
  return false;
}

std::string syncLogCreateSQL(const std::string& table) {
  return "CREATE TABLE IF NOT EXISTS " + quoteIdentifier(table) +
         "(position INTEGER PRIMARY KEY, device TEXT NOT NULL, sequence INTEGER NOT NULL, changeset BLOB NOT NULL, "
         "UNIQUE(device, sequence))";
}

std::string syncLogLastPositionSQL(const std::string& table) {
  return "SELECT coalesce(max(position), 0) FROM " + quoteIdentifier(table);
}

std::string syncLogFindSQL(const std::string& table) {
  return "SELECT position FROM " + quoteIdentifier(table) + " WHERE device = ? AND sequence = ?";
}

std::string syncLogInsertSQL(const std::string& table, std::size_t rows) {
  std::string sql = "INSERT INTO " + quoteIdentifier(table) + "(position, device, sequence, changeset) VALUES ";
  for (std::size_t i = 0; i < rows; ++i) sql += i == 0 ? "(?, ?, ?, ?)" : ", (?, ?, ?, ?)";
  return sql;
}

std::string syncLogSelectSQL(const std::string& table) {
  return "SELECT position, device, sequence, changeset FROM " + quoteIdentifier(table) +
         " WHERE position > ? ORDER BY position LIMIT ?";
}

std::string syncLogColumnsSQL(const std::string& table) {
  return "SELECT name FROM pragma_table_info(" + quoteStringLiteral(table) + ")";
}

bool checkSyncLogColumns(const std::string& table, const std::vector<std::string>& columns, Error* error) noexcept {
  bool expected = columns.size() == std::size(kLogColumns);
  for (std::size_t i = 0; expected && i < columns.size(); ++i) expected = columns[i] == kLogColumns[i];
  if (expected) return true;
  // A table of another shape is someone else's: refuse it rather than
  // write entries into columns that mean something else.
  try {
    std::string found;
    for (const std::string& column : columns) found += (found.empty() ? "" : ", ") + column;
    return changesetFailure(error, SQLITE_ERROR,
                            "the table " + table + " has the columns (" + found +
                                "), not a hub's log (position, device, sequence, changeset)");
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_ERROR, "the table is not a hub's log");
  }
}

bool checkEntriesToAppend(const std::vector<SyncEntry>& entries, Error* error) noexcept {
  try {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].device.empty()) {
        return changesetFailure(error, SQLITE_MISUSE,
                                "entry " + std::to_string(i) + " of the batch has an empty device name");
      }
      if (entries[i].sequence < 1) {
        return changesetFailure(error, SQLITE_MISUSE,
                                "entry " + std::to_string(i) + " of the batch has sequence " +
                                    std::to_string(entries[i].sequence) + " (sequences start at 1)");
      }
    }
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
  return true;
}

AppendStart startAppend(SyncHub& hub, const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
                        Error* error) noexcept {
  appended = false;
  if (!checkEntriesToAppend(entries, error)) return AppendStart::Failed;
  if (!entries.empty()) return AppendStart::Write;
  std::int64_t last = 0;
  if (!hub.lastPosition(last, error)) return AppendStart::Failed;
  appended = last == after;
  return AppendStart::Settled;
}

bool checkPositionsLeft(std::int64_t after, std::size_t count, Error* error) noexcept {
  if (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - after) >= count) return true;
  try {
    return changesetFailure(error, SQLITE_FULL,
                            "the hub's log has no position left for " + std::to_string(count) +
                                " entries after position " + std::to_string(after));
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_FULL, "the hub's log has no position left");
  }
}

bool appendOutcome(bool committed, bool stale, const Error& refusal, const Error& failure, bool& appended,
                   Error* error) noexcept {
  appended = committed;
  if (committed || stale) return true;
  if (refusal.isError()) return syncLogReport(error, refusal);
  if (failure.isError()) return syncLogReport(error, failure);
  return syncLogFailure(error, SQLITE_ERROR, "the hub's log could not be appended to");
}

bool duplicateEntry(const SyncEntry& entry, std::size_t index, std::int64_t existing, std::int64_t after,
                    Error* error) noexcept {
  try {
    const std::string pair = "device '" + entry.device + "' sequence " + std::to_string(entry.sequence);
    if (existing > after) {
      return changesetFailure(error, SQLITE_CONSTRAINT_UNIQUE,
                              "the batch holds " + pair + " twice (entries " + std::to_string(existing - after - 1) +
                                  " and " + std::to_string(index) + "): nothing appended");
    }
    return changesetFailure(
        error, SQLITE_CONSTRAINT_UNIQUE,
        "the hub's log holds " + pair + " already (position " + std::to_string(existing) + "): nothing appended");
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_CONSTRAINT_UNIQUE, "an entry is in the hub's log already");
  }
}

bool readSyncLogEntry(std::int64_t position, std::string device, std::int64_t sequence, bool isBlob, const void* bytes,
                      std::size_t size, SyncEntry& out, Error* error) noexcept {
  try {
    const std::string where = "the changeset at position " + std::to_string(position) + " of the hub's log";
    if (!isBlob) return changesetFailure(error, SQLITE_CORRUPT, where + " is not a blob");
    SyncEntry entry;
    Error parse;
    if (!Changeset::fromBytes(bytes, size, entry.changeset, &parse)) {
      // Not SQLITE_CORRUPT: the session extension's absence or no memory,
      // told as they are.
      return changesetFailure(error, parse.code == SQLITE_CORRUPT ? SQLITE_CORRUPT : parse.extendedCode,
                              where + " does not parse: " + parse.message);
    }
    entry.position = position;
    entry.device = std::move(device);
    entry.sequence = sequence;
    out = std::move(entry);
    return true;
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
