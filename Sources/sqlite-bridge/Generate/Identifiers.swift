/// How a table or column name becomes an identifier of the generated code:
/// the same words in both languages, then each language's escape.
///
/// The name is cut into words at every character that cannot be part of an
/// identifier (anything but ASCII letters and digits and non-ASCII
/// alphabetic characters: `_`, spaces, quotes, punctuation, emoji are
/// dropped); case changes inside a word are kept (`userID` stays one word).
/// A type name capitalizes the first character of each word
/// (`note_tags` → `NoteTags`); a property lowercases its first word (all of
/// it when it is all capitals, `ID` → `id`, else its first character,
/// `UserName` → `userName`) and capitalizes the others (`created_at` →
/// `createdAt`). A name that starts with a digit gets a prefix (`Table` for
/// a type, `_` for a property); one with no word at all becomes `Table` or
/// `column<position>`. Never renamed otherwise: two names that give the same
/// identifier are reported (`GenerationError`).
enum Identifiers {
  /// The words of `name`, in order.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      if isWordScalar(scalar) {
        current.append(scalar)
      } else if !current.isEmpty {
        words.append(String(current))
        current = String.UnicodeScalarView()
      }
    }
    if !current.isEmpty { words.append(String(current)) }
    return words
  }

  /// The UpperCamelCase type name for table `name`.
  static func typeName(_ name: String) -> String {
    let joined = words(name).map(capitalized).joined()
    guard let first = joined.unicodeScalars.first else { return "Table" }
    return isDigit(first) ? "Table" + joined : joined
  }

  /// The lowerCamelCase property name for column `name`, the column at
  /// 1-based `position` (used only when the name has no word).
  static func propertyName(_ name: String, position: Int) -> String {
    let parts = words(name)
    guard let head = parts.first else { return "column\(position)" }
    let joined = lowered(head) + parts.dropFirst().map(capitalized).joined()
    return joined.unicodeScalars.first.map(isDigit) == true ? "_" + joined : joined
  }

  /// The first word lowered: entirely when it is all capitals (`ID`,
  /// `URL`), else its first character.
  static func lowered(_ word: String) -> String {
    if word.uppercased() == word && word.lowercased() != word { return word.lowercased() }
    return word.prefix(1).lowercased() + word.dropFirst()
  }

  /// The word with its first character upper-cased, the rest as it is.
  static func capitalized(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  /// Swift's spelling of `identifier`: backticks around a keyword.
  static func swift(_ identifier: String) -> String {
    swiftKeywords.contains(identifier) ? "`\(identifier)`" : identifier
  }

  /// C++'s spelling of `identifier`: a trailing underscore after a keyword
  /// (or a name the C and C++ standard headers define as a macro).
  static func cxx(_ identifier: String) -> String {
    cxxKeywords.contains(identifier) ? identifier + "_" : identifier
  }

  /// Swift's string literal for `text` (quotes, backslashes and control
  /// characters escaped; everything else as it is).
  static func swiftString(_ text: String) -> String {
    quotedString(text) { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : nil }
  }

  /// C++'s string literal for `text`: every byte that is not printable
  /// ASCII as an octal escape (three digits, so the next character can never
  /// extend it), quotes, backslashes and `?` (trigraphs) escaped.
  static func cxxString(_ text: String) -> String {
    var out = "\""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += "\\\""
      case UInt8(ascii: "\\"): out += "\\\\"
      case UInt8(ascii: "?"): out += "\\?"
      case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let octal = String(byte, radix: 8)
        out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
      }
    }
    return out + "\""
  }

  private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return isDigit(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
    return scalar.properties.isAlphabetic
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

  /// Swift's keywords, and the names a member can only have in backticks
  /// (`Type`, `Protocol`, `self`, `Self`, `init`).
  static let swiftKeywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
    "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
    "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
    "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil",
    "self", "Self", "super", "throws", "true", "try", "_", "Type", "Protocol", "some", "any", "async", "actor",
    "macro",
  ]

  /// C++17's keywords and alternative tokens, names the standard headers
  /// (or GNU mode) define as macros, and the namespaces the generated code
  /// names (a member `std` would hide `std::` for the members after it).
  static let cxxKeywords: Set<String> = [
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    "assert", "errno", "NULL", "EOF", "stdin", "stdout", "stderr", "offsetof", "setjmp", "va_arg", "va_start",
    "va_end", "va_copy", "linux", "unix", "i386", "std", "sqlitebridge",
  ]
}
