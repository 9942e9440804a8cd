import Foundation

extension UUID: DatabaseValueConvertible {
  /// Stores the UUID's 16 bytes as a blob, in RFC 4122 byte order.
  public var databaseValue: DatabaseValue {
    .blob(withUnsafeBytes(of: uuid) { Data($0) })
  }

  /// Reads a blob of exactly 16 bytes, or text in the 36-character form
  /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (either case, as
  /// `UUID(uuidString:)` reads it). Nil for a blob of another length, other
  /// text, a number or NULL.
  public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
    switch value {
    case .blob(let data):
      guard data.count == 16 else { return nil }
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &bytes) { _ = data.copyBytes(to: $0) }
      return UUID(uuid: bytes)
    case .text(let text):
      return UUID(uuidString: text)
    default:
      return nil
    }
  }
}
