/// How `fetch` and `fetchOne` match a `Decodable` type's coding keys to
/// column names. Either way the match ignores ASCII case and the leftmost
/// matching column wins.
public enum KeyDecodingStrategy: Sendable {
  /// A key matches the column with the same name: `userId` ↔ `userId`.
  case useDefaultKeys
  /// Column names are converted from snake_case to camelCase before
  /// matching, as `JSONDecoder`'s strategy of that name converts keys:
  /// `user_id` ↔ `userId` (and, as case is ignored, `userID`); leading and
  /// trailing underscores are kept; a name without an inner underscore is
  /// used as it is.
  case convertFromSnakeCase

  /// The name a key is compared with for column `name`.
  func keyName(forColumn name: String) -> String {
    switch self {
    case .useDefaultKeys: return name
    case .convertFromSnakeCase: return SnakeCase.camelCase(name)
    }
  }
}

/// Conversions between snake_case column names and camelCase keys.
enum SnakeCase {
  /// `user_id` → `userId`, `__a_b_` → `__aB_`, `id` → `id`, `USER_ID` →
  /// `userId`. Same rules as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`.
  static func camelCase(_ name: String) -> String {
    guard let first = name.firstIndex(where: { $0 != "_" }) else { return name }
    var last = name.index(before: name.endIndex)
    while last > first, name[last] == "_" { name.formIndex(before: &last) }
    let words = name[first...last].split(separator: "_")
    guard words.count > 1 else { return name }
    let joined = words.enumerated().map { offset, word in
      offset == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
    }.joined()
    return String(name[..<first]) + joined + String(name[name.index(after: last)...])
  }

  /// `userId` → `user_id`, `imageURLString` → `image_url_string`, `id` →
  /// `id`: an underscore goes before an uppercase letter that follows a
  /// lowercase letter or digit, or that starts a word after an acronym;
  /// everything is lowercased.
  static func snakeCase(_ key: String) -> String {
    let characters = Array(key)
    var result = ""
    result.reserveCapacity(key.utf8.count + 4)
    for (index, character) in characters.enumerated() {
      if character.isUppercase, index > 0 {
        let previous = characters[index - 1]
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
          result.append("_")
        }
      }
      result += character.lowercased()
    }
    return result
  }
}
