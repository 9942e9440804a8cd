#include "StatementCache.hpp"

#include "StatementState.hpp"

namespace sqlitebridge {

StatementCache::~StatementCache() {
  for (Entry& entry : entries_) {
    sqlite3_finalize(entry.stmt);
    delete entry.state;
  }
}

StatementCache::Entry* StatementCache::lend(std::string_view sql, bool bindsEveryParameter) noexcept {
  std::list<Entry>::iterator entry;
  // The statement used last is the likeliest (a loop of inserts): compare
  // before hashing.
  if (!entries_.empty() && entries_.front().sql == sql) {
    entry = entries_.begin();
    if (entry->lent) return nullptr;
  } else {
    const auto found = index_.find(sql);
    if (found == index_.end() || found->second->lent) return nullptr;
    entry = found->second;
    entries_.splice(entries_.begin(), entries_, entry);
  }
  entry->lent = true;
  if (entry->dirty && !bindsEveryParameter) {
    sqlite3_clear_bindings(entry->stmt);
    entry->dirty = false;
  }
  return &*entry;
}

StatementCache::Entry* StatementCache::add(std::string_view sql, sqlite3_stmt* stmt) noexcept {
  if (capacity_ == 0 || index_.count(sql) != 0) return nullptr;
  try {
    entries_.push_front(
        Entry{std::string(sql), stmt, true, false, sqlite3_bind_parameter_count(stmt), false, nullptr, {}});
    const auto entry = entries_.begin();
    entry->self = entry;
    try {
      index_.emplace(std::string_view(entry->sql), entry);
    } catch (...) {
      entries_.pop_front();
      return nullptr;
    }
    evictIdle();
    return &*entry;
  } catch (...) {
    return nullptr;
  }
}

void StatementCache::giveBack(Entry* entry, bool releaseValues) noexcept {
  sqlite3_reset(entry->stmt);
  if (entry->state != nullptr) entry->state->columnNames.reset();
  if (releaseValues) sqlite3_clear_bindings(entry->stmt);
  entry->dirty = entry->parameterCount > 0 && !releaseValues;
  entry->lent = false;
  if (entry->discard) {
    erase(entry->self);
  } else {
    evictIdle();
  }
}

void StatementCache::clear() noexcept {
  for (auto it = entries_.begin(); it != entries_.end();) {
    const auto next = std::next(it);
    if (it->lent) {
      it->discard = true;
    } else {
      erase(it);
    }
    it = next;
  }
}

void StatementCache::setCapacity(std::size_t capacity) noexcept {
  capacity_ = capacity;
  if (capacity_ == 0) {
    clear();
  } else {
    evictIdle();
  }
}

void StatementCache::erase(std::list<Entry>::iterator entry) noexcept {
  const auto indexed = index_.find(entry->sql);
  if (indexed != index_.end() && indexed->second == entry) index_.erase(indexed);
  if (finalizer_ != nullptr) {
    finalizer_(finalizerContext_, entry->stmt);
  } else {
    sqlite3_finalize(entry->stmt);
  }
  delete entry->state;
  entries_.erase(entry);
}

void StatementCache::evictIdle() noexcept {
  // Least recently used first; a lent statement is evicted once returned.
  for (auto it = entries_.end(); entries_.size() > capacity_ && it != entries_.begin();) {
    --it;
    if (it->lent) continue;
    const auto victim = it++;
    erase(victim);
  }
}

}  // namespace sqlitebridge
