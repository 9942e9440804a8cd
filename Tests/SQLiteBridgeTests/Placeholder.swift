import Testing
import Foundation
@testable import SQLiteBridge

@Test func smoke() throws {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
  try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  let db = try Database(name: "a.db", createSQL: "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, b BLOB); CREATE INDEX ti ON t(s)", location: .init(documentsDirectory: dir))
  try db.execute("INSERT INTO t(s, b) VALUES (?, ?)", ["a\u{0}b", .blob(Data())])
  let rows = try db.rows("SELECT *, s AS S, id FROM t")
  print(rows, db.path, try db.tableColumns("t"))
  #expect(rows[0]["s"] == .text("a\u{0}b"))
  #expect(rows[0]["b"] == .blob(Data()))
  do { _ = try Database(name: "a\u{0}b", location: .init(documentsDirectory: dir)) } catch { print(error) }
  do { try db.execute("SELECT 1; SELECT 2") } catch { print(error) }
  do { try db.execute("SELECT ?") } catch { print(error) }
  do { try db.execute("INSERT INTO t(id) VALUES (1)") } catch { print(error) }
  try db.updateTable(create: "CREATE TABLE t(id INTEGER PRIMARY KEY, s TEXT, extra INT DEFAULT 5)", name: "t")
  print(try db.execute("SELECT * FROM t"), try db.execute("SELECT name, sql FROM sqlite_schema"))
}
