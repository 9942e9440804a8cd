import Foundation
import SQLiteBridge

extension RowPrinting {
  /// RFC 4180 CSV: a header record of column names, then one record per
  /// row, every record ending in CRLF. A field holding `,`, `"`, CR or LF is
  /// quoted with `"` doubled inside; so is empty text, which keeps it apart
  /// from NULL, an empty unquoted field. Integers and reals as `query`'s JSON
  /// writes them; blobs (and text that is not UTF-8) as uppercase hex digits,
  /// as SQLite's `hex()` gives them. No columns at all gives no output.
  static func csv(header: [String], rows: [Row]) -> String {
    guard !header.isEmpty else { return "" }
    var out = csvRecord(header.map(csvQuoted))
    for row in rows { out += csvRecord(row.values.map(csvField)) }
    return out
  }

  static func csvField(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return ""
    case .integer(let integer): return String(integer)
    case .real(let real): return String(real)
    case .text(let text): return csvQuoted(text)
    case .blob(let data): return data.map { String(format: "%02X", $0) }.joined()
    }
  }

  /// `text` as one CSV field: quoted when it is empty or holds `,`, `"`,
  /// CR or LF.
  static func csvQuoted(_ text: String) -> String {
    let needsQuotes = text.isEmpty || text.unicodeScalars.contains { ",\"\r\n".unicodeScalars.contains($0) }
    guard needsQuotes else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  private static func csvRecord(_ fields: [String]) -> String {
    fields.joined(separator: ",") + "\r\n"
  }
}
