// Prepared statements kept by SQL text for reuse: a bounded LRU cache that
// lends a statement out and takes it back. Internal.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sqlitebridge/SQLite.hpp"
#include "sqlitebridge/Statement.hpp"

namespace sqlitebridge {

/// One cached statement (what a lent `Statement` points back to). While
/// lent, the borrower owns its use; entries live in a list, so their
/// addresses are stable for the borrower.
struct StatementCacheEntry {
  std::string sql;
  sqlite3_stmt* stmt = nullptr;
  bool lent = false;
  bool discard = false;  // finalize on return (cache cleared while lent)
  int parameterCount = 0;
  bool dirty = false;                             // holds the bindings of an earlier use
  Statement::State* state = nullptr;              // owned; see StatementState.hpp
  std::list<StatementCacheEntry>::iterator self;  // this entry's place in the LRU list
};

class StatementCache {
 public:
  using Entry = StatementCacheEntry;

  /// How many statements the cache keeps by default.
  static constexpr std::size_t kDefaultCapacity = 64;

  StatementCache() = default;
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;
  ~StatementCache();

  /// Lends the idle statement prepared from exactly `sql`, or null when there
  /// is none (not cached, or already lent out). Unless `bindsEveryParameter`
  /// (the borrower binds each parameter before stepping, so no earlier value
  /// can be seen), the bindings of an earlier use are cleared first.
  Entry* lend(std::string_view sql, bool bindsEveryParameter) noexcept;
  /// Adds `stmt`, freshly prepared from `sql`, as lent. Returns null (the
  /// caller keeps ownership) when the cache is off or `sql` is already
  /// cached under a lent entry.
  Entry* add(std::string_view sql, sqlite3_stmt* stmt) noexcept;
  /// Takes a lent statement back and resets it. Its bindings are cleared at
  /// once when `releaseValues` (large values should not stay referenced),
  /// otherwise when it is next lent to a borrower that may not bind every
  /// parameter: either way no earlier argument leaks into a later use.
  void giveBack(Entry* entry, bool releaseValues) noexcept;
  /// Finalizes every idle statement; lent ones are finalized on return.
  void clear() noexcept;

  std::size_t capacity() const noexcept { return capacity_; }
  /// Changes the capacity (0 turns caching off), evicting as needed.
  void setCapacity(std::size_t capacity) noexcept;
  /// Finalizes evicted and cleared statements with `finalizer(context,
  /// stmt)` instead of sqlite3_finalize (the connection forgets their
  /// footprints there). Not used by the destructor.
  using Finalizer = void (*)(void* context, sqlite3_stmt* stmt) noexcept;
  void setFinalizer(Finalizer finalizer, void* context) noexcept {
    finalizer_ = finalizer;
    finalizerContext_ = context;
  }
  /// Statements currently cached (idle or lent).
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  void erase(std::list<Entry>::iterator entry) noexcept;
  void evictIdle() noexcept;

  std::size_t capacity_ = kDefaultCapacity;
  Finalizer finalizer_ = nullptr;
  void* finalizerContext_ = nullptr;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;
};

}  // namespace sqlitebridge
