// dqlite's wire protocol (version 1, as dqlite 1.11 speaks it): every field
// little-endian, every field and body a whole number of 8-byte words.
#include "WireFormat.hpp"

#include <cstring>

#include "sqlitebridge/SQLite.hpp"
#include "sqlitebridge/ColumnView.hpp"

namespace sqlitebridge {
namespace wire {

namespace {

// dqlite's value codes (SQLite's own, plus three of dqlite's).
enum ValueCode : std::uint8_t {
  Integer = 1,
  Float = 2,
  Text = 3,
  Blob = 4,
  Null = 5,
  UnixTime = 9,
  Iso8601 = 10,
  Boolean = 11,
};

std::size_t padded(std::size_t size) noexcept { return (size + 7) & ~std::size_t{7}; }

std::uint64_t readLittleEndian(const std::uint8_t* bytes, std::size_t count) noexcept {
  std::uint64_t value = 0;
  for (std::size_t i = count; i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

void appendLittleEndian(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

std::uint8_t codeOf(ValueType type) noexcept {
  switch (type) {
    case ValueType::Integer:
      return Integer;
    case ValueType::Real:
      return Float;
    case ValueType::Text:
      return Text;
    case ValueType::Blob:
      return Blob;
    case ValueType::Null:
      break;
  }
  return Null;
}

bool expectType(const Message& message, std::uint8_t type, const char* name, std::string& problem) {
  if (message.type == type) return true;
  problem = std::string("expected a ") + name + " response, got type " + std::to_string(message.type);
  return false;
}

bool finish(BodyReader& reader, std::string& problem) {
  if (!reader.problem().empty()) {
    problem = reader.problem();
    return false;
  }
  return true;
}

}  // namespace

void encodeHeader(std::uint8_t type, std::size_t bodySize, std::uint8_t out[kHeaderSize]) noexcept {
  const std::uint64_t words = bodySize / 8;
  for (std::size_t i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(words >> (8 * i));
  out[4] = type;
  out[5] = 0;  // flags
  out[6] = 0;  // spare
  out[7] = 0;
}

bool decodeHeader(const std::uint8_t header[kHeaderSize], std::uint64_t& bodySize, std::uint8_t& type,
                  std::string& problem) noexcept {
  bodySize = readLittleEndian(header, 4) * 8;
  type = header[4];
  if (bodySize > kMaxBodyBytes) {
    try {
      problem = "a message announced " + std::to_string(bodySize) + " bytes";
    } catch (...) {
    }
    return false;
  }
  return true;
}

// MARK: BodyWriter

void BodyWriter::pad() {
  while (bytes_.size() % 8 != 0) bytes_.push_back(0);
}

void BodyWriter::u64(std::uint64_t value) { appendLittleEndian(bytes_, value, 8); }

void BodyWriter::u32(std::uint32_t value) { appendLittleEndian(bytes_, value, 4); }

void BodyWriter::text(std::string_view value) {
  bytes_.insert(bytes_.end(), value.begin(), value.end());
  bytes_.push_back(0);
  pad();
}

void BodyWriter::parameters(const std::vector<Value>& values) {
  // The count and the type codes share the header words.
  bytes_.push_back(static_cast<std::uint8_t>(values.size()));
  for (const Value& value : values) bytes_.push_back(codeOf(value.type()));
  pad();
  for (const Value& value : values) {
    const ColumnView view = value.view();
    switch (view.type) {
      case ValueType::Integer:
        u64(static_cast<std::uint64_t>(view.integer));
        break;
      case ValueType::Real: {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &view.real, sizeof bits);
        u64(bits);
        break;
      }
      case ValueType::Text:
        text(std::string_view(static_cast<const char*>(view.bytes), view.size));
        break;
      case ValueType::Blob: {
        u64(view.size);
        const auto* bytes = static_cast<const std::uint8_t*>(view.bytes);
        if (view.size > 0) bytes_.insert(bytes_.end(), bytes, bytes + view.size);
        pad();
        break;
      }
      case ValueType::Null:
        u64(0);
        break;
    }
  }
}

std::string textProblem(std::string_view text, const char* what) {
  const std::size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return std::string();
  return std::string(what) + " holds a NUL byte at offset " + std::to_string(nul) +
         ": dqlite sends text NUL-terminated and would cut it short there";
}

std::string parametersProblem(const std::vector<Value>& values, int& code) {
  if (values.size() > kMaxParameters) {
    code = SQLITE_RANGE;
    return std::to_string(values.size()) + " arguments: dqlite 1.11 takes at most " + std::to_string(kMaxParameters) +
           " per statement";
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].type() != ValueType::Text) continue;
    const ColumnView view = values[i].view();
    std::string problem = textProblem(std::string_view(static_cast<const char*>(view.bytes), view.size),
                                      ("argument " + std::to_string(i + 1)).c_str());
    if (!problem.empty()) {
      code = SQLITE_MISUSE;
      return problem;
    }
  }
  return std::string();
}

// MARK: BodyReader

bool BodyReader::fail(const std::string& problem) {
  if (problem_.empty()) problem_ = problem;
  return false;
}

bool BodyReader::peekU64(std::uint64_t& out) const noexcept {
  if (remaining() < 8) return false;
  out = readLittleEndian(bytes_ + position_, 8);
  return true;
}

bool BodyReader::u64(std::uint64_t& out) noexcept {
  if (remaining() < 8) {
    try {
      return fail("a message ended inside a 64-bit field");
    } catch (...) {
      return false;
    }
  }
  out = readLittleEndian(bytes_ + position_, 8);
  position_ += 8;
  return true;
}

bool BodyReader::u32(std::uint32_t& out) noexcept {
  if (remaining() < 4) {
    try {
      return fail("a message ended inside a 32-bit field");
    } catch (...) {
      return false;
    }
  }
  out = static_cast<std::uint32_t>(readLittleEndian(bytes_ + position_, 4));
  position_ += 4;
  return true;
}

bool BodyReader::skip(std::size_t count) noexcept {
  if (remaining() < count) return false;
  position_ += count;
  return true;
}

bool BodyReader::text(std::string& out) {
  const std::uint8_t* start = bytes_ + position_;
  const void* nul = std::memchr(start, 0, remaining());
  if (nul == nullptr) return fail("a text field has no terminating NUL before the message ends");
  const std::size_t length = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - start);
  const std::size_t size = padded(length + 1);
  if (size > remaining()) return fail("a text field's padding runs past the message's end");
  out.assign(reinterpret_cast<const char*>(start), length);
  position_ += size;
  return true;
}

bool BodyReader::blob(Value& out) {
  std::uint64_t length = 0;
  if (!u64(length)) return false;
  if (length > remaining() || padded(static_cast<std::size_t>(length)) > remaining()) {
    return fail("a blob of " + std::to_string(length) + " bytes runs past the message's end");
  }
  out = Value::fromBlob(bytes_ + position_, static_cast<std::size_t>(length));
  position_ += padded(static_cast<std::size_t>(length));
  return true;
}

// MARK: Responses

bool decodeFailure(const Message& message, std::uint64_t& code, std::string& text, std::string& problem) {
  if (!expectType(message, Failure, "FAILURE", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  reader.u64(code) && reader.text(text);
  return finish(reader, problem);
}

bool decodeServer(const Message& message, std::uint64_t& id, std::string& address, std::string& problem) {
  if (!expectType(message, Server, "SERVER", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  reader.u64(id) && reader.text(address);
  return finish(reader, problem);
}

bool decodeServers(const Message& message, std::vector<ClusterMember>& members, std::string& problem) {
  if (!expectType(message, Servers, "SERVERS", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  std::uint64_t count = 0;
  members.clear();
  if (reader.u64(count)) {
    // Each member takes at least 24 bytes: a count beyond that is garbage.
    if (count > reader.remaining() / 24) {
      reader.fail("a SERVERS response announced " + std::to_string(count) + " members in " +
                  std::to_string(reader.remaining()) + " bytes");
    }
    for (std::uint64_t i = 0; reader.problem().empty() && i < count; ++i) {
      ClusterMember member;
      std::uint64_t role = 0;
      if (!reader.u64(member.id) || !reader.text(member.address) || !reader.u64(role)) break;
      if (!roleFromCode(role, member.role)) {
        reader.fail("member " + std::to_string(member.id) + " has an unknown role " + std::to_string(role));
        break;
      }
      members.push_back(std::move(member));
    }
  }
  return finish(reader, problem);
}

bool decodeDb(const Message& message, std::uint32_t& id, std::string& problem) {
  if (!expectType(message, Db, "DB", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  std::uint32_t padding = 0;
  reader.u32(id) && reader.u32(padding);
  return finish(reader, problem);
}

bool decodeResult(const Message& message, std::uint64_t& lastInsertId, std::uint64_t& rowsAffected,
                  std::string& problem) {
  if (!expectType(message, Result, "RESULT", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  reader.u64(lastInsertId) && reader.u64(rowsAffected);
  return finish(reader, problem);
}

bool decodeEmpty(const Message& message, std::string& problem) {
  if (!expectType(message, Empty, "EMPTY", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  std::uint64_t unused = 0;
  reader.u64(unused);
  return finish(reader, problem);
}

bool decodeRows(const Message& message, RowsBatch& batch, std::string& problem) {
  if (!expectType(message, Rows, "ROWS", problem)) return false;
  BodyReader reader(message.body.data(), message.body.size());
  batch.columns.clear();
  batch.rows.clear();
  batch.more = false;
  std::uint64_t count = 0;
  if (!reader.u64(count)) return finish(reader, problem);
  if (count == 0 || count > kMaxColumns || count * 8 > reader.remaining()) {
    reader.fail("a ROWS response announced " + std::to_string(count) + " columns");
    return finish(reader, problem);
  }
  const std::size_t columns = static_cast<std::size_t>(count);
  batch.columns.resize(columns);
  for (std::string& name : batch.columns) {
    if (!reader.text(name)) return finish(reader, problem);
  }
  // Four bits of type per column, padded to whole words.
  const std::size_t headerSize = padded((columns + 1) / 2);
  for (;;) {
    std::uint64_t word = 0;
    if (!reader.peekU64(word)) {
      reader.fail("a ROWS response ended without its end marker");
      break;
    }
    if (word == kRowsDone || word == kRowsPart) {
      reader.skip(8);
      batch.more = word == kRowsPart;
      if (reader.remaining() != 0) reader.fail("bytes follow the end marker of a ROWS response");
      break;
    }
    if (reader.remaining() < headerSize) {
      reader.fail("a row's type header runs past the message's end");
      break;
    }
    const std::uint8_t* header = reader.current();
    reader.skip(headerSize);
    std::vector<Value> row;
    row.reserve(columns);
    for (std::size_t i = 0; i < columns && reader.problem().empty(); ++i) {
      const std::uint8_t code = (i % 2 == 0) ? (header[i / 2] & 0x0f) : (header[i / 2] >> 4);
      std::uint64_t word64 = 0;
      switch (code) {
        case Integer:
        case UnixTime:
        case Boolean:
          if (reader.u64(word64)) row.emplace_back(static_cast<std::int64_t>(word64));
          break;
        case Float:
          if (reader.u64(word64)) {
            double real = 0;
            std::memcpy(&real, &word64, sizeof real);
            row.emplace_back(real);
          }
          break;
        case Text:
        case Iso8601: {
          std::string text;
          if (reader.text(text)) {
            if (code == Iso8601 && text.empty()) {
              row.emplace_back();
            } else {
              row.emplace_back(std::move(text));
            }
          }
          break;
        }
        case Blob: {
          Value blob;
          if (reader.blob(blob)) row.push_back(std::move(blob));
          break;
        }
        case Null:
          if (reader.u64(word64)) row.emplace_back();
          break;
        default:
          reader.fail("column " + std::to_string(i + 1) + " of a row has the unknown type " + std::to_string(code));
          break;
      }
    }
    if (!reader.problem().empty()) break;
    batch.rows.push_back(std::move(row));
  }
  return finish(reader, problem);
}

std::uint64_t roleCode(ClusterRole role) noexcept {
  switch (role) {
    case ClusterRole::Voter:
      return 0;
    case ClusterRole::StandBy:
      return 1;
    case ClusterRole::Spare:
      return 2;
  }
  return 2;
}

bool roleFromCode(std::uint64_t code, ClusterRole& role) noexcept {
  switch (code) {
    case 0:
      role = ClusterRole::Voter;
      return true;
    case 1:
      role = ClusterRole::StandBy;
      return true;
    case 2:
      role = ClusterRole::Spare;
      return true;
    default:
      return false;
  }
}

}  // namespace wire

const char* describe(ClusterRole role) noexcept {
  switch (role) {
    case ClusterRole::Voter:
      return "voter";
    case ClusterRole::StandBy:
      return "stand-by";
    case ClusterRole::Spare:
      return "spare";
  }
  return "spare";
}

}  // namespace sqlitebridge
