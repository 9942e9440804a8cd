// The changeset format checked byte by byte before SQLite reads it: SQLite's
// iterator trusts some of what it reads (3.40 loops forever on a table name
// that is not NUL-terminated), so bytes from outside are walked here first,
// every length and count against the buffer. Internal.
#pragma once

#include <cstddef>
#include <string>

namespace sqlitebridge {

/// Whether `size` bytes at `bytes` are a well-formed changeset or patchset
/// (table headers of one sort, known change and value kinds, every length
/// inside the buffer). False with the reason, naming the byte offset, in
/// `*why`. Never throws (`why` is assigned only when memory allows).
bool checkChangesetFormat(const unsigned char* bytes, std::size_t size, std::string* why) noexcept;

}  // namespace sqlitebridge
