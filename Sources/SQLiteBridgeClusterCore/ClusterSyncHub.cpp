// ClusterSyncHub: the sync log as a table of a database on a dqlite
// cluster, through one ClusterDatabase client used under a lock. The log's
// rules (its table, the entries it takes, its refusals) are the core's
// (Sync/SyncLogRules.hpp), shared with the SQLite-file hub.
#include "sqlitebridge/cluster/ClusterSyncHub.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <new>
#include <utility>

#include "SqlText.hpp"
#include "SyncLogRules.hpp"
#include "sqlitebridge/ColumnView.hpp"
#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

namespace {

// Entries per INSERT and (device, sequence) pairs per lookup: dqlite takes
// at most 255 parameters a statement.
constexpr std::size_t kRowsPerInsert = 60;
constexpr std::size_t kPairsPerLookup = 120;

// How long a hub call waits, in all, for the leader's database to take a
// write while another client's transaction holds it (dqlite answers
// SQLITE_BUSY at once; SQLite's own busy timeout is 5 s too).
constexpr std::chrono::milliseconds kBusyTimeout(5000);

// Runs `attempt()` again while it fails with SQLITE_BUSY (nothing was
// written: the lock was refused before anything committed), backing off,
// until `kBusyTimeout` has passed; true when an attempt succeeded.
template <typename Attempt>
bool retryingBusy(ClusterDatabase& db, Attempt&& attempt) {
  const auto deadline = std::chrono::steady_clock::now() + kBusyTimeout;
  std::chrono::milliseconds pause(1);
  while (true) {
    if (attempt()) return true;
    if ((db.lastError().code & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() + pause > deadline) {
      return false;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

// The single integer the last statement returned, into `value`.
bool readInteger(ClusterDatabase& db, const std::string& sql, std::int64_t& value) {
  std::vector<Row> rows;
  if (!db.execute(sql, {}, &rows) || rows.empty()) return false;
  value = rows[0].value(0).asInteger();
  return true;
}

// Whether some entry's (device, sequence) is in the log or earlier in the
// batch: the refusal in `*refusal`.
bool findDuplicates(ClusterDatabase& db, const std::string& table, const std::vector<SyncEntry>& entries,
                    std::int64_t after, bool& failed, Error* refusal) {
  std::map<std::pair<std::string, std::int64_t>, std::size_t> seen;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto [place, added] = seen.emplace(std::make_pair(entries[i].device, entries[i].sequence), i);
    if (!added) {
      duplicateEntry(entries[i], i, after + 1 + static_cast<std::int64_t>(place->second), after, refusal);
      return true;
    }
  }
  for (std::size_t first = 0; first < entries.size(); first += kPairsPerLookup) {
    const std::size_t end = std::min(entries.size(), first + kPairsPerLookup);
    std::string sql =
        "SELECT position, device, sequence FROM " + quoteIdentifier(table) + " WHERE (device, sequence) IN (VALUES ";
    std::vector<Value> arguments;
    for (std::size_t i = first; i < end; ++i) {
      sql += i == first ? "(?, ?)" : ", (?, ?)";
      arguments.emplace_back(entries[i].device);
      arguments.emplace_back(entries[i].sequence);
    }
    sql += ") ORDER BY position LIMIT 1";
    std::vector<Row> rows;
    if (!db.execute(sql, arguments, &rows)) {
      failed = true;
      return true;
    }
    if (rows.empty()) continue;
    const std::string device = rows[0].value(1).asText();
    const std::int64_t sequence = rows[0].value(2).asInteger();
    for (std::size_t i = first; i < end; ++i) {
      if (entries[i].device == device && entries[i].sequence == sequence) {
        duplicateEntry(entries[i], i, rows[0].value(0).asInteger(), after, refusal);
        return true;
      }
    }
  }
  return false;
}

}  // namespace

ClusterSyncHub::ClusterSyncHub(ClusterDatabase database, const std::string& table) noexcept
    : database_(std::move(database)) {
  try {
    table_ = table;
    if (!database_.isOpen()) {
      openError_ = database_.lastError();
      if (!openError_.isError()) syncLogFailure(&openError_, SQLITE_MISUSE, "the cluster client is not open");
      return;
    }
    if (table.empty()) {
      syncLogFailure(&openError_, SQLITE_MISUSE, "a hub's log needs a table name");
      return;
    }
    std::vector<Row> rows;
    const bool made = retryingBusy(database_, [&] { return database_.execute(syncLogCreateSQL(table_)); });
    if (!made || !database_.execute(syncLogColumnsSQL(table_), {}, &rows)) {
      openError_ = database_.lastError();
      return;
    }
    std::vector<std::string> columns;
    for (const Row& row : rows) columns.push_back(row.value(0).asText());
    checkSyncLogColumns(table_, columns, &openError_);
  } catch (const std::bad_alloc&) {
    syncLogFailure(&openError_, SQLITE_NOMEM, "out of memory");
  }
}

ClusterSyncHub::~ClusterSyncHub() = default;

Error ClusterSyncHub::error() const noexcept {
  Error copy;
  syncLogReport(&copy, openError_);
  return copy;
}

bool ClusterSyncHub::append(const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
                            Error* error) noexcept {
  appended = false;
  if (openError_.isError()) return syncLogReport(error, openError_);
  const AppendStart start = startAppend(*this, entries, after, appended, error);
  if (start != AppendStart::Write) return start == AppendStart::Settled;
  if (!checkPositionsLeft(after, entries.size(), error)) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    bool stale = false;
    Error refusal;
    Error failure;
    // The block may run again on a new leader (when the old one was lost
    // before COMMIT was sent): it starts from nothing each time.
    const bool committed = retryingBusy(database_, [&] {
      return database_.write(
          [&](ClusterDatabase& db) {
            stale = false;
            refusal = Error();
            std::int64_t last = 0;
            if (!readInteger(db, syncLogLastPositionSQL(table_), last)) return false;
            if (last != after) {
              stale = true;
              return false;
            }
            bool failed = false;
            if (findDuplicates(db, table_, entries, after, failed, &refusal) || failed) return false;
            for (std::size_t first = 0; first < entries.size(); first += kRowsPerInsert) {
              const std::size_t end = std::min(entries.size(), first + kRowsPerInsert);
              std::vector<Value> arguments;
              for (std::size_t i = first; i < end; ++i) {
                const std::string& bytes = entries[i].changeset.bytes();
                arguments.emplace_back(after + 1 + static_cast<std::int64_t>(i));
                arguments.emplace_back(entries[i].device);
                arguments.emplace_back(entries[i].sequence);
                arguments.push_back(Value::fromBlob(bytes.data(), bytes.size()));
              }
              if (!db.execute(syncLogInsertSQL(table_, end - first), arguments)) return false;
            }
            return true;
          },
          &failure);
    });
    if (!committed && !failure.isError()) failure = database_.lastError();
    return appendOutcome(committed, stale, refusal, failure, appended, error);
  } catch (const std::bad_alloc&) {
    return syncLogFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

bool ClusterSyncHub::entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out,
                             Error* error) noexcept {
  if (openError_.isError()) return syncLogReport(error, openError_);
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    const std::int64_t count =
        limit > static_cast<std::size_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(limit);
    std::vector<Row> rows;
    if (!database_.execute(syncLogSelectSQL(table_), {Value(after), Value(count)}, &rows)) {
      return syncLogReport(error, database_.lastError());
    }
    std::vector<SyncEntry> read;
    read.reserve(rows.size());
    for (const Row& row : rows) {
      const Value changeset = row.value(3);
      const ColumnView bytes = changeset.view();
      SyncEntry entry;
      if (!readSyncLogEntry(row.value(0).asInteger(), row.value(1).asText(), row.value(2).asInteger(),
                            bytes.type == ValueType::Blob, bytes.bytes, bytes.size, entry, error)) {
        return false;
      }
      read.push_back(std::move(entry));
    }
    out = std::move(read);
    return true;
  } catch (const std::bad_alloc&) {
    return syncLogFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

bool ClusterSyncHub::lastPosition(std::int64_t& position, Error* error) noexcept {
  if (openError_.isError()) return syncLogReport(error, openError_);
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    if (!readInteger(database_, syncLogLastPositionSQL(table_), position))
      return syncLogReport(error, database_.lastError());
    return true;
  } catch (const std::bad_alloc&) {
    return syncLogFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace sqlitebridge
