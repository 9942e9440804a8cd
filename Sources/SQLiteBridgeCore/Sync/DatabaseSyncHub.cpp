// DatabaseSyncHub: the sync log as the table `sync_log` of a SQLite file,
// reached through a DatabaseQueue of its own. SQLite's write lock is what
// orders appends, between threads and between processes alike.
#include "sqlitebridge/DatabaseSyncHub.hpp"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "SyncLogRules.hpp"
#include "sqlitebridge/Changeset.hpp"
#include "sqlitebridge/ColumnView.hpp"
#include "sqlitebridge/Database.hpp"
#include "sqlitebridge/DatabaseQueue.hpp"
#include "sqlitebridge/RowView.hpp"
#include "sqlitebridge/SQLite.hpp"
#include "sqlitebridge/Statement.hpp"

namespace sqlitebridge {

SyncHub::~SyncHub() = default;

bool SyncHub::lastPosition(std::int64_t& position, Error* error) noexcept {
  std::int64_t last = 0;
  std::vector<SyncEntry> page;
  do {
    if (!entries(last, 500, page, error)) return false;
    if (!page.empty()) last = page.back().position;
  } while (page.size() == 500);
  position = last;
  return true;
}

namespace {

constexpr const char* kLogTable = "sync_log";

// The out-of-memory failure every call reports instead of throwing.
bool outOfMemory(Error* error) noexcept { return syncLogFailure(error, SQLITE_NOMEM, "out of memory"); }

// The log's last position (0 when empty) into `last`, on `db` (inside a
// read or write block). On failure the database's `lastError()` says why.
bool readLastPosition(Database& db, std::int64_t& last) {
  return db.forEachRow(syncLogLastPositionSQL(kLogTable), [&](const RowView& row) { return row.get(0, last); });
}

}  // namespace

DatabaseSyncHub::DatabaseSyncHub(const std::string& path) noexcept {
  try {
    queue_ = std::make_unique<DatabaseQueue>(path);
    if (!queue_->isOpen()) {
      openError_ = queue_->openError();
      return;
    }
    // Made and checked in one write, so that a second process opening the
    // same new file at the same time waits for the table rather than racing
    // to create it.
    std::vector<std::string> columns;
    Error error;
    const bool checked = queue_->write(
        [&](Database& db) {
          if (!db.execute(syncLogCreateSQL(kLogTable))) return false;
          columns.clear();
          return db.forEachRow(syncLogColumnsSQL(kLogTable), [&](const RowView& row) {
            std::string name;
            if (!row.get(0, name)) return false;
            columns.push_back(std::move(name));
            return true;
          });
        },
        &error);
    if (!checked) {
      if (!error.isError()) syncLogFailure(&error, SQLITE_ERROR, "the hub's table sync_log could not be made or read");
      openError_ = std::move(error);
      return;
    }
    checkSyncLogColumns(kLogTable, columns, &openError_);
  } catch (const std::bad_alloc&) {
    outOfMemory(&openError_);
  }
}

DatabaseSyncHub::~DatabaseSyncHub() = default;

Error DatabaseSyncHub::error() const noexcept {
  try {
    return openError_;
  } catch (const std::bad_alloc&) {
    return Error{openError_.code, openError_.extendedCode, std::string(), std::string()};
  }
}

bool DatabaseSyncHub::append(const std::vector<SyncEntry>& entries, std::int64_t after, bool& appended,
                             Error* error) noexcept {
  appended = false;
  if (openError_.isError()) return syncLogReport(error, openError_);
  // Before the write lock is taken: a batch refused anyway need not wait
  // for other writers, and an empty one is answered by a read.
  const AppendStart start = startAppend(*this, entries, after, appended, error);
  if (start != AppendStart::Write) return start == AppendStart::Settled;
  try {
    bool stale = false;
    Error refusal;  // ours (a duplicate, a full log): write() sees only a rollback
    Error writeError;
    const bool committed = queue_->write(
        [&](Database& db) {
          // The last position is read under the write lock (BEGIN IMMEDIATE),
          // so no other appender can move it before the inserts commit.
          std::int64_t last = 0;
          if (!readLastPosition(db, last)) return false;
          if (last != after) {
            stale = true;
            return false;
          }
          if (!checkPositionsLeft(after, entries.size(), &refusal)) return false;
          const std::string find = syncLogFindSQL(kLogTable);
          const std::string insert = syncLogInsertSQL(kLogTable, 1);
          for (std::size_t i = 0; i < entries.size(); ++i) {
            const SyncEntry& entry = entries[i];
            // Looked up first, so that the refusal can name where the pair
            // already is (the UNIQUE constraint would only say that it is).
            bool found = false;
            std::int64_t existing = 0;
            if (!db.forEachRow(
                    find,
                    [&](const RowView& row) {
                      found = true;
                      return row.get(0, existing);
                    },
                    entry.device, entry.sequence)) {
              return false;
            }
            if (found) return duplicateEntry(entry, i, existing, after, &refusal);
            // The hub gives the places: after + 1, after + 2, ... (the
            // entry's own position is ignored). bindBlob binds an empty
            // changeset as a zero-length blob, never NULL.
            const std::int64_t position = after + 1 + static_cast<std::int64_t>(i);
            const std::string& bytes = entry.changeset.bytes();
            if (!db.execute(
                    insert,
                    [&](Statement& statement) {
                      return statement.bindInteger(1, position) && statement.bindText(2, entry.device) &&
                             statement.bindInteger(3, entry.sequence) &&
                             statement.bindBlob(4, bytes.data(), bytes.size());
                    },
                    [](const RowView&) {})) {
              return false;
            }
          }
          return true;
        },
        &writeError);
    return appendOutcome(committed, stale, refusal, writeError, appended, error);
  } catch (const std::bad_alloc&) {
    return outOfMemory(error);
  }
}

bool DatabaseSyncHub::entries(std::int64_t after, std::size_t limit, std::vector<SyncEntry>& out,
                              Error* error) noexcept {
  if (openError_.isError()) return syncLogReport(error, openError_);
  try {
    const std::int64_t count = limit > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                                   ? std::numeric_limits<std::int64_t>::max()
                                   : static_cast<std::int64_t>(limit);
    std::vector<SyncEntry> read;
    Error refusal;  // ours: a changeset that does not parse
    Error readError;
    // One read block: one snapshot, so a page never mixes two states of
    // the log.
    const bool ok = queue_->read([&](Database& db) {
      const bool stepped = db.forEachRow(
          syncLogSelectSQL(kLogTable),
          [&](const RowView& row) {
            std::int64_t position = 0;
            std::string device;
            std::int64_t sequence = 0;
            if (!row.get(0, position) || !row.get(1, device) || !row.get(2, sequence)) return false;
            const ColumnView column = row.column(3);
            SyncEntry entry;
            if (!readSyncLogEntry(position, std::move(device), sequence, column.type == ValueType::Blob, column.bytes,
                                  column.size, entry, &refusal)) {
              return false;
            }
            read.push_back(std::move(entry));
            return true;
          },
          after, count);
      if (!stepped) readError = db.lastError();
      return stepped && !refusal.isError();
    });
    if (!ok) {
      if (refusal.isError()) return syncLogReport(error, refusal);
      if (!readError.isError()) return syncLogFailure(error, SQLITE_ERROR, "the hub's log could not be read");
      return syncLogReport(error, readError);
    }
    out = std::move(read);
    return true;
  } catch (const std::bad_alloc&) {
    return outOfMemory(error);
  }
}

bool DatabaseSyncHub::lastPosition(std::int64_t& position, Error* error) noexcept {
  if (openError_.isError()) return syncLogReport(error, openError_);
  try {
    std::int64_t last = 0;
    Error readError;
    const bool ok = queue_->read([&](Database& db) {
      if (readLastPosition(db, last)) return true;
      readError = db.lastError();
      return false;
    });
    if (!ok) {
      if (!readError.isError()) return syncLogFailure(error, SQLITE_ERROR, "the hub's log could not be read");
      return syncLogReport(error, readError);
    }
    position = last;
    return true;
  } catch (const std::bad_alloc&) {
    return outOfMemory(error);
  }
}

}  // namespace sqlitebridge
