/// What a column holds, decided from its declared type; each renderer
/// names its own type for each kind.
///
/// SQLite's affinity rules, in their order (https://sqlite.org/datatype3.html,
/// section 3.1), on the declared type in upper case: one containing `INT` is
/// INTEGER; else `CHAR`, `CLOB` or `TEXT`, TEXT; else `BLOB`, BLOB; else
/// `REAL`, `FLOA` or `DOUB`, REAL; else NUMERIC. Before them, two names
/// (the declared type's first word, without a size in parentheses) that
/// SQLite gives NUMERIC affinity mean more to a record: `DATE`, `DATETIME`
/// and `TIMESTAMP` are dates (stored as the libraries store dates), and
/// `BOOL` and `BOOLEAN` are booleans (0 or 1). A column declared with no
/// type at all can hold any value: it is read and written as it is. The
/// core has no affinity rule of its own (it never needs one), so this is the
/// only copy.
enum ValueKind: Equatable {
  /// INTEGER affinity: a 64-bit integer.
  case integer
  /// REAL affinity, and NUMERIC: a double (an integer a NUMERIC column holds
  /// reads as the same double and is stored back as that integer).
  case real
  /// TEXT affinity: UTF-8 text.
  case text
  /// A declared BLOB: bytes.
  case blob
  /// DATE, DATETIME or TIMESTAMP.
  case date
  /// BOOL or BOOLEAN.
  case bool
  /// No declared type: any value, NULL included.
  case any

  init(declaredType: String) {
    let upper = declaredType.uppercased()
    let firstWord = upper.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "\t" || $0 == "\n" }).first
    switch firstWord.map(String.init) {
    case "DATE", "DATETIME", "TIMESTAMP": self = .date
    case "BOOL", "BOOLEAN": self = .bool
    case nil: self = .any
    default:
      if upper.contains("INT") {
        self = .integer
      } else if upper.contains("CHAR") || upper.contains("CLOB") || upper.contains("TEXT") {
        self = .text
      } else if upper.contains("BLOB") {
        self = .blob
      } else {
        self = .real  // REAL, FLOA, DOUB, and NUMERIC
      }
    }
  }
}
