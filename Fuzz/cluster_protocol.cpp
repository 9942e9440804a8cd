// Fuzz target cluster_protocol: whatever bytes a dqlite server sends, the
// client's decoders (Sources/SQLiteBridgeClusterCore/WireFormat) fail
// cleanly or give a well-formed result; then the same bytes are played to
// a real ClusterDatabase by a server on a socket pair, which must fail or
// succeed within its timeouts, never crash or hang.
//
// Input: a byte choosing what the rest is (low 3 bits: a message header,
// or the body of FAILURE, SERVER, SERVERS, DB, RESULT, EMPTY or ROWS), then
// the bytes. With bit 3 set, the input (after the first byte) is instead
// the stream a server answers every request of a client session with.
//
// Invariants (a broken one aborts): a decoder never reads past the body
// (AddressSanitizer) and fails with a problem described, or succeeds with
// what the protocol allows: decoded text holds no NUL (the wire's text is
// NUL-terminated); every row of ROWS has as many values as there are
// columns, at least one; a header's size is a whole number of words within
// the limit. A client fed the stream returns (within its timeouts) with
// either success or an error that has a code and a message, for its read and
// for its write. The retry rule: the write's EXEC is sent again only after
// an answer that proves the last one did not run (FAILURE "not leader",
// 10250; Raft's RAFT_NOTLEADER, 7; "checkpoint in progress", 5) arrived on
// the connection it was sent on; anything else (silence, a closed
// connection, garbage, another answer) leaves it sent once, reported in
// doubt.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <atomic>
#include <cstring>
#include <thread>

#include "FuzzSupport.hpp"
#include "WireFormat.hpp"

using sqlitebridge::ClusterDatabase;
using sqlitebridge::ClusterMember;
namespace wire = sqlitebridge::wire;

