import CxxStdlib
import Foundation
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// One column of `Database.createTable` or `Database.addColumn`, rendered
/// by the core as `"name" type [PRIMARY KEY [AUTOINCREMENT]] [NOT NULL]
/// [UNIQUE] [DEFAULT literal] [REFERENCES "table"("column")]`, the name
/// quoted (any name is just a name).
///
/// Creating or adding the column throws `DatabaseError` with `.misuse`
/// (nothing runs) when `name` or `references` holds NUL; when `type` is not
/// a type name: words (ASCII letters, digits and `_`, not starting with a
/// digit) and, at the end, optionally `(n)` or `(n, m)` with signed numbers
/// — words that start a column constraint (CONSTRAINT, PRIMARY, NOT, NULL,
/// UNIQUE, CHECK, DEFAULT, COLLATE, REFERENCES, GENERATED, AS) are refused
/// (an empty type is allowed); when `autoincrement` is set without
/// `primaryKey`; when `defaultValue` is text holding NUL; when `references`
/// is not `"table(column)"` or `"table"`, or names one of SQLite's own
/// tables (`sqlite_` in any case: SQLite would create the key, and then
/// every schema change would fail with "foreign key mismatch").
public struct ColumnDefinition: Sendable {
  /// The column's name, quoted when rendered.
  public var name: String
  /// The declared type as written (`"INTEGER"`, `"VARCHAR(20)"`, or `""`).
  public var type: String
  /// PRIMARY KEY.
  public var primaryKey: Bool
  /// AUTOINCREMENT (SQLite allows it on an INTEGER PRIMARY KEY only).
  public var autoincrement: Bool
  /// NOT NULL.
  public var notNull: Bool
  /// UNIQUE.
  public var unique: Bool
  /// DEFAULT, written by the core as a literal of the value: reals as the
  /// shortest decimal SQLite reads back as the same bits (an integral one
  /// as `(CAST(… AS REAL))`, infinities as `(9e999)`/`(-9e999)`, NaN as
  /// NULL); text quoted; blobs as `x'…'`.
  public var defaultValue: DatabaseValue?
  /// REFERENCES: `"table(column)"`, or `"table"` for its primary key; each
  /// part is trimmed of spaces and quoted.
  public var references: String?

  /// A column called `name` of `type`, with the options given.
  public init(
    _ name: String, _ type: String = "", primaryKey: Bool = false, autoincrement: Bool = false,
    notNull: Bool = false, unique: Bool = false, defaultValue: DatabaseValue? = nil,
    references: String? = nil
  ) {
    self.name = name
    self.type = type
    self.primaryKey = primaryKey
    self.autoincrement = autoincrement
    self.notNull = notNull
    self.unique = unique
    self.defaultValue = defaultValue
    self.references = references
  }

  /// The core's `ColumnDefinition` for this column.
  ///
  /// - Throws: `DatabaseError` with `.noMemory` when the default cannot be
  ///   stored.
  func cxx() throws -> sqlitebridge.ColumnDefinition {
    var column = sqlitebridge.ColumnDefinition()
    column.name = std.string(name)
    column.type = std.string(type)
    column.primaryKey = primaryKey
    column.autoincrement = autoincrement
    column.notNull = notNull
    column.unique = unique
    column.references = std.string(references ?? "")
    var stored = true
    switch defaultValue {
    case nil: break
    case .null: sqlitebridge.interop.TableHelperAccess.setDefaultNull(&column)
    case .integer(let value): sqlitebridge.interop.TableHelperAccess.setDefaultInteger(&column, value)
    case .real(let value): sqlitebridge.interop.TableHelperAccess.setDefaultReal(&column, value)
    case .text(let value): stored = sqlitebridge.interop.TableHelperAccess.setDefaultText(&column, std.string(value))
    case .blob(let value):
      stored = value.withUnsafeBytes {
        sqlitebridge.interop.TableHelperAccess.setDefaultBlob(&column, $0.baseAddress, $0.count)
      }
    }
    guard stored else {
      throw DatabaseError(
        code: ResultCode.noMemory.rawValue, message: "out of memory while storing the default of column \(name)")
    }
    return column
  }
}
