// A stand-in for the module SQLiteBridge with only what `sqlite-bridge
// generate swift` output names: the query interface's contract (TableRecord,
// Column, ForeignKey, belongsTo, hasMany), which is not in the facade yet,
// and the record protocols and DatabaseValue as the facade declares them.
// test_generate.py compiles it as a module named SQLiteBridge and
// type-checks generated code against it. Once the facade has the query
// interface, scripts/check-generated's Swift step compiles the output
// against the real module instead.
import Foundation

public enum DatabaseValue: Codable, Hashable, Sendable {
  case null
  case integer(Int64)
}

public protocol TableRecord { static var databaseTableName: String { get } }
public protocol FetchableRecord {}
public protocol PersistableRecord: TableRecord { static var primaryKey: [String] { get } }

public struct Column { public init(_ name: String) {} }
public struct ForeignKey: Sendable {
  public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {}
}
public struct BelongsToAssociation<Origin, Destination> {}
public struct HasManyAssociation<Origin, Destination> {}

extension TableRecord {
  public static func belongsTo<D: TableRecord>(
    _ destination: D.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> BelongsToAssociation<Self, D> { BelongsToAssociation() }
  public static func hasMany<D: TableRecord>(
    _ destination: D.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
  ) -> HasManyAssociation<Self, D> { HasManyAssociation() }
}
