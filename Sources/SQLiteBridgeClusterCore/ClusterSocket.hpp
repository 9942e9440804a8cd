// A TCP connection to one dqlite node, every wait bounded by a deadline
// (a node that accepts and never answers fails the call in time). POSIX
// sockets, non-blocking, with poll. Internal.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace sqlitebridge {

/// A point in time a wait must not pass.
struct Deadline {
  std::chrono::steady_clock::time_point at;
  /// `milliseconds` from now.
  static Deadline in(int milliseconds) noexcept;
  /// The earlier of two deadlines.
  static Deadline earlier(Deadline a, Deadline b) noexcept { return a.at < b.at ? a : b; }
  /// Milliseconds left (0 when passed), for poll.
  int remainingMilliseconds() const noexcept;
  bool passed() const noexcept { return std::chrono::steady_clock::now() >= at; }
};

/// Splits "host:port" (or "[v6]:port") into its parts; false (with
/// `problem`) when it is not of that form.
bool splitAddress(const std::string& address, std::string& host, std::string& port, std::string& problem);

class ClusterSocket {
 public:
  ClusterSocket() noexcept = default;
  ClusterSocket(ClusterSocket&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  ClusterSocket& operator=(ClusterSocket&& other) noexcept;
  ClusterSocket(const ClusterSocket&) = delete;
  ClusterSocket& operator=(const ClusterSocket&) = delete;
  ~ClusterSocket() { close(); }

  /// Connects to `address` ("host:port") before `deadline`, trying each
  /// address the host resolves to. Not open (and `problem` set) on failure.
  static ClusterSocket connect(const std::string& address, Deadline deadline, std::string& problem);

  bool isOpen() const noexcept { return fd_ >= 0; }
  void close() noexcept;
  /// Sends all `size` bytes before `deadline`; `sent` counts what left.
  /// False (with `problem`) when the connection failed or time ran out.
  bool sendAll(const std::uint8_t* bytes, std::size_t size, Deadline deadline, std::size_t& sent, std::string& problem);
  /// Whether the peer has closed its end (or the connection failed) while
  /// nothing was asked of it: a request sent now would surely be lost,
  /// and it did not run.
  bool peerClosed() noexcept;
  /// Receives at least one and at most `size` bytes before `deadline`;
  /// 0 (with `problem`) when the connection closed or failed or time ran
  /// out.
  std::size_t receiveSome(std::uint8_t* bytes, std::size_t size, Deadline deadline, std::string& problem);

 private:
  explicit ClusterSocket(int fd) noexcept : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace sqlitebridge
