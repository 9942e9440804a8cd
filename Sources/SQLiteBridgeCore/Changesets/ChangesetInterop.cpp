// interop::ChangesetInterop: the changeset API as the Swift facade calls it
// (C conflict callbacks, by-index accessors, queues and pools Swift holds as
// constants). Only carries Swift's arguments to the core's own calls.
#include "sqlitebridge/interop/Changesets.hpp"

#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ChangesetAccess.hpp"
#include "SessionAPI.hpp"

namespace sqlitebridge::interop {

namespace {

// The table filter the core takes: `tables` when `filtered`, none otherwise.
// Throws std::bad_alloc when memory runs out.
std::optional<std::vector<std::string>> tableFilter(bool filtered, const StringList& tables) {
  if (!filtered) return std::nullopt;
  return tables;
}

// The core's handler calling `onConflict(box, …)`; empty (every conflict
// aborts) for a null callback. Throws std::bad_alloc when memory runs out.
ChangesetConflictHandler conflictHandler(ChangesetInterop::ConflictCallback onConflict, SwiftBox box) {
  if (onConflict == nullptr) return nullptr;
  return [onConflict, box](const ChangesetConflict& conflict) { return onConflict(box, &conflict); };
}

// `UndoHistory(writer, …)` for the queue or pool Swift holds as a constant.
// The history takes the writer by non-const reference because it records on
// its connection, but it never changes the queue or pool object itself (the
// connections are behind its pool pointer, as for the queue's own const
// entry points), so casting the constness away is sound.
template <typename Writer>
UndoHistory makeHistoryOn(const Writer& writer, bool filtered, const StringList& tables, std::size_t depth) noexcept {
  Writer& target = const_cast<Writer&>(writer);
  try {
    return UndoHistory(target, tableFilter(filtered, tables), depth);
  } catch (const std::bad_alloc&) {
    // A history without state (what a move leaves behind) says from
    // `error()`, and from every undo and redo, that it could not be made.
    // A depth of 0 fails before the writer is touched.
    UndoHistory unstarted(target, std::nullopt, 0);
    UndoHistory taken(std::move(unstarted));
    return unstarted;
  }
}

}  // namespace

bool ChangesetInterop::parsed(const void* bytes, std::size_t size, bool patchset, Changeset& out,
                              Error& error) noexcept {
  try {
    out = ChangesetAccess::make(std::string(static_cast<const char*>(bytes), bytes != nullptr ? size : 0), patchset);
    return true;
  } catch (const std::bad_alloc&) {
    return changesetFailure(&error, SQLITE_NOMEM, "out of memory");
  }
}

const void* ChangesetInterop::bytes(const Changeset& changeset) noexcept {
  return changeset.bytes().empty() ? nullptr : changeset.bytes().data();
}

bool ChangesetInterop::apply(Database& database, const Changeset& changeset, bool filtered, const StringList& tables,
                             ConflictCallback onConflict, SwiftBox box, std::string& rebaseData) noexcept {
  std::optional<std::vector<std::string>> filter;
  ChangesetConflictHandler handler;
  try {
    filter = tableFilter(filtered, tables);
    handler = conflictHandler(onConflict, box);
  } catch (const std::bad_alloc&) {
    // As any call: SQLITE_MISUSE first when the database is closed.
    if (!ChangesetAccess::beginCall(database)) return false;
    Error error;
    changesetFailure(&error, SQLITE_NOMEM, "out of memory");
    ChangesetAccess::restoreError(database, error);
    return false;
  }
  return database.apply(changeset, filter, handler, &rebaseData);
}

bool ChangesetInterop::configure(ChangesetRebaser& rebaser, const void* bytes, std::size_t size,
                                 Error& error) noexcept {
  try {
    return rebaser.configure(std::string(static_cast<const char*>(bytes), bytes != nullptr ? size : 0), &error);
  } catch (const std::bad_alloc&) {
    return changesetFailure(&error, SQLITE_NOMEM, "out of memory");
  }
}

UndoHistory ChangesetInterop::makeHistory(const DatabaseQueue& queue, bool filtered, const StringList& tables,
                                          std::size_t depth) noexcept {
  return makeHistoryOn(queue, filtered, tables, depth);
}

UndoHistory ChangesetInterop::makeHistory(const DatabasePool& pool, bool filtered, const StringList& tables,
                                          std::size_t depth) noexcept {
  return makeHistoryOn(pool, filtered, tables, depth);
}

bool ChangesetInterop::move(const UndoHistory& history, bool redo, ConflictCallback onConflict, SwiftBox box,
                            Error& error) noexcept {
  ChangesetConflictHandler handler;
  try {
    handler = conflictHandler(onConflict, box);
  } catch (const std::bad_alloc&) {
    return changesetFailure(&error, SQLITE_NOMEM, "out of memory");
  }
  return redo ? history.redo(&error, handler) : history.undo(&error, handler);
}

}  // namespace sqlitebridge::interop
