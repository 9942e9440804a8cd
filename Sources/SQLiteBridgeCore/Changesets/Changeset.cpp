#include "sqlitebridge/Changeset.hpp"

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "ChangesetAccess.hpp"
#include "ChangesetFormat.hpp"

namespace sqlitebridge {

namespace {

// `bytes` walked by our own check of the format (SQLite's iterator may hang
// on some malformed bytes), then every record read by SQLite's iterator.
bool parse(const std::string& bytes, Error* error) noexcept {
  if (!fitsSQLiteSize(bytes.size(), error)) return false;
  std::string why;
  if (!checkChangesetFormat(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &why)) {
    return changesetFailure(error, SQLITE_CORRUPT, "not a changeset: " + why);
  }
  ChangesetIterator iterator;
  int rc = iterator.start(bytes.data(), bytes.size());
  if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "reading the changeset");
  long long index = 0;
  while ((rc = iterator.next()) == SQLITE_ROW) {
    const char* table = nullptr;
    int columns = 0;
    int op = 0;
    int indirect = 0;
    rc = sqlite3changeset_op(iterator.handle(), &table, &columns, &op, &indirect);
    if (rc != SQLITE_OK) break;
    if (columns <= 0 || table == nullptr) {
      rc = SQLITE_CORRUPT;
      break;
    }
    ++index;
  }
  const int finished = iterator.finish();
  if (rc == SQLITE_DONE) rc = finished;
  if (rc == SQLITE_OK || rc == SQLITE_DONE) return true;
  try {
    return changesetCallFailure(error, rc, ("reading change " + std::to_string(index + 1)).c_str());
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

}  // namespace

bool Changeset::fromBytes(const void* bytes, std::size_t size, Changeset& out, Error* error) noexcept {
  if (!requireSessionAPI(error)) return false;
  try {
    std::string copy(static_cast<const char*>(bytes), bytes != nullptr ? size : 0);
    if (!parse(copy, error)) return false;
    const bool patchset = bytesArePatchset(copy);
    out = ChangesetAccess::make(std::move(copy), patchset);
    return true;
  } catch (const std::bad_alloc&) {
    return changesetFailure(error, SQLITE_NOMEM, "out of memory");
  }
}

bool Changeset::fromBytes(const std::string& bytes, Changeset& out, Error* error) noexcept {
  return fromBytes(bytes.data(), bytes.size(), out, error);
}

bool Changeset::inverted(Changeset& out, Error* error) const noexcept {
  if (!requireSessionAPI(error)) return false;
  if (patchset_) {
    return changesetFailure(error, SQLITE_MISUSE,
                            "a patchset cannot be inverted: it does not hold the old values of the rows it "
                            "changes (make a changeset instead)");
  }
  int size = 0;
  void* buffer = nullptr;
  const int rc = sqlite3changeset_invert(static_cast<int>(bytes_.size()), bytes_.data(), &size, &buffer);
  if (rc != SQLITE_OK) {
    sqlite3_free(buffer);
    return changesetCallFailure(error, rc, "inverting the changeset");
  }
  std::string bytes;
  if (!takeSQLiteBuffer(buffer, size, bytes, error)) return false;
  out = ChangesetAccess::make(std::move(bytes), false);
  return true;
}

bool Changeset::concatenated(const Changeset& other, Changeset& out, Error* error) const noexcept {
  if (!requireSessionAPI(error)) return false;
  if (!bytes_.empty() && !other.bytes_.empty() && patchset_ != other.patchset_) {
    return changesetFailure(error, SQLITE_ERROR,
                            "a changeset and a patchset cannot be concatenated: make both of one sort");
  }
  int size = 0;
  void* buffer = nullptr;
  const int rc =
      sqlite3changeset_concat(static_cast<int>(bytes_.size()), changesetBuffer(bytes_),
                              static_cast<int>(other.bytes_.size()), changesetBuffer(other.bytes_), &size, &buffer);
  if (rc != SQLITE_OK) {
    sqlite3_free(buffer);
    return changesetCallFailure(
        error, rc,
        rc == SQLITE_SCHEMA ? "concatenating changesets whose tables' columns differ" : "concatenating the changesets");
  }
  std::string bytes;
  if (!takeSQLiteBuffer(buffer, size, bytes, error)) return false;
  const bool patchset = bytes.empty() ? false : bytesArePatchset(bytes);
  out = ChangesetAccess::make(std::move(bytes), patchset);
  return true;
}

bool Changeset::operations(std::vector<ChangesetOperation>& out, Error* error) const noexcept {
  if (!requireSessionAPI(error)) return false;
  ChangesetIterator iterator;
  int rc = iterator.start(bytes_.data(), bytes_.size());
  if (rc != SQLITE_OK) return changesetCallFailure(error, rc, "reading the changeset");
  std::vector<ChangesetOperation> operations;
  while ((rc = iterator.next()) == SQLITE_ROW) {
    ChangesetOperation operation;
    if (!readOperation(iterator.handle(), operation, error)) return false;
    try {
      operations.push_back(std::move(operation));
    } catch (const std::bad_alloc&) {
      return changesetFailure(error, SQLITE_NOMEM, "out of memory");
    }
  }
  const int finished = iterator.finish();
  if (rc == SQLITE_DONE) rc = finished;
  if (rc != SQLITE_OK && rc != SQLITE_DONE) return changesetCallFailure(error, rc, "reading the changeset");
  out = std::move(operations);
  return true;
}

}  // namespace sqlitebridge
