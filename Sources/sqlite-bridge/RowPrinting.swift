import Foundation
import SQLiteBridge

/// Renders rows for the terminal, keeping column order.
enum RowPrinting {
  /// A JSON array of objects, one per row, keys in column order. Blobs are
  /// `{"blob": "<base64>"}`; infinite reals are `1e999` / `-1e999`.
  static func json(_ rows: [Row]) -> String {
    if rows.isEmpty { return "[]" }
    let objects = rows.map { "  " + jsonObject($0) }
    return "[\n" + objects.joined(separator: ",\n") + "\n]"
  }

  /// `json(rows)` on one line: `[{...}, {...}]`.
  static func jsonLine(_ rows: [Row]) -> String {
    "[" + rows.map(jsonObject).joined(separator: ", ") + "]"
  }

  /// One row as a JSON object, keys in column order.
  static func jsonObject(_ row: Row) -> String {
    "{" + zip(row.columnNames, row.values).map { "\(jsonString($0)): \(jsonValue($1))" }.joined(separator: ", ") + "}"
  }

  /// An aligned text table with a header line.
  static func table(_ rows: [Row]) -> String {
    guard let first = rows.first else { return "(0 rows)" }
    return table(header: first.columnNames, cells: rows.map { $0.values.map(text) })
  }

  /// An aligned text table of `cells` under `header`, with a row count.
  static func table(header: [String], cells: [[String]]) -> String {
    var widths = header.map(\.count)
    for line in cells {
      for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func format(_ line: [String]) -> String {
      zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: "  ").trimmingTrailingSpaces()
    }
    let rule = widths.map { String(repeating: "-", count: $0) }
    return ([format(header), format(rule)] + cells.map(format)).joined(separator: "\n")
      + "\n(\(cells.count) row\(cells.count == 1 ? "" : "s"))"
  }

  static func jsonValue(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return "null"
    case .integer(let integer): return String(integer)
    case .real(let real):
      if real.isInfinite { return real < 0 ? "-1e999" : "1e999" }
      return String(real)
    case .text(let text): return jsonString(text)
    case .blob(let data): return "{\"blob\": \"\(data.base64EncodedString())\"}"
    }
  }

  static func jsonString(_ text: String) -> String {
    quotedString(text) { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : nil }
  }

  /// One value as a table cell: NULL, text as it is, anything else as its
  /// SQL-literal-like description.
  static func text(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return "NULL"
    case .text(let text): return text
    default: return value.description
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
