// DatabaseRegion: sets of tables and columns, the one owner of how names are
// compared and how a region is written.
#include "sqlitebridge/DatabaseRegion.hpp"

#include <functional>

#include "SqlText.hpp"

namespace sqlitebridge {

DatabaseRegion::DatabaseRegion() = default;

DatabaseRegion DatabaseRegion::fullDatabase() {
  DatabaseRegion region;
  region.full_ = true;
  return region;
}

DatabaseRegion DatabaseRegion::table(const std::string& name) {
  DatabaseRegion region;
  Columns& columns = region.tables_[foldIdentifier(name)];
  columns.spelling = name;
  columns.all = true;
  return region;
}

DatabaseRegion DatabaseRegion::columns(const std::string& table, const std::vector<std::string>& names) {
  DatabaseRegion region;
  if (names.empty()) return region;
  Columns& columns = region.tables_[foldIdentifier(table)];
  columns.spelling = table;
  for (const std::string& name : names) columns.names.emplace(foldIdentifier(name), name);
  return region;
}

DatabaseRegion& DatabaseRegion::formUnion(const DatabaseRegion& other) {
  if (full_) return *this;
  if (other.full_) {
    full_ = true;
    tables_.clear();
    return *this;
  }
  for (const auto& [key, theirs] : other.tables_) {
    auto [place, added] = tables_.emplace(key, theirs);
    if (added) continue;
    Columns& ours = place->second;
    if (ours.all) continue;
    if (theirs.all) {
      ours.all = true;
      ours.names.clear();
      continue;
    }
    ours.names.insert(theirs.names.begin(), theirs.names.end());
  }
  return *this;
}

bool DatabaseRegion::intersects(const DatabaseRegion& other) const noexcept {
  if (isEmpty() || other.isEmpty()) return false;
  if (full_ || other.full_) return true;
  // Walk the smaller map, look up in the larger one.
  const auto& small = tables_.size() <= other.tables_.size() ? tables_ : other.tables_;
  const auto& large = tables_.size() <= other.tables_.size() ? other.tables_ : tables_;
  for (const auto& [key, columns] : small) {
    auto found = large.find(key);
    if (found == large.end()) continue;
    const Columns& theirs = found->second;
    if (columns.all || theirs.all) return true;
    for (const auto& entry : columns.names) {
      if (theirs.names.count(entry.first) != 0) return true;
    }
  }
  return false;
}

bool DatabaseRegion::isEmpty() const noexcept { return !full_ && tables_.empty(); }

bool DatabaseRegion::isFullDatabase() const noexcept { return full_; }

bool DatabaseRegion::containsTable(const std::string& name) const noexcept {
  if (full_) return true;
  try {
    return tables_.count(foldIdentifier(name)) != 0;
  } catch (...) {
    return true;  // out of memory: say yes, which never misses a change
  }
}

std::string DatabaseRegion::description() const {
  if (full_) return "full database";
  if (tables_.empty()) return "empty";
  std::string text;
  for (const auto& [key, columns] : tables_) {
    if (!text.empty()) text += ',';
    text += columns.spelling;
    text += '(';
    if (columns.all) {
      text += '*';
    } else {
      bool first = true;
      for (const auto& entry : columns.names) {
        if (!first) text += ',';
        first = false;
        text += entry.second;
      }
    }
    text += ')';
  }
  return text;
}

std::vector<std::string> DatabaseRegion::tableNames() const {
  std::vector<std::string> names;
  names.reserve(tables_.size());
  for (const auto& entry : tables_) names.push_back(entry.second.spelling);
  return names;
}

std::size_t DatabaseRegion::hashValue() const noexcept {
  if (full_) return 0x9e3779b97f4a7c15ULL;
  std::size_t hash = tables_.size();
  const std::hash<std::string> hashString;
  for (const auto& [key, columns] : tables_) {
    hash = hash * 31 + hashString(key);
    hash = hash * 31 + (columns.all ? 1 : 2);
    for (const auto& entry : columns.names) hash = hash * 31 + hashString(entry.first);
  }
  return hash;
}

bool DatabaseRegion::operator==(const DatabaseRegion& other) const noexcept {
  if (full_ != other.full_ || tables_.size() != other.tables_.size()) return false;
  auto theirs = other.tables_.begin();
  for (const auto& [key, columns] : tables_) {
    if (key != theirs->first || columns.all != theirs->second.all ||
        columns.names.size() != theirs->second.names.size()) {
      return false;
    }
    auto name = theirs->second.names.begin();
    for (const auto& entry : columns.names) {
      if (entry.first != name->first) return false;
      ++name;
    }
    ++theirs;
  }
  return true;
}

}  // namespace sqlitebridge
