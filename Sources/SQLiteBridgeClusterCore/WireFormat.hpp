// dqlite's wire protocol, version 1, as dqlite 1.11 speaks it: request
// bodies encoded, response bodies decoded. Pure functions over bytes (no
// sockets), so that a fuzz target can feed the decoders anything. Every
// decoder checks each length against what is left and fails with a
// description instead of reading past the end. Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sqlitebridge/cluster/ClusterConfiguration.hpp"
#include "sqlitebridge/Row.hpp"
#include "sqlitebridge/Value.hpp"

namespace sqlitebridge {
namespace wire {

/// The version a client sends first, as 8 bytes.
constexpr std::uint64_t kProtocolVersion = 1;
/// Every message starts with an 8-byte header: the body's length in 8-byte
/// words (32 bits), its type, flags and 16 spare bits.
constexpr std::size_t kHeaderSize = 8;
/// A body longer than this is taken for garbage (dqlite sends about one
/// memory page of rows per message, or one row when a row is larger).
constexpr std::uint64_t kMaxBodyBytes = std::uint64_t{1} << 31;
/// The parameter count of a request is one byte.
constexpr std::size_t kMaxParameters = 255;
/// SQLite's hard limit on a result's columns.
constexpr std::uint64_t kMaxColumns = 32767;

enum Request : std::uint8_t {
  Leader = 0,
  Client = 1,
  Open = 3,
  Prepare = 4,
  Exec = 5,
  Query = 6,
  Finalize = 7,
  ExecSql = 8,
  QuerySql = 9,
  Interrupt = 10,
  Add = 12,
  Assign = 13,
  Remove = 14,
  Cluster = 16,
  Transfer = 17,
};

enum Response : std::uint8_t {
  Failure = 0,
  Server = 1,
  Welcome = 2,
  Servers = 3,
  Db = 4,
  Stmt = 5,
  Result = 6,
  Rows = 7,
  Empty = 8,
};

/// The word that ends the last message of a result.
constexpr std::uint64_t kRowsDone = 0xffffffffffffffffULL;
/// The word that ends a message of a result that goes on in the next one.
constexpr std::uint64_t kRowsPart = 0xeeeeeeeeeeeeeeeeULL;

/// One message: its type and body (a whole number of 8-byte words).
struct Message {
  std::uint8_t type = 0;
  std::vector<std::uint8_t> body;
};

/// The header of a message with `type` and a body of `bodySize` bytes.
void encodeHeader(std::uint8_t type, std::size_t bodySize, std::uint8_t out[kHeaderSize]) noexcept;
/// Reads a header: the body's size in bytes and the type. False (with
/// `problem`) when the size is beyond `kMaxBodyBytes`.
bool decodeHeader(const std::uint8_t header[kHeaderSize], std::uint64_t& bodySize, std::uint8_t& type,
                  std::string& problem) noexcept;

/// Builds a request body, field by field.
class BodyWriter {
 public:
  void u64(std::uint64_t value);
  void u32(std::uint32_t value);
  /// Text NUL-terminated and padded to 8 bytes (the caller checked it holds
  /// no NUL: see `textProblem`).
  void text(std::string_view value);
  /// A parameter tuple: the count, one type byte each, then the values.
  /// The caller checked the count and every value (`parameterProblem`).
  void parameters(const std::vector<Value>& values);
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  void pad();
  std::vector<std::uint8_t> bytes_;
};

/// Why `text` cannot be sent as dqlite text (it holds a NUL byte, which
/// would cut it short), or empty.
std::string textProblem(std::string_view text, const char* what);
/// Why `values` cannot be sent as parameters: more than 255 (SQLITE_RANGE
/// in `code`) or text holding NUL (SQLITE_MISUSE); empty when they can.
std::string parametersProblem(const std::vector<Value>& values, int& code);

/// Reads a response body, field by field; every read fails (false) instead
/// of going past the end, and remembers the first problem.
class BodyReader {
 public:
  BodyReader(const std::uint8_t* bytes, std::size_t size) noexcept : bytes_(bytes), size_(size) {}
  bool u64(std::uint64_t& out) noexcept;
  bool u32(std::uint32_t& out) noexcept;
  bool text(std::string& out);
  bool blob(Value& out);
  bool peekU64(std::uint64_t& out) const noexcept;
  std::size_t remaining() const noexcept { return size_ - position_; }
  bool skip(std::size_t count) noexcept;
  const std::uint8_t* current() const noexcept { return bytes_ + position_; }
  bool fail(const std::string& problem);
  const std::string& problem() const noexcept { return problem_; }

 private:
  const std::uint8_t* bytes_;
  std::size_t size_;
  std::size_t position_ = 0;
  std::string problem_;
};

/// FAILURE: the node's result code and message.
bool decodeFailure(const Message& message, std::uint64_t& code, std::string& text, std::string& problem);
/// SERVER (an answer to LEADER): the leader's id and address (empty: the
/// node knows of no leader).
bool decodeServer(const Message& message, std::uint64_t& id, std::string& address, std::string& problem);
/// SERVERS (an answer to CLUSTER with format 1): every member.
bool decodeServers(const Message& message, std::vector<ClusterMember>& members, std::string& problem);
/// DB (an answer to OPEN): the database's id.
bool decodeDb(const Message& message, std::uint32_t& id, std::string& problem);
/// RESULT (an answer to EXEC or EXEC_SQL).
bool decodeResult(const Message& message, std::uint64_t& lastInsertId, std::uint64_t& rowsAffected,
                  std::string& problem);
/// EMPTY.
bool decodeEmpty(const Message& message, std::string& problem);

/// One message of ROWS: the column names, the rows, and whether more
/// messages follow.
struct RowsBatch {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
  bool more = false;
};
/// ROWS. Values arrive as the node sent them: dqlite's BOOLEAN and
/// UNIXTIME as integers, ISO8601 as text, except an empty ISO8601 text,
/// which is how the node sends a NULL of a DATETIME column: NULL.
bool decodeRows(const Message& message, RowsBatch& batch, std::string& problem);

/// The wire code of a role, and back (false for an unknown code).
std::uint64_t roleCode(ClusterRole role) noexcept;
bool roleFromCode(std::uint64_t code, ClusterRole& role) noexcept;

}  // namespace wire
}  // namespace sqlitebridge
