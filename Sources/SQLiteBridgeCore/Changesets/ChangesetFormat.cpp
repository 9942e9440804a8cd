// The layout walked here is the one sqlite3session.h documents ("changeset
// format"): a table header ('T' for a changeset, 'P' for a patchset; the
// column count as a varint; one primary-key byte per column, 0 or the column's place in the key; the
// table's name, NUL-terminated), then its changes: an operation byte
// (SQLITE_INSERT, SQLITE_UPDATE or SQLITE_DELETE), an indirect flag byte,
// and records of one value per column (a type byte: 0 undefined, 1 integer
// and 2 real with 8 bytes, 3 text and 4 blob with a varint length and the
// bytes, 5 NULL). A changeset's delete holds the old record, its insert the
// new one, its update both; a patchset's delete holds the primary key's
// values only, its update one record.
#include "ChangesetFormat.hpp"

#include <cstdint>
#include <new>
#include <string>

#include "sqlitebridge/SQLite.hpp"

namespace sqlitebridge {

namespace {

// SQLite's limit on a table's columns.
constexpr std::uint64_t kMaxColumns = 32767;

class Walker {
 public:
  Walker(const unsigned char* bytes, std::size_t size) noexcept : bytes_(bytes), size_(size) {}

  bool check(std::string* why) noexcept {
    char sort = 0;
    while (at_ < size_) {
      const char header = static_cast<char>(bytes_[at_]);
      if (header != 'T' && header != 'P') return fail(why, "expected a table header");
      if (sort != 0 && header != sort) return fail(why, "a changeset's and a patchset's tables are mixed");
      sort = header;
      ++at_;
      std::uint64_t columns = 0;
      if (!varint(columns) || columns == 0 || columns > kMaxColumns) return fail(why, "bad column count");
      if (size_ - at_ < columns) return fail(why, "the primary key flags run past the end");
      std::uint64_t keys = 0;
      // Each flag is 0, or the column's place in the key (1, 2, ...).
      for (std::uint64_t i = 0; i < columns; ++i, ++at_) {
        if (bytes_[at_] > columns) return fail(why, "bad primary key flag");
        keys += bytes_[at_] != 0 ? 1 : 0;
      }
      const std::size_t name = at_;
      while (at_ < size_ && bytes_[at_] != 0) ++at_;
      if (at_ == size_) return fail(why, "the table name is not terminated");
      if (at_ == name) return fail(why, "empty table name");
      ++at_;
      const bool patchset = header == 'P';
      while (at_ < size_ && bytes_[at_] != 'T' && bytes_[at_] != 'P') {
        const int op = bytes_[at_];
        if (op != SQLITE_INSERT && op != SQLITE_UPDATE && op != SQLITE_DELETE) {
          return fail(why, "unknown change kind");
        }
        ++at_;
        if (at_ == size_ || bytes_[at_] > 1) return fail(why, "bad indirect flag");
        ++at_;
        bool ok = true;
        if (op == SQLITE_INSERT) {
          ok = record(columns);
        } else if (op == SQLITE_DELETE) {
          ok = record(patchset ? keys : columns);
        } else {
          ok = record(columns) && (patchset || record(columns));
        }
        if (!ok) return fail(why, "bad record");
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

  bool record(std::uint64_t values) noexcept {
    for (std::uint64_t i = 0; i < values; ++i) {
      if (at_ == size_) return false;
      const unsigned char type = bytes_[at_++];
      if (type == 0 || type == 5) continue;
      if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
        if (size_ - at_ < 8) return false;
        at_ += 8;
        continue;
      }
      if (type != SQLITE_TEXT && type != SQLITE_BLOB) return false;
      std::uint64_t length = 0;
      if (!varint(length) || length > 0x7fffffff || length > size_ - at_) return false;
      at_ += static_cast<std::size_t>(length);
    }
    return true;
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
};

}  // namespace

bool checkChangesetFormat(const unsigned char* bytes, std::size_t size, std::string* why) noexcept {
  return Walker(bytes, size).check(why);
}

}  // namespace sqlitebridge
