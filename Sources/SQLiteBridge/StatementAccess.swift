import CxxStdlib
import Foundation
import SQLiteBridgeCore

// Swift drives the C++ statement directly: it binds arguments from Swift
// values and reads each column of the current row through one borrowed
// ColumnView, without building C++ rows first.

extension DatabaseValue {
  /// Copies a column of the statement's current row.
  @inlinable @inline(__always)
  init(_ column: sqlitebridge.ColumnView) {
    switch column.type {
    case .Integer:
      self = .integer(column.integer)
    case .Real:
      self = .real(column.real)
    case .Text:
      let bytes = UnsafeRawBufferPointer(start: column.bytes, count: Int(column.size))
      self = .text(String(decoding: bytes, as: UTF8.self))
    case .Blob:
      self = .blob(column.size == 0 ? Data() : Data(bytes: column.bytes!, count: Int(column.size)))
    default:
      self = .null
    }
  }
}

extension sqlitebridge.Statement {
  /// Binds `value` to parameter `index` (1-based); false on failure, with
  /// the reason in the database's last error.
  @inline(__always)
  mutating func bind(_ value: DatabaseValue, at index: Int32) -> Bool {
    switch value {
    case .null:
      return bindNull(index)
    case .integer(let integer):
      return bindInteger(index, integer)
    case .real(let real):
      return bindReal(index, real)
    case .text(let text):
      // Native strings lend their UTF-8 without a copy.
      if let bound = text.utf8.withContiguousStorageIfAvailable({ bindText(index, $0.baseAddress, $0.count) }) {
        return bound
      }
      var copy = text
      return copy.withUTF8 { bindText(index, $0.baseAddress, $0.count) }
    case .blob(let data):
      return data.withUnsafeBytes { bindBlob(index, $0.baseAddress, $0.count) }
    }
  }

  /// The current row's values, in column order.
  func currentValues(count: Int32) -> [DatabaseValue] {
    (0..<count).map { DatabaseValue(column($0)) }
  }
}
