// A Swift client that does NOT enable C++ interoperability, using the
// plain-Swift variant of the facade that scripts/plain-swift-client builds
// (library evolution, the C++ core imported internally, nothing inlinable).
// It is compiled with plain `swiftc`, no -cxx-interoperability-mode, against
// only the variant's .swiftinterface and library.
import SQLiteBridge

struct Note: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "notes"
  var id: Int64?
  var title: String
}

let db = try Database(path: ":memory:")
try db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
try db.execute("INSERT INTO notes(title) VALUES (?)", ["Buy milk"])
let note = Note(id: nil, title: "Call Bob")
_ = try db.insert(note)
let rows = try db.rows("SELECT id, title FROM notes ORDER BY id")
let titles = try rows.map { try $0.get("title", as: String.self) }
precondition(titles == ["Buy milk", "Call Bob"], "\(titles)")
let fetched = try db.fetchAll(Note.self)
precondition(fetched.count == 2 && fetched[1].title == "Call Bob")
do {
  try db.execute("INSERT INTO notes(title) VALUES (NULL)")
  preconditionFailure("expected a constraint error")
} catch let error as DatabaseError {
  precondition(error.resultCode == .constraint, "\(error)")
}
print("plain-Swift consumer: all checks passed (\(titles))")
