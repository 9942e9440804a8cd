import Foundation
import SQLiteBridge
import Testing

/// The shared fixture `Tests/Fixtures/column-lookup.json`, written by the C++
/// core (`ColumnLookupFixtureTests.cpp`): which column a name finds in a row,
/// the leftmost whose name equals it but for ASCII case. The facade keeps
/// fast lookups of its own (`Row`, the per-statement `ColumnTable` behind
/// `RowView`, the `Decodable` row decoder); each must find what the core finds.
@Suite("Column lookup fixture")
struct ColumnLookupFixtureTests {
  struct File: Decodable {
    struct Case: Decodable {
      let columns: [String]
      let lookup: String
      let expect: Int
    }
    let cases: [Case]
  }

  static let path = fixturePath("column-lookup.json")

  /// `SELECT 0 AS "<first>", 1 AS "<second>", ...`: each column holds its index.
  private static func select(_ columns: [String]) -> String {
    "SELECT "
      + columns.enumerated().map { index, name in
        "\(index) AS \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\""
      }.joined(separator: ", ")
  }

  /// Decodes the column the task-local key names, as `fetch` decodes a
  /// property of that name.
  struct Probe: Decodable {
    @TaskLocal static var key = ""
    struct Key: CodingKey {
      let stringValue: String
      init(stringValue: String) { self.stringValue = stringValue }
      var intValue: Int? { nil }
      init?(intValue: Int) { nil }
    }
    let value: Int64?
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      value = try container.decodeIfPresent(Int64.self, forKey: Key(stringValue: Self.key))
    }
  }

  @Test func everyLookupFindsTheColumnTheCoreFinds() throws {
    let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: Self.path)))
    #expect(file.cases.count >= 20)
    let database = try memoryDatabase()
    for lookupCase in file.cases {
      let expected: DatabaseValue? = lookupCase.expect >= 0 ? .integer(Int64(lookupCase.expect)) : nil
      let what = "\(lookupCase.columns) looking up \"\(lookupCase.lookup)\""
      let sql = Self.select(lookupCase.columns)
      let row = try #require(try database.rows(sql).first)
      #expect(row.columnNames == lookupCase.columns, "\(what)")
      #expect(row[lookupCase.lookup] == expected, "Row: \(what)")
      #expect((try? row.get(lookupCase.lookup, as: Int64.self)) == expected.map { _ in Int64(lookupCase.expect) })
      try database.forEachRow(sql) { view in
        #expect(view[lookupCase.lookup] == expected, "RowView: \(what)")
        // Again, after the table's hint has moved on.
        _ = view[lookupCase.columns.last ?? ""]
        #expect(view[lookupCase.lookup] == expected, "RowView, second lookup: \(what)")
      }
      let decoded = try Probe.$key.withValue(lookupCase.lookup) { try database.fetch(Probe.self, sql) }
      #expect(decoded.map(\.value) == [expected.map { _ in Int64(lookupCase.expect) }], "Decodable: \(what)")
    }
  }
}
