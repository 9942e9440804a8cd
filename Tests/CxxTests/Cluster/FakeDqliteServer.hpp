// A scripted stand-in for a dqlite node, on 127.0.0.1, for what a real node
// cannot be made to do on cue: answer garbage, go silent, close after a
// request arrived, refuse as "not leader" exactly once. It speaks the wire
// protocol with an encoder of its own (independent of the core's), and a
// handler decides each answer. Each connection is served by a thread of its
// own; every wait is bounded by poll timeouts, and the destructor ends them.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sqlitebridge/cluster/ClusterDatabase.hpp>

namespace sqlitebridge_test {

class FakeDqliteServer {
 public:
  /// What the fake does with one request.
  struct Reply {
    enum class Kind { Answer, Close, Silent, Raw } kind = Kind::Answer;
    /// After an answer or raw bytes: close the connection.
    bool closeAfter = false;
    std::uint8_t type = 0;
    std::vector<std::uint8_t> body;
    std::vector<std::uint8_t> raw;  // Raw: sent as is (then the connection goes on)
  };
  /// `connection` counts the connections accepted (from 0).
  using Handler = std::function<Reply(int connection, std::uint8_t type, const std::vector<std::uint8_t>& body)>;

  // Request types (dqlite 1.11).
  static constexpr std::uint8_t kLeader = 0, kOpen = 3, kPrepare = 4, kExec = 5, kQuery = 6, kFinalize = 7,
                                kExecSql = 8, kQuerySql = 9, kCluster = 16;

  explicit FakeDqliteServer(Handler handler) : handler_(std::move(handler)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    ::listen(listener_, 16);
    address_ = "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
    acceptor_ = std::thread([this] { acceptLoop(); });
  }

  ~FakeDqliteServer() {
    stopping_ = true;
    acceptor_.join();
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      threads.swap(threads_);
    }
    for (std::thread& thread : threads) thread.join();
    ::close(listener_);
  }

  FakeDqliteServer(const FakeDqliteServer&) = delete;
  FakeDqliteServer& operator=(const FakeDqliteServer&) = delete;

  const std::string& address() const { return address_; }
  /// Waits (at most `timeout`) until the fake has closed `count`
  /// connections; false when it has not by then.
  bool waitForClosedConnections(int count, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    std::unique_lock<std::mutex> lock(mutex_);
    return closedChanged_.wait_for(lock, timeout, [&] { return closed_ >= count; });
  }

  /// The SQL a PREPARE gave the statement that an EXEC or QUERY `body`
  /// names (empty when unknown).
  std::string sqlOf(const std::vector<std::uint8_t>& body) const {
    if (body.size() < 8) return std::string();
    const std::uint32_t id = static_cast<std::uint32_t>(body[4]) | (static_cast<std::uint32_t>(body[5]) << 8) |
                             (static_cast<std::uint32_t>(body[6]) << 16) | (static_cast<std::uint32_t>(body[7]) << 24);
    std::lock_guard<std::mutex> lock(mutex_);
    return id < prepared_.size() ? prepared_[id] : std::string();
  }

  /// Requests of `type` received so far, on every connection.
  int count(std::uint8_t type) const { return counts_[type].load(); }

  // MARK: Encoding answers

