import SQLiteBridge

/// One note: a row of the `notes` table and an element of the exported JSON.
///
/// Codable is all the record code there is: `FetchableRecord` decodes a row
/// by column name and `PersistableRecord` writes the encoded properties as
/// columns (a nil `id` is left out, so SQLite picks the rowid).
public struct Note: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
  public static let databaseTableName = "notes"

  /// The rowid; nil until the note is inserted.
  public var id: Int64?
  /// Never empty or only whitespace (the v2 schema's CHECK).
  public var title: String
  /// Free text; empty when none was given.
  public var body: String
  /// Whether `notes done` marked it.
  public var done: Bool

  /// A note with the given fields (a new one: no id, not done).
  public init(id: Int64? = nil, title: String, body: String = "", done: Bool = false) {
    self.id = id
    self.title = title
    self.body = body
    self.done = done
  }
}
