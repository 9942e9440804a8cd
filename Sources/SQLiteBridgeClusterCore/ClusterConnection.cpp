// One protocol session with one dqlite node.
#include "ClusterConnection.hpp"

#include <algorithm>

namespace sqlitebridge {

std::unique_ptr<ClusterConnection> ClusterConnection::open(const std::string& address, Deadline deadline,
                                                           std::string& problem) {
  ClusterSocket socket = ClusterSocket::connect(address, deadline, problem);
  if (!socket.isOpen()) return nullptr;
  wire::BodyWriter version;
  version.u64(wire::kProtocolVersion);
  const std::vector<std::uint8_t> bytes = version.take();
  std::size_t sent = 0;
  if (!socket.sendAll(bytes.data(), bytes.size(), deadline, sent, problem)) return nullptr;
  return std::unique_ptr<ClusterConnection>(new ClusterConnection(address, std::move(socket)));
}

bool ClusterConnection::take(std::uint8_t* out, std::size_t size, Deadline deadline, std::string& problem) {
  constexpr std::size_t kReadSize = 64 * 1024;
  while (size > 0) {
    if (bufferedStart_ == buffered_.size()) {
      // Large pieces go straight to their place; small ones through the
      // buffer, so that one read brings a header and its body together.
      if (size >= kReadSize) {
        const std::size_t got = socket_.receiveSome(out, size, deadline, problem);
        if (got == 0) return false;
        out += got;
        size -= got;
        continue;
      }
      buffered_.resize(kReadSize);
      const std::size_t got = socket_.receiveSome(buffered_.data(), buffered_.size(), deadline, problem);
      if (got == 0) return false;
      buffered_.resize(got);
      bufferedStart_ = 0;
    }
    const std::size_t count = std::min(size, buffered_.size() - bufferedStart_);
    std::copy(buffered_.begin() + static_cast<std::ptrdiff_t>(bufferedStart_),
              buffered_.begin() + static_cast<std::ptrdiff_t>(bufferedStart_ + count), out);
    bufferedStart_ += count;
    out += count;
    size -= count;
  }
  return true;
}

bool ClusterConnection::read(Deadline deadline, wire::Message& message, std::string& problem) {
  std::uint8_t header[wire::kHeaderSize];
  if (!take(header, sizeof header, deadline, problem)) return false;
  std::uint64_t size = 0;
  if (!wire::decodeHeader(header, size, message.type, problem)) return false;
  // Grown as bytes arrive: a header announcing gigabytes from a hostile
  // peer costs the wait for them, not the memory.
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  message.body.clear();
  while (message.body.size() < size) {
    const std::size_t start = message.body.size();
    const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - start));
    message.body.resize(start + count);
    if (!take(message.body.data() + start, count, deadline, problem)) return false;
  }
  return true;
}

ClusterConnection::Outcome ClusterConnection::call(std::uint8_t type, const std::vector<std::uint8_t>& body,
                                                   Deadline deadline, wire::Message& answer, std::string& problem) {
  if (isBroken() || bufferedStart_ != buffered_.size() || socket_.peerClosed()) {
    // Closed while idle (a node that stopped or restarted): the request
    // never leaves, so it cannot have run.
    socket_.close();
    problem = "the connection to " + address_ + " was closed by the node";
    return Outcome::NotSent;
  }
  std::vector<std::uint8_t> request(wire::kHeaderSize + body.size());
  wire::encodeHeader(type, body.size(), request.data());
  std::copy(body.begin(), body.end(), request.begin() + wire::kHeaderSize);
  std::size_t sent = 0;
  if (!socket_.sendAll(request.data(), request.size(), deadline, sent, problem)) {
    socket_.close();
    // A request cut short is never run; one sent whole may have been.
    return sent < request.size() ? Outcome::NotSent : Outcome::Lost;
  }
  return next(deadline, answer, problem);
}

ClusterConnection::Outcome ClusterConnection::next(Deadline deadline, wire::Message& answer, std::string& problem) {
  if (!isBroken() && read(deadline, answer, problem)) return Outcome::Answered;
  socket_.close();
  if (problem.empty()) problem = "the connection to " + address_ + " is closed";
  return Outcome::Lost;
}

}  // namespace sqlitebridge