  static void u64(std::vector<std::uint8_t>& out, std::uint64_t value) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
  static void text(std::vector<std::uint8_t>& out, const std::string& value) {
    out.insert(out.end(), value.begin(), value.end());
    out.push_back(0);
    while (out.size() % 8 != 0) out.push_back(0);
  }
  static Reply answer(std::uint8_t type, std::vector<std::uint8_t> body) {
    Reply reply;
    reply.type = type;
    reply.body = std::move(body);
    return reply;
  }
  /// `reply`, then the connection is closed (as a node that stops between
  /// requests).
  static Reply thenClose(Reply reply) {
    reply.closeAfter = true;
    return reply;
  }
  static Reply close() {
    Reply reply;
    reply.kind = Reply::Kind::Close;
    return reply;
  }
  static Reply silent() {
    Reply reply;
    reply.kind = Reply::Kind::Silent;
    return reply;
  }
  static Reply raw(std::vector<std::uint8_t> bytes) {
    Reply reply;
    reply.kind = Reply::Kind::Raw;
    reply.raw = std::move(bytes);
    return reply;
  }
  static Reply failure(std::uint64_t code, const std::string& message) {
    std::vector<std::uint8_t> body;
    u64(body, code);
    text(body, message);
    return answer(0, std::move(body));
  }
  static Reply server(std::uint64_t id, const std::string& address) {
    std::vector<std::uint8_t> body;
    u64(body, id);
    text(body, address);
    return answer(1, std::move(body));
  }
  static Reply db() {
    std::vector<std::uint8_t> body(8, 0);
    return answer(4, std::move(body));
  }
  static Reply statement(std::uint32_t id, std::uint64_t parameters) {
    std::vector<std::uint8_t> body(4, 0);
    for (int i = 0; i < 4; ++i) body.push_back(static_cast<std::uint8_t>(id >> (8 * i)));
    u64(body, parameters);
    return answer(5, std::move(body));
  }
  static Reply result(std::uint64_t lastInsertId, std::uint64_t rowsAffected) {
    std::vector<std::uint8_t> body;
    u64(body, lastInsertId);
    u64(body, rowsAffected);
    return answer(6, std::move(body));
  }
  static Reply empty() {
    std::vector<std::uint8_t> body(8, 0);
    return answer(8, std::move(body));
  }
  /// ROWS with one integer column `n` holding `values`.
  static Reply integers(const std::vector<std::int64_t>& values, bool more = false) {
    std::vector<std::uint8_t> body;
    u64(body, 1);
    text(body, "n");
    for (std::int64_t value : values) {
      std::vector<std::uint8_t> header(8, 0);
      header[0] = 1;  // integer
      body.insert(body.end(), header.begin(), header.end());
      u64(body, static_cast<std::uint64_t>(value));
    }
    u64(body, more ? 0xeeeeeeeeeeeeeeeeULL : 0xffffffffffffffffULL);
    return answer(7, std::move(body));
  }
  /// ROWS whose values are all text: `columns` named, one row per entry of
  /// `rows` (as many values as columns).
  static Reply texts(const std::vector<std::string>& columns, const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::uint8_t> body;
    u64(body, columns.size());
    for (const std::string& column : columns) text(body, column);
    for (const std::vector<std::string>& row : rows) {
      std::vector<std::uint8_t> header((columns.size() + 1) / 2, 0);
      for (std::size_t i = 0; i < columns.size(); ++i) header[i / 2] |= static_cast<std::uint8_t>(3 << (4 * (i % 2)));
      while (header.size() % 8 != 0) header.push_back(0);
      body.insert(body.end(), header.begin(), header.end());
      for (const std::string& value : row) text(body, value);
    }
    u64(body, 0xffffffffffffffffULL);
    return answer(7, std::move(body));
  }
  /// The SQL of an EXEC_SQL or QUERY_SQL `body` (the database's id, then
  /// the text).
  static std::string sqlTextOf(const std::vector<std::uint8_t>& body) {
    if (body.size() <= 8) return std::string();
    return std::string(reinterpret_cast<const char*>(body.data()) + 8);
  }
  /// SERVERS: one voter, this fake.
  Reply members() const {
    std::vector<std::uint8_t> body;
    u64(body, 1);
    u64(body, 1);
    text(body, address_);
    u64(body, 0);
    return answer(3, std::move(body));
  }
  /// The answers of a healthy one-node leader: LEADER names this fake,
  /// OPEN, PREPARE (parameters counted as the `?` in the SQL), EXEC with
  /// rowid 1, QUERY with one row (n = 1), FINALIZE, CLUSTER.
  Reply healthy(std::uint8_t type, const std::vector<std::uint8_t>& body) {
    switch (type) {
      case kLeader:
        return server(1, address_);
      case kOpen:
        return db();
      case kPrepare: {
        const std::string sql(reinterpret_cast<const char*>(body.data()) + 8);
        std::uint64_t parameters = 0;
        for (char c : sql) parameters += c == '?' ? 1 : 0;
        std::lock_guard<std::mutex> lock(mutex_);
        prepared_.push_back(sql);
        return statement(static_cast<std::uint32_t>(prepared_.size() - 1), parameters);
      }
      case kExec:
      case kExecSql:
        return result(1, 1);
      case kQuery:
      case kQuerySql:
        return integers({1});
      case kFinalize:
        return empty();
      case kCluster:
        return members();
      default:
        return failure(1, "the fake does not know request " + std::to_string(type));
    }
  }

