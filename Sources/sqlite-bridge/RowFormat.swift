import SQLiteBridge

/// How `query` and the shell print a statement's rows: `json`, `table` or
/// `csv` (see `RowPrinting` for each).
enum RowFormat: String, CaseIterable {
  case json
  case table
  case csv

  /// The names `--format` and `.mode` accept, for messages.
  static let names = allCases.map(\.rawValue).joined(separator: "|")

  /// The format called `name`; throws a usage error naming `what` (the
  /// option) for any other name.
  init(named name: String, for what: String) throws {
    guard let format = RowFormat(rawValue: name) else {
      throw UsageError("\(what) must be \(Self.names), not '\(name)'")
    }
    self = format
  }

  /// `rows` of a statement whose result columns are `columns`, ready to
  /// print (without a final line break; CSV records end in CRLF, the last
  /// one too). A statement that returns no rows still gets its header.
  func render(columns: [String], rows: [Row]) -> String {
    switch self {
    case .json: return RowPrinting.json(rows)
    case .table:
      guard !columns.isEmpty else { return RowPrinting.table(rows) }
      return RowPrinting.table(header: columns, cells: rows.map { $0.values.map(RowPrinting.text) })
    case .csv: return RowPrinting.csv(header: columns, rows: rows)
    }
  }
}
