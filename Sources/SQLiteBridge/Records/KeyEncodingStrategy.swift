/// How `insert(_:into:keyEncoding:)` names columns after an `Encodable`
/// type's coding keys.
public enum KeyEncodingStrategy: Sendable {
  /// Each key is the column name: `userId` → `userId`.
  case useDefaultKeys
  /// Keys are converted from camelCase to snake_case: `userId` →
  /// `user_id`, `imageURL` → `image_url`, `id` → `id`.
  case convertToSnakeCase

  /// The column name for key `key`.
  func columnName(forKey key: String) -> String {
    switch self {
    case .useDefaultKeys: return key
    case .convertToSnakeCase: return SnakeCase.snakeCase(key)
    }
  }
}
