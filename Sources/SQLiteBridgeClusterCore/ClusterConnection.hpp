// One protocol session with one dqlite node: the connection, the version
// handshake, and requests answered one at a time (dqlite 1.11 aborts on a
// request sent while a result is still streaming, so every answer is read
// whole before the next request). Internal.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ClusterSocket.hpp"
#include "WireFormat.hpp"

namespace sqlitebridge {

class ClusterConnection {
 public:
  /// How a request went, as far as the client can know.
  enum class Outcome {
    /// An answer arrived (which may be the node's FAILURE).
    Answered,
    /// The request did not leave whole: the node cannot have run it.
    NotSent,
    /// The request left but no (readable) answer came back: the node may
    /// or may not have run it.
    Lost,
  };

  /// Connects to `address` and sends the protocol version; null (with
  /// `problem`) when that fails before `deadline`.
  static std::unique_ptr<ClusterConnection> open(const std::string& address, Deadline deadline, std::string& problem);

  /// Sends a request and reads the first message of its answer. After any
  /// outcome but Answered the connection is broken (closed).
  Outcome call(std::uint8_t type, const std::vector<std::uint8_t>& body, Deadline deadline, wire::Message& answer,
               std::string& problem);
  /// Reads the next message of an answer that goes on (ROWS); Lost when it
  /// does not arrive.
  Outcome next(Deadline deadline, wire::Message& answer, std::string& problem);

  const std::string& address() const noexcept { return address_; }
  bool isBroken() const noexcept { return !socket_.isOpen(); }

 private:
  ClusterConnection(std::string address, ClusterSocket socket)
      : address_(std::move(address)), socket_(std::move(socket)) {}
  bool read(Deadline deadline, wire::Message& message, std::string& problem);
  /// Fills `out` with the next `size` bytes: first from what an earlier
  /// read brought beyond its message, then from the socket.
  bool take(std::uint8_t* out, std::size_t size, Deadline deadline, std::string& problem);

  std::string address_;
  ClusterSocket socket_;
  /// Bytes received but not taken yet (a message often arrives with the
  /// next one's start, or whole with its header in one read).
  std::vector<std::uint8_t> buffered_;
  std::size_t bufferedStart_ = 0;
};

}  // namespace sqlitebridge
