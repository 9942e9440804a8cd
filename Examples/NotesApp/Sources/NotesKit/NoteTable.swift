/// Notes as a plain-text table: id (right-aligned), done mark, title.
///
///     ID  DONE  TITLE
///      1  [ ]   Welcome to notes
///     12  [x]   Buy milk
enum NoteTable {
  static func render(_ notes: [Note]) -> String {
    guard !notes.isEmpty else { return "no notes\n" }
    let ids = notes.map { $0.id.map(String.init) ?? "" }
    let width = max(2, ids.map(\.count).max() ?? 0)
    var text = pad("ID", width) + "  DONE  TITLE\n"
    for (id, note) in zip(ids, notes) {
      text += pad(id, width) + "  " + (note.done ? "[x]" : "[ ]") + "   " + oneLine(note.title) + "\n"
    }
    return text
  }

  /// `text` right-aligned in `width` characters.
  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// Line breaks and tabs as spaces, so that a row stays one line.
  private static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }
}
