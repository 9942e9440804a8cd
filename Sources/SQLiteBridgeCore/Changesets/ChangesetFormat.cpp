// The layout walked here is the one sqlite3session.h documents ("changeset
// format"): a table header ('T' for a changeset, 'P' for a patchset; the
// column count as a varint; one primary-key byte per column, 0 or the column's place in the key; the
// table's name, NUL-terminated), then its changes: an operation byte
// (SQLITE_INSERT, SQLITE_UPDATE or SQLITE_DELETE), an indirect flag byte,
// and records of one value per column (a type byte: 0 undefined, 1 integer
// and 2 real with 8 bytes, 3 text and 4 blob with a varint length and the
// bytes, 5 NULL). A changeset's delete holds the old record, its insert the
// new one, its update both; a patchset's delete holds the primary key's
// values only, its update one record. Two rules go beyond the layout, for
// what SQLite 3.40 trusts: a header naming the table of the change before
// (SQLite's reading of it, see `check`) gives it the same columns and key;
// and the record that finds a change's row holds every primary key value.
#include "ChangesetFormat.hpp"

#include <cstdint>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

namespace {

// SQLite's limit on a table's columns.
constexpr std::uint64_t kMaxColumns = 32767;

// A table header: where its name and key bytes lie in the buffer.
struct Header {
  const unsigned char* name = nullptr;
  std::size_t nameLength = 0;
  std::uint64_t columns = 0;
  const unsigned char* key = nullptr;
  bool patchset = false;

  // Whether both name the same table, as SQLite compares them (ASCII
  // letters in either case).
  bool sameTable(const Header& other) const noexcept {
    if (name == nullptr || other.name == nullptr || nameLength != other.nameLength) return false;
    for (std::size_t i = 0; i < nameLength; ++i) {
      if (lower(name[i]) != lower(other.name[i])) return false;
    }
    return true;
  }
  bool sameShape(const Header& other) const noexcept {
    return columns == other.columns && std::memcmp(key, other.key, static_cast<std::size_t>(columns)) == 0;
  }
  static unsigned char lower(unsigned char c) noexcept {
    return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c;
  }
};

// What a walk reports to a reader of the changes (not only a checker), each
// piece once checked.
class ChangeSink {
 public:
  virtual ~ChangeSink() = default;
  // A table header, `bytes` from its 'T' or 'P' to its name's NUL.
  virtual void header(const Header& header, const unsigned char* bytes, std::size_t size) noexcept = 0;
  // A change of that table: `bytes` from its kind byte to its last record's
  // end; `row` its primary key values as the record that finds the row
  // holds them (type byte and payload each, in column order).
  virtual void change(int op, bool indirect, const unsigned char* bytes, std::size_t size,
                      const std::string& row) noexcept = 0;
};

class Walker {
 public:
  Walker(const unsigned char* bytes, std::size_t size, ChangeSink* sink = nullptr) noexcept
      : bytes_(bytes), size_(size), sink_(sink) {}

  bool check(std::string* why) noexcept {
    char sort = 0;
    // The header of the last change: SQLite (its apply and its changegroup,
    // behind concatenation and rebasing) reads a table's header again only
    // when a change names another table than the change before, ignoring
    // case, so a header naming that same table must give it the same
    // columns and key (3.40 would read the changes with the other header's
    // column count: a value of the change before, or records cut wrong).
    Header last;
    while (at_ < size_) {
      Header current;
      const std::size_t headerStart = at_;
      const char header = static_cast<char>(bytes_[at_]);
      if (header != 'T' && header != 'P') return fail(why, "expected a table header");
      if (sort != 0 && header != sort) return fail(why, "a changeset's and a patchset's tables are mixed");
      sort = header;
      ++at_;
      std::uint64_t columns = 0;
      if (!varint(columns) || columns == 0 || columns > kMaxColumns) return fail(why, "bad column count");
      if (size_ - at_ < columns) return fail(why, "the primary key flags run past the end");
      std::uint64_t keys = 0;
      current.columns = columns;
      current.key = bytes_ + at_;
      // Each flag is 0, or the column's place in the key (1, 2, ...).
      for (std::uint64_t i = 0; i < columns; ++i, ++at_) {
        if (bytes_[at_] > columns) return fail(why, "bad primary key flag");
        keys += bytes_[at_] != 0 ? 1 : 0;
      }
      const std::size_t name = at_;
      while (at_ < size_ && bytes_[at_] != 0) ++at_;
      if (at_ == size_) return fail(why, "the table name is not terminated");
      if (at_ == name) return fail(why, "empty table name");
      current.name = bytes_ + name;
      current.nameLength = at_ - name;
      ++at_;
      const bool patchset = header == 'P';
      current.patchset = patchset;
      if (sink_ != nullptr) sink_->header(current, bytes_ + headerStart, at_ - headerStart);
      if (at_ < size_ && bytes_[at_] != 'T' && bytes_[at_] != 'P') {
        if (last.sameTable(current) && !last.sameShape(current)) {
          return fail(why, "a table's header gives it other columns or another key than the one before");
        }
        last = current;
      }
      while (at_ < size_ && bytes_[at_] != 'T' && bytes_[at_] != 'P') {
        const std::size_t changeStart = at_;
        const int op = bytes_[at_];
        if (op != SQLITE_INSERT && op != SQLITE_UPDATE && op != SQLITE_DELETE) {
          return fail(why, "unknown change kind");
        }
        ++at_;
        if (at_ == size_ || bytes_[at_] > 1) return fail(why, "bad indirect flag");
        ++at_;
        // The record that finds the row (an insert's new values, a delete's
        // or an update's old ones, a patchset's one record) holds a value
        // for every primary key column: SQLite 3.40's apply reads an
        // update's key values unchecked (a null pointer: it crashes).
        bool ok = true;
        row_.clear();
        if (op == SQLITE_INSERT) {
          ok = record(columns, current.key);
        } else if (op == SQLITE_DELETE) {
          ok = patchset ? record(keys, nullptr, true) : record(columns, current.key);
        } else {
          ok = record(columns, current.key) && (patchset || record(columns, nullptr));
        }
        if (!ok) return fail(why, recordProblem_);
        if (sink_ != nullptr) {
          sink_->change(op, bytes_[changeStart + 1] != 0, bytes_ + changeStart, at_ - changeStart, row_);
        }
      }
    }
    return true;
  }

