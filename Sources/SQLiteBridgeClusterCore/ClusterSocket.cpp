// TCP to a dqlite node: non-blocking sockets, every wait through poll with
// what is left of a deadline, no SIGPIPE (a node that went away is an
// error, not a signal), TCP_NODELAY (requests are small and answered one
// at a time: Nagle's delay would be added to each), and on Linux
// TCP_QUICKACK after each read (the node's own Nagle would otherwise wait
// for our delayed ACK in the middle of a longer answer).
#include "ClusterSocket.hpp"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstring>

namespace sqlitebridge {

namespace {

#ifdef MSG_NOSIGNAL
constexpr int kSendFlags = MSG_NOSIGNAL;
#else
constexpr int kSendFlags = 0;
#endif
#ifdef SOCK_CLOEXEC
constexpr int kSocketFlags = SOCK_CLOEXEC;
#else
constexpr int kSocketFlags = 0;
#endif

std::string systemError(const char* what, int code) { return std::string(what) + ": " + std::strerror(code); }

// Waits until `fd` is ready for `events` or the deadline passes: 1 ready,
// 0 timed out, -1 failed (errno set).
int waitFor(int fd, short events, Deadline deadline) noexcept {
  for (;;) {
    pollfd entry{fd, events, 0};
    const int ready = ::poll(&entry, 1, deadline.remainingMilliseconds());
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0 && !deadline.passed()) continue;  // poll rounds down
    return ready;
  }
}

}  // namespace

Deadline Deadline::in(int milliseconds) noexcept {
  return Deadline{std::chrono::steady_clock::now() + std::chrono::milliseconds(milliseconds < 0 ? 0 : milliseconds)};
}

int Deadline::remainingMilliseconds() const noexcept {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at - std::chrono::steady_clock::now());
  if (left.count() <= 0) return 0;
  return left.count() > 60000 ? 60000 : static_cast<int>(left.count()) + 1;
}

bool splitAddress(const std::string& address, std::string& host, std::string& port, std::string& problem) {
  std::size_t colon = std::string::npos;
  if (!address.empty() && address[0] == '[') {
    const std::size_t close = address.find(']');
    if (close != std::string::npos && close + 1 < address.size() && address[close + 1] == ':') {
      host = address.substr(1, close - 1);
      colon = close + 1;
    }
  } else {
    colon = address.rfind(':');
    if (colon != std::string::npos) host = address.substr(0, colon);
    if (host.find(':') != std::string::npos) colon = std::string::npos;  // a bare IPv6 address
  }
  if (colon == std::string::npos || host.empty() || colon + 1 >= address.size()) {
    problem = "\"" + address + "\" is not host:port";
    return false;
  }
  port = address.substr(colon + 1);
  for (char c : port) {
    if (c < '0' || c > '9') {
      problem = "\"" + address + "\" has no numeric port";
      return false;
    }
  }
  return true;
}

ClusterSocket& ClusterSocket::operator=(ClusterSocket&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

void ClusterSocket::close() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

ClusterSocket ClusterSocket::connect(const std::string& address, Deadline deadline, std::string& problem) {
  std::string host;
  std::string port;
  if (!splitAddress(address, host, port, problem)) return ClusterSocket();
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const int resolved = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found);
  if (resolved != 0) {
    problem = "cannot resolve " + host + ": " + ::gai_strerror(resolved);
    return ClusterSocket();
  }
  problem = "no address for " + host;
  for (addrinfo* candidate = found; candidate != nullptr; candidate = candidate->ai_next) {
    int fd = ::socket(candidate->ai_family, candidate->ai_socktype | kSocketFlags, candidate->ai_protocol);
    if (fd < 0) {
      problem = systemError("socket", errno);
      continue;
    }
    ClusterSocket socket(fd);
    const int flags = ::fcntl(fd, F_GETFL, 0);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SO_NOSIGPIPE
    ::setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    if (::connect(fd, candidate->ai_addr, candidate->ai_addrlen) != 0) {
      if (errno != EINPROGRESS) {
        problem = systemError("connect", errno);
        continue;
      }
      const int ready = waitFor(fd, POLLOUT, deadline);
      if (ready <= 0) {
        problem = ready == 0 ? "connecting timed out" : systemError("poll", errno);
        continue;
      }
      int failure = 0;
      socklen_t length = sizeof failure;
      if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) != 0) failure = errno;
      if (failure != 0) {
        problem = systemError("connect", failure);
        continue;
      }
    }
    ::freeaddrinfo(found);
    problem.clear();
    return socket;
  }
  ::freeaddrinfo(found);
  return ClusterSocket();
}

bool ClusterSocket::sendAll(const std::uint8_t* bytes, std::size_t size, Deadline deadline, std::size_t& sent,
                            std::string& problem) {
  sent = 0;
  if (fd_ < 0) {
    problem = "not connected";
    return false;
  }
  while (sent < size) {
    const ssize_t written = ::send(fd_, bytes + sent, size - sent, kSendFlags);
    if (written > 0) {
      sent += static_cast<std::size_t>(written);
      continue;
    }
    if (written < 0 && errno == EINTR) continue;
    if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      const int ready = waitFor(fd_, POLLOUT, deadline);
      if (ready > 0) continue;
      problem = ready == 0 ? "sending timed out" : systemError("poll", errno);
      return false;
    }
    problem = systemError("send", written < 0 ? errno : EPIPE);
    return false;
  }
  return true;
}

bool ClusterSocket::peerClosed() noexcept {
  if (fd_ < 0) return true;
  pollfd entry{fd_, POLLIN, 0};
  if (::poll(&entry, 1, 0) <= 0) return false;  // quiet: still there
  if ((entry.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) return true;
  // Readable between requests: only an end of stream (0) is expected;
  // anything else is a peer out of step, as good as gone.
  std::uint8_t byte = 0;
  const ssize_t got = ::recv(fd_, &byte, 1, MSG_PEEK);
  return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) || got > 0;
}

std::size_t ClusterSocket::receiveSome(std::uint8_t* bytes, std::size_t size, Deadline deadline, std::string& problem) {
  if (fd_ < 0) {
    problem = "not connected";
    return 0;
  }
  // An answer is awaited: waiting first saves the read that would find
  // nothing yet.
  for (;;) {
    const int ready = waitFor(fd_, POLLIN, deadline);
    if (ready <= 0) {
      problem = ready == 0 ? "no answer in time" : systemError("poll", errno);
      return 0;
    }
    const ssize_t got = ::recv(fd_, bytes, size, 0);
#ifdef TCP_QUICKACK
    // Linux delays the ACK of what it read (up to 40 ms) unless told not
    // to, each time: a node that writes an answer of a few kilobytes in
    // pieces without TCP_NODELAY (dqlite 1.11's) holds the next piece until
    // that ACK, so a 100-row sync pull took 43 ms instead of 1.
    int quick = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_QUICKACK, &quick, sizeof quick);
#endif
    if (got > 0) return static_cast<std::size_t>(got);
    if (got == 0) {
      problem = "the node closed the connection";
      return 0;
    }
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
    problem = systemError("recv", errno);
    return 0;
  }
}

}  // namespace sqlitebridge
