import CxxStdlib
import Foundation
import SQLiteBridgeCore

// Swift drives the C++ statement directly: it binds arguments from Swift
// values and reads each column of the current row through one borrowed
// ColumnView, without building C++ rows first.

extension DatabaseValue {
  /// Copies a column of the statement's current row. Text that is not valid
  /// UTF-8 becomes `.blob` holding its exact bytes (see `DatabaseValue`).
  @inlinable @inline(__always)
  package init(_ column: sqlitebridge.ColumnView) {
    switch column.type {
    case .Integer:
      self = .integer(column.integer)
    case .Real:
      self = .real(column.real)
    case .Text:
      if let text = ColumnText.string(column) {
        self = .text(text)
      } else {
        self = .blob(Data(bytes: column.bytes!, count: Int(column.size)))
      }
    case .Blob:
      self = .blob(column.size == 0 ? Data() : Data(bytes: column.bytes!, count: Int(column.size)))
    default:
      self = .null
    }
  }
}

/// Text columns as Swift strings, validated once: `String(decoding:as:)`
/// would replace invalid UTF-8 with U+FFFD, silently changing the value.
@usableFromInline
enum ColumnText {
  /// The text of a text column, or nil when its bytes are not valid UTF-8.
  /// One validating pass, as costly as the repairing decode it replaces.
  @inlinable @inline(__always)
  static func string(_ column: sqlitebridge.ColumnView) -> String? {
    let bytes = UnsafeBufferPointer(start: column.bytes?.assumingMemoryBound(to: UInt8.self), count: Int(column.size))
    return String._tryFromUTF8(bytes)
  }

}

extension sqlitebridge.Statement {
  /// Binds `value` to parameter `index` (1-based); false on failure, with
  /// the reason in the database's last error.
  @inlinable @inline(__always)
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

  /// Binds `arguments` to parameters 1...n after the core checked their
  /// count (`.range` when it does not match).
  mutating func bindAll(_ arguments: [DatabaseValue]) throws {
    guard expectArgumentCount(arguments.count) else { throw failure }
    // Through the buffer: no bounds check or array access per value (about
    // 10 instructions per row less; each value is still copied for the
    // switch that binds it, and the copy destroyed).
    let bound = arguments.withUnsafeBufferPointer { values in
      for index in values.indices where !bind(values[index], at: Int32(truncatingIfNeeded: index + 1)) {
        return false
      }
      return true
    }
    guard bound else { throw failure }
  }

  /// The error the core recorded on this statement's connection for the
  /// call that just failed (still there once its `Database` was closed).
  @usableFromInline
  var failure: DatabaseError { DatabaseError(lastError()) }

  /// The current row's values, in column order.
  func currentValues(count: Int32) -> [DatabaseValue] {
    (0..<count).map { DatabaseValue(column($0)) }
  }
}