 private:
  // SQLite's varint: big-endian groups of 7 bits, the high bit saying
  // another byte follows; a ninth byte gives 8 bits.
  bool varint(std::uint64_t& out) noexcept {
    std::uint64_t value = 0;
    for (int i = 0; i < 9; ++i) {
      if (at_ == size_) return false;
      const unsigned char byte = bytes_[at_++];
      if (i == 8) {
        out = (value << 8) | byte;
        return true;
      }
      value = (value << 7) | (byte & 0x7f);
      if ((byte & 0x80) == 0) {
        out = value;
        return true;
      }
    }
    return false;
  }

  // A record of `values` values; each one whose `key` flag is set (every
  // one, with `allKeys`) must be defined (type 0 is "undefined").
  bool record(std::uint64_t values, const unsigned char* key, bool allKeys = false) noexcept {
    recordProblem_ = "bad record";
    for (std::uint64_t i = 0; i < values; ++i) {
      if (at_ == size_) return false;
      const std::size_t start = at_;
      const unsigned char type = bytes_[at_++];
      const bool isKey = allKeys || (key != nullptr && key[i] != 0);
      if (type == 0 && isKey) {
        recordProblem_ = "a primary key value is undefined";
        return false;
      }
      if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        if (size_ - at_ < 8) return false;
        at_ += 8;
      } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
        std::uint64_t length = 0;
        if (!varint(length) || length > 0x7fffffff || length > size_ - at_) return false;
        at_ += static_cast<std::size_t>(length);
      } else if (type != 0 && type != 5) {
        return false;
      }
      // The key's values, for a sink (only the first record has key flags).
      if (sink_ != nullptr && isKey && !keep(start)) return false;
    }
    return true;
  }

  // Appends the value at [start, at_) to the row's key.
  bool keep(std::size_t start) noexcept {
    try {
      row_.append(reinterpret_cast<const char*>(bytes_ + start), at_ - start);
      return true;
    } catch (const std::bad_alloc&) {
      recordProblem_ = "out of memory";
      return false;
    }
  }

  bool fail(std::string* why, const char* what) noexcept {
    if (why == nullptr) return false;
    try {
      *why = std::string(what) + " at byte " + std::to_string(at_);
    } catch (const std::bad_alloc&) {
    }
    return false;
  }

  const unsigned char* bytes_;
  std::size_t size_;
  std::size_t at_ = 0;
  ChangeSink* sink_ = nullptr;
  // The current change's primary key values (for the sink).
  std::string row_;
  // Why the last record failed.
  const char* recordProblem_ = "bad record";
};

// Rebase data with the entries SQLite's rebaser would lose left out (see
// `rebaseDataForSQLite`): what it keeps of each row is followed as its
// changegroup merges entries (an entry after another for the same row
// becomes one of the later's kind, marked replaced when either was).
class RebaseFilter final : public ChangeSink {
 public:
  std::string out;
  bool failed = false;
  // Why the bytes are not rebase data, though well formed: SQLite writes
  // only changeset headers and inserts and deletes there, and its rebaser
  // reads a patchset's delete as a whole row (past the record's end).
  const char* refused = nullptr;