namespace {

void checkText(const std::string& text, const char* what) {
  FUZZ_CHECK(text.find('\0') == std::string::npos, "decoded %s holds a NUL: %s", what, fuzz::printable(text).c_str());
}

void decodeOne(std::uint8_t which, const std::uint8_t* data, std::size_t size) {
  if (which == 0) {
    if (size < wire::kHeaderSize) return;
    std::uint64_t bodySize = 0;
    std::uint8_t type = 0;
    std::string problem;
    if (wire::decodeHeader(data, bodySize, type, problem)) {
      FUZZ_CHECK(bodySize % 8 == 0 && bodySize <= wire::kMaxBodyBytes, "header size %llu",
                 static_cast<unsigned long long>(bodySize));
    } else {
      FUZZ_CHECK(!problem.empty(), "a refused header has no problem");
    }
    return;
  }
  static const std::uint8_t kTypes[] = {0,        wire::Failure, wire::Server, wire::Servers,
                                        wire::Db, wire::Result,  wire::Empty,  wire::Rows};
  wire::Message message;
  message.type = kTypes[which];
  message.body.assign(data, data + size);
  std::string problem;
  bool ok = false;
  switch (message.type) {
    case wire::Failure: {
      std::uint64_t code = 0;
      std::string text;
      ok = wire::decodeFailure(message, code, text, problem);
      if (ok) checkText(text, "failure message");
      break;
    }
    case wire::Server: {
      std::uint64_t id = 0;
      std::string address;
      ok = wire::decodeServer(message, id, address, problem);
      if (ok) checkText(address, "leader address");
      break;
    }
    case wire::Servers: {
      std::vector<ClusterMember> members;
      ok = wire::decodeServers(message, members, problem);
      if (ok) {
        for (const ClusterMember& member : members) checkText(member.address, "member address");
      }
      break;
    }
    case wire::Db: {
      std::uint32_t id = 0;
      ok = wire::decodeDb(message, id, problem);
      break;
    }
    case wire::Result: {
      std::uint64_t lastId = 0;
      std::uint64_t rows = 0;
      ok = wire::decodeResult(message, lastId, rows, problem);
      break;
    }
    case wire::Empty:
      ok = wire::decodeEmpty(message, problem);
      break;
    case wire::Rows: {
      wire::RowsBatch batch;
      ok = wire::decodeRows(message, batch, problem);
      if (ok) {
        FUZZ_CHECK(!batch.columns.empty(), "ROWS decoded without columns");
        for (const std::string& name : batch.columns) checkText(name, "column name");
        for (const std::vector<sqlitebridge::Value>& row : batch.rows) {
          FUZZ_CHECK(row.size() == batch.columns.size(), "a row of %zu values for %zu columns", row.size(),
                     batch.columns.size());
        }
      }
      break;
    }
    default:
      break;
  }
  FUZZ_CHECK(ok || !problem.empty(), "decoder for type %d failed without saying why", message.type);
}

std::uint64_t littleEndian(const std::uint8_t* bytes, int size) {
  std::uint64_t value = 0;
  for (int i = size - 1; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

// Whether `sent` (what the server sent on one connection) holds a FAILURE
// whose code proves that a request did not run: only such an answer lets
// the client send an EXEC again.
bool holdsRefusal(const std::vector<std::uint8_t>& sent) {
  for (std::size_t at = 0; at + 16 <= sent.size(); ++at) {
    if (sent[at + 4] != wire::Failure) continue;
    const std::uint64_t code = littleEndian(&sent[at + 8], 8);
    if (code == 10250 || code == 7 || code == 5) return true;
  }
  return false;
}

// Plays `stream` to a client: the first request (LEADER) of each
// connection is answered truly (this server leads: the fuzzer cannot guess
// its port), every later one with the next piece of the stream (a length
// byte, then that many bytes), and when the stream ends the server hangs
// up. The server frames the client's requests, keeps what it sent on each
// connection, and notes on which connection each EXEC of the write came.
void playToClient(const std::uint8_t* data, std::size_t size) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0 || ::listen(listener, 4) != 0) {
    ::close(listener);
    return;
  }
  const std::string where = "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
  std::atomic<bool> done{false};
  std::atomic<bool> writing{false};
  std::vector<std::vector<std::uint8_t>> sentOn;  // per connection; read after join
  std::vector<std::size_t> execsOn;               // the connection of each EXEC of the write
  std::thread server([&] {
    std::size_t position = 0;
    const auto send = [&](int fd, const std::uint8_t* bytes, std::size_t count) {
      ::send(fd, bytes, count, MSG_NOSIGNAL);
      sentOn.back().insert(sentOn.back().end(), bytes, bytes + count);
    };
    while (!done) {
      pollfd entry{listener, POLLIN, 0};
      if (::poll(&entry, 1, 5) <= 0) continue;
      const int fd = ::accept(listener, nullptr, nullptr);
      if (fd < 0) continue;
      sentOn.emplace_back();
      std::vector<std::uint8_t> received;
      bool versionRead = false;
      bool answeredLeader = false;
      bool open = true;
      // Answer each request with the next piece; stop at the stream's end.
      while (!done && open && position < size) {
        pollfd peer{fd, POLLIN, 0};
        if (::poll(&peer, 1, 5) <= 0) continue;
        std::uint8_t buffer[4096];
        const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
        if (got <= 0) break;
        received.insert(received.end(), buffer, buffer + got);
        for (;;) {
          if (!versionRead) {
            if (received.size() < 8) break;
            received.erase(received.begin(), received.begin() + 8);
            versionRead = true;
            continue;
          }
          if (received.size() < wire::kHeaderSize) break;
          const std::size_t whole = wire::kHeaderSize + 8 * littleEndian(received.data(), 4);
          if (received.size() < whole) break;
          const std::uint8_t type = received[4];
          received.erase(received.begin(), received.begin() + static_cast<std::ptrdiff_t>(whole));
          if (!answeredLeader) {  // LEADER
            answeredLeader = true;
            wire::BodyWriter body;
            body.u64(1);
            body.text(where);
            const std::vector<std::uint8_t> bytes = body.take();
            std::uint8_t header[wire::kHeaderSize];
            wire::encodeHeader(wire::Server, bytes.size(), header);
            send(fd, header, sizeof header);
            send(fd, bytes.data(), bytes.size());
            continue;
          }
          if (type == wire::Exec && writing) execsOn.push_back(sentOn.size() - 1);
          if (position >= size) {
            open = false;
            break;
          }
          const std::size_t piece = std::min<std::size_t>(1 + data[position], size - position);
          send(fd, data + position + 1, piece - 1);
          position += piece;
        }
      }
      ::close(fd);
    }
  });
  sqlitebridge::ClusterConfiguration configuration;
  configuration.servers = {where};
  configuration.connectTimeoutMilliseconds = 50;
  // Long enough for a request to be sent again on a new connection (the
  // client pauses 25 ms first), so that the retry rule is exercised; short,
  // as every short piece of a stream costs this long a wait.
  configuration.retryTimeoutMilliseconds = 50;
  ClusterDatabase db = ClusterDatabase::open("fuzz", configuration);
  if (db.isOpen()) {
    std::vector<sqlitebridge::Row> rows;
    const bool ok = db.execute("SELECT 1", {}, &rows);
    const sqlitebridge::Error error = db.lastError();
    FUZZ_CHECK(ok || (error.code != 0 && !error.message.empty()), "a failed call left no error (code %d, \"%s\")",
               error.code, fuzz::printable(error.message).c_str());
    writing = true;
    const bool wrote = db.execute("INSERT INTO t VALUES (?)", {sqlitebridge::Value(1)});
    writing = false;
    const sqlitebridge::Error writeError = db.lastError();
    FUZZ_CHECK(wrote || (writeError.code != 0 && !writeError.message.empty()),
               "a failed write left no error (code %d, \"%s\")", writeError.code,
               fuzz::printable(writeError.message).c_str());
  } else {
    const sqlitebridge::Error error = db.lastError();
    FUZZ_CHECK(error.code != 0 && !error.message.empty(), "a failed open left no error");
  }
  done = true;
  server.join();
  ::close(listener);
  // The retry rule: every EXEC after the first follows a refusal on the
  // connection the one before it went to.
  for (std::size_t i = 1; i < execsOn.size(); ++i) {
    FUZZ_CHECK(holdsRefusal(sentOn[execsOn[i - 1]]),
               "the write's EXEC was sent %zu times, and no answer on the connection of send %zu said it did not run",
               execsOn.size(), i);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::hardenProcess();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  if ((mode & 0x08) != 0) {
    playToClient(data + 1, size - 1);
  } else {
    decodeOne(mode & 0x07, data + 1, size - 1);
  }
  return 0;
}
