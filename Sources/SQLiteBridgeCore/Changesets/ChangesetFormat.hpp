// The changeset format checked byte by byte before SQLite reads it: SQLite's
// iterator trusts some of what it reads (3.40 loops forever on a table name
// that is not NUL-terminated), so bytes from outside are walked here first,
// every length and count against the buffer. Internal.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sqlitebridge {

/// Whether `size` bytes at `bytes` are a well-formed changeset or patchset
/// (table headers of one sort, known change and value kinds, every length
/// inside the buffer, a table given the same columns and key by a header
/// that follows changes to it, every primary key value of the record that
/// finds a change's row defined). False with the reason, naming the byte offset, in
/// `*why`. Never throws (`why` is assigned only when memory allows).
bool checkChangesetFormat(const unsigned char* bytes, std::size_t size, std::string* why) noexcept;

/// A table as a changeset's header gives it: its name and one byte per
/// column (0, or the column's place in the primary key).
struct ChangesetTableHeader {
  std::string name;
  std::vector<unsigned char> primaryKey;
};

/// The distinct table headers of well-formed changeset bytes that changes
/// follow (a table named twice with another key counts twice), in order,
/// into `out`: what `Database::apply` checks against the target before
/// SQLite applies anything (SQLite reads a table's header again at each
/// header and skips it silently when it does not fit). Reads the bytes with
/// the walk `checkChangesetFormat` makes, decoding no value. False with the
/// reason in `*why` for bytes that are not well formed, or with `*why` empty
/// when memory runs out (`out` unchanged).
bool readChangesetTables(const unsigned char* bytes, std::size_t size, std::vector<ChangesetTableHeader>& out,
                         std::string* why) noexcept;

/// `buffers` of rebase data (each as `checkChangesetFormat` wants it), in
/// the order a rebaser is configured with them, into `out` without the
/// entries SQLite's rebaser mishandles: once it holds a row's delete that
/// was resolved with REPLACE, it is meant to keep it whatever comes later
/// for that row, but it drops and leaks it (`*ppNew = pExist` overwritten
/// in sessionChangeMerge, 3.40.1 and later so far), so the later entries
/// are left out here and the delete stays. False with the reason in `*why`
/// for a buffer that is not well formed or not rebase data (a patchset, an
/// update: SQLite writes neither there, and its rebaser reads a patchset's
/// delete past its end), or with `*why` empty when memory runs out (`out`
/// unchanged).
bool rebaseDataForSQLite(const std::vector<std::string>& buffers, std::vector<std::string>& out,
                         std::string* why) noexcept;

}  // namespace sqlitebridge