  void header(const Header& header, const unsigned char* bytes, std::size_t size) noexcept override {
    if (header.patchset && refused == nullptr) refused = "a patchset's table header";
    try {
      table_.assign(reinterpret_cast<const char*>(header.name), header.nameLength);
      for (char& c : table_) c = static_cast<char>(Header::lower(static_cast<unsigned char>(c)));
      shape_ = std::string(1, header.patchset ? 'P' : 'T') + std::to_string(header.columns) + ':' +
               std::string(reinterpret_cast<const char*>(header.key), header.columns);
      shapeKnown_ = false;
      out.append(reinterpret_cast<const char*>(bytes), size);
    } catch (const std::bad_alloc&) {
      failed = true;
    }
  }

  void change(int op, bool indirect, const unsigned char* bytes, std::size_t size,
              const std::string& row) noexcept override {
    if (op == SQLITE_UPDATE && refused == nullptr) refused = "an update";
    try {
      if (!shapeKnown_) {
        // Only where SQLite reads the header as it read the table's first
        // with a change (same sort, columns and key); otherwise it fails
        // anyway. A header without changes it never reads.
        filtering_ = shapes_.emplace(table_, shape_).first->second == shape_;
        shapeKnown_ = true;
      }
      if (filtering_) {
        RowState& state = rows_[table_ + '\0' + row];
        if (state.seen && state.op == SQLITE_DELETE && state.replaced) return;  // SQLite keeps the delete
        state.replaced = indirect || (state.seen && state.replaced);
        state.op = op;
        state.seen = true;
      }
      out.append(reinterpret_cast<const char*>(bytes), size);
    } catch (const std::bad_alloc&) {
      failed = true;
    }
  }

 private:
  struct RowState {
    bool seen = false;
    int op = 0;
    bool replaced = false;
  };
  std::string table_;
  std::string shape_;
  bool shapeKnown_ = false;
  bool filtering_ = false;
  std::map<std::string, std::string> shapes_;
  std::map<std::string, RowState> rows_;
};

}  // namespace

bool rebaseDataForSQLite(const std::vector<std::string>& buffers, std::vector<std::string>& out,
                         std::string* why) noexcept {
  RebaseFilter filter;
  std::vector<std::string> filtered;
  try {
    filtered.reserve(buffers.size());
    for (const std::string& buffer : buffers) {
      filter.out.clear();
      if (!Walker(reinterpret_cast<const unsigned char*>(buffer.data()), buffer.size(), &filter).check(why)) {
        return false;
      }
      if (filter.failed) throw std::bad_alloc();
      if (filter.refused != nullptr) {
        if (why != nullptr) *why = std::string(filter.refused) + " (rebase data holds inserts and deletes of tables)";
        return false;
      }
      filtered.push_back(filter.out);
    }
  } catch (const std::bad_alloc&) {
    if (why != nullptr) why->clear();
    return false;
  }
  out = std::move(filtered);
  return true;
}

namespace {

// Collects the headers changes follow, each distinct (name, key) once.
class TableCollector final : public ChangeSink {
 public:
  void header(const Header& header, const unsigned char*, std::size_t) noexcept override { pending_ = header; }
  void change(int, bool, const unsigned char*, std::size_t, const std::string&) noexcept override {
    if (pending_.name == nullptr || failed) return;
    const Header header = pending_;
    pending_ = Header();
    const auto same = [&](const ChangesetTableHeader& table) {
      return table.name.size() == header.nameLength &&
             std::memcmp(table.name.data(), header.name, header.nameLength) == 0 &&
             table.primaryKey.size() == header.columns &&
             std::memcmp(table.primaryKey.data(), header.key, static_cast<std::size_t>(header.columns)) == 0;
    };
    for (const ChangesetTableHeader& table : tables) {
      if (same(table)) return;
    }
    try {
      tables.push_back(ChangesetTableHeader{std::string(reinterpret_cast<const char*>(header.name), header.nameLength),
                                            std::vector<unsigned char>(header.key, header.key + header.columns)});
    } catch (const std::bad_alloc&) {
      failed = true;
    }
  }

  std::vector<ChangesetTableHeader> tables;
  bool failed = false;

 private:
  Header pending_;
};

}  // namespace

bool readChangesetTables(const unsigned char* bytes, std::size_t size, std::vector<ChangesetTableHeader>& out,
                         std::string* why) noexcept {
  TableCollector collector;
  if (!Walker(bytes, size, &collector).check(why)) return false;
  if (collector.failed) {
    if (why != nullptr) why->clear();
    return false;
  }
  out = std::move(collector.tables);
  return true;
}

bool checkChangesetFormat(const unsigned char* bytes, std::size_t size, std::string* why) noexcept {
  return Walker(bytes, size).check(why);
}

}  // namespace sqlitebridge