 private:
  static bool readExactly(int fd, std::uint8_t* bytes, std::size_t size, const std::atomic<bool>& stopping) {
    std::size_t got = 0;
    while (got < size) {
      pollfd entry{fd, POLLIN, 0};
      const int ready = ::poll(&entry, 1, 50);
      if (stopping) return false;
      if (ready <= 0) continue;
      const ssize_t n = ::recv(fd, bytes + got, size - got, 0);
      if (n <= 0) return false;
      got += static_cast<std::size_t>(n);
    }
    return true;
  }

  static void sendAll(int fd, const std::vector<std::uint8_t>& bytes) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;
      sent += static_cast<std::size_t>(n);
    }
  }

  void acceptLoop() {
    int accepted = 0;
    while (!stopping_) {
      pollfd entry{listener_, POLLIN, 0};
      if (::poll(&entry, 1, 50) <= 0) continue;
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;
      const int index = accepted++;
      std::lock_guard<std::mutex> lock(mutex_);
      threads_.emplace_back([this, fd, index] { serve(fd, index); });
    }
  }

  void serve(int fd, int connection) {
    std::uint8_t version[8];
    bool open = readExactly(fd, version, sizeof version, stopping_);
    while (open) {
      std::uint8_t header[8];
      if (!readExactly(fd, header, sizeof header, stopping_)) break;
      const std::uint32_t words = static_cast<std::uint32_t>(header[0]) | (static_cast<std::uint32_t>(header[1]) << 8) |
                                  (static_cast<std::uint32_t>(header[2]) << 16) |
                                  (static_cast<std::uint32_t>(header[3]) << 24);
      std::vector<std::uint8_t> body(static_cast<std::size_t>(words) * 8);
      if (!readExactly(fd, body.data(), body.size(), stopping_)) break;
      counts_[header[4]]++;
      const Reply reply = handler_(connection, header[4], body);
      switch (reply.kind) {
        case Reply::Kind::Answer: {
          std::vector<std::uint8_t> message(8, 0);
          const std::uint32_t size = static_cast<std::uint32_t>(reply.body.size() / 8);
          for (int i = 0; i < 4; ++i) message[i] = static_cast<std::uint8_t>(size >> (8 * i));
          message[4] = reply.type;
          message.insert(message.end(), reply.body.begin(), reply.body.end());
          sendAll(fd, message);
          open = !reply.closeAfter;
          break;
        }
        case Reply::Kind::Raw:
          sendAll(fd, reply.raw);
          open = !reply.closeAfter;
          break;
        case Reply::Kind::Close:
          open = false;
          break;
        case Reply::Kind::Silent: {
          // Never answers; holds the connection until the fake goes away.
          std::uint8_t ignored[64];
          while (!stopping_) {
            pollfd entry{fd, POLLIN, 0};
            if (::poll(&entry, 1, 50) > 0 && ::recv(fd, ignored, sizeof ignored, 0) <= 0) break;
          }
          open = false;
          break;
        }
      }
    }
    ::close(fd);
    std::lock_guard<std::mutex> lock(mutex_);
    ++closed_;
    closedChanged_.notify_all();
  }

  Handler handler_;
  int listener_ = -1;
  std::string address_;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;
  mutable std::mutex mutex_;
  std::vector<std::thread> threads_;
  /// The SQL of each PREPARE, by the statement id it was given.
  std::vector<std::string> prepared_;
  std::condition_variable closedChanged_;
  int closed_ = 0;
  std::atomic<int> counts_[256] = {};
};

/// A client configuration that reaches only `server`: a 1 s connect timeout
/// and `retryMilliseconds` to find a leader again.
inline sqlitebridge::ClusterConfiguration through(const FakeDqliteServer& server, int retryMilliseconds = 3000) {
  sqlitebridge::ClusterConfiguration configuration;
  configuration.servers = {server.address()};
  configuration.connectTimeoutMilliseconds = 1000;
  configuration.retryTimeoutMilliseconds = retryMilliseconds;
  return configuration;
}

}  // namespace sqlitebridge_test
