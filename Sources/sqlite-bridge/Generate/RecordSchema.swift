import Foundation
import SQLiteBridge

/// One column of a generated record.
struct RecordColumn {
  /// The column's name in the table.
  let name: String
  /// The property (C++ member) name, before each language's escape.
  let property: String
  /// What the column holds.
  let kind: ValueKind
  /// Whether the property is optional: the column may hold NULL (see
  /// `RecordSchema`). Never for `.any`, whose type holds NULL itself.
  let isOptional: Bool
}

/// One association a foreign key implies, on one side of it.
struct RecordAssociation {
  enum Kind {
    /// On the table holding the foreign key: its row refers to one row.
    case belongsTo
    /// On the referenced table: rows of the other table refer to it.
    case hasMany
  }

  let kind: Kind
  /// The property name (before each language's escape).
  let name: String
  /// The other table, and its record type.
  let otherTable: String
  let otherType: String
  /// The foreign key's columns in the table holding it, and the columns they
  /// reference, pairwise.
  let childColumns: [String]
  let parentColumns: [String]
}

/// One table (or a view named with `--table`) and what its record holds.
struct RecordTable {
  let table: String
  let typeName: String
  let columns: [RecordColumn]
  /// The primary key's columns in key order; `["rowid"]` for a table
  /// without a declared one, empty for a view.
  let primaryKey: [String]
  var associations: [RecordAssociation]
}

/// The records to generate, read from a live database through the facade's
/// schema introspection (`tableNames`, `columns(in:)`, `primaryKey(of:)`,
/// `foreignKeys(of:)`).
///
/// Which tables: those `tableNames()` lists (so no views, no `sqlite_*`
/// tables, no shadow tables of virtual tables), or exactly those named with
/// `--table` (any table or view, those included), in that order. Hidden
/// columns (generated columns, a virtual table's hidden ones) are left out:
/// they cannot be written.
///
/// A property is optional unless its column is NOT NULL (which SQLite also
/// reports for the key columns of a WITHOUT ROWID table) or is the rowid
/// alias (the one column of the primary key, declared exactly `INTEGER`).
///
/// Associations: each foreign key whose two tables are both generated gives
/// a `belongsTo` on the table holding it and a `hasMany` on the table it
/// references (keys to other tables give none). Named after the other type
/// (`folder`; `notes`: the type's name lowered, with an `s` unless it ends
/// in one) when the key is the only one between its two tables and not a
/// self-reference; else after its columns, with a trailing `Id`/`ID` dropped
/// (`author_id` → `author` on the child, `authorNotes` on the parent).
///
/// - Throws: `GenerationError` for an unknown `--table` and for every
///   collision (see `Identifiers`); `DatabaseError` when the schema cannot
///   be read.
enum RecordSchema {
  /// Member names the generated types use for themselves (and Swift's
  /// `Hashable`/`CodingKey` members a property or coding key cannot take).
  static let reservedMembers: Set<String> = [
    "databaseTableName", "primaryKey", "hashValue", "stringValue", "intValue", "rawValue",
  ]
  /// Type names that would shadow what the generated code names inside
  /// every record (`Columns`, `CodingKeys`, C++'s `Associations`), or that
  /// cannot name a type.
  static let reservedTypes: Set<String> = [
    "Columns", "CodingKeys", "Associations", "Any", "Self", "Type", "Protocol", "Swift", "Foundation", "SQLiteBridge",
  ]

  static func read(_ database: Database, tables requested: [String]) throws -> [RecordTable] {
    let names = try tableNames(database, requested)
    var tables: [RecordTable] = []
    var byType: [String: String] = [:]
    for name in names {
      let table = try readTable(database, name)
      if let other = byType[table.typeName] {
        throw GenerationError(
          "tables \(quoted(other)) and \(quoted(name)) both map to the type name \(table.typeName)")
      }
      if reservedTypes.contains(table.typeName) {
        throw GenerationError(
          "table \(quoted(name)) maps to the type name \(table.typeName), which the generated code reserves")
      }
      byType[table.typeName] = name
      tables.append(table)
    }
    try addAssociations(database, &tables)
    return tables
  }

  /// Every table `tableNames()` lists, or the requested ones (each a table
  /// or a view, spelled as the schema stores it when it is a listed table).
  private static func tableNames(_ database: Database, _ requested: [String]) throws -> [String] {
    let listed = try database.tableNames()
    guard !requested.isEmpty else { return listed }
    var names: [String] = []
    for name in requested {
      guard try database.tableExists(name) || database.viewExists(name) else {
        throw GenerationError("no such table or view: \(name)")
      }
      let stored = listed.first { sameName($0, name) } ?? name
      if !names.contains(where: { sameName($0, stored) }) { names.append(stored) }
    }
    return names
  }

  private static func readTable(_ database: Database, _ name: String) throws -> RecordTable {
    let isTable = try database.tableExists(name)
    let infos = try database.columns(in: name).filter { !$0.isHidden }
    let primaryKey = isTable ? try database.primaryKey(of: name) : []
    let typeName = Identifiers.typeName(name)
    var columns: [RecordColumn] = []
    var byProperty: [String: String] = [:]
    for (index, info) in infos.enumerated() {
      let property = Identifiers.propertyName(info.name, position: index + 1)
      if let other = byProperty[property] {
        throw GenerationError(
          "columns \(quoted(other)) and \(quoted(info.name)) of table \(quoted(name)) both map to the property "
            + property)
      }
      if reservedMembers.contains(property) || property == typeName {
        throw GenerationError(
          "column \(quoted(info.name)) of table \(quoted(name)) maps to the property \(property), which the "
            + "generated code reserves")
      }
      byProperty[property] = info.name
      let kind = ValueKind(declaredType: info.declaredType)
      let isRowidAlias =
        primaryKey.count == 1 && info.primaryKeyIndex == 1
        && info.declaredType.trimmingCharacters(in: .whitespaces).uppercased() == "INTEGER"
      let isOptional = kind != .any && !info.isNotNull && !isRowidAlias
      columns.append(RecordColumn(name: info.name, property: property, kind: kind, isOptional: isOptional))
    }
    return RecordTable(table: name, typeName: typeName, columns: columns, primaryKey: primaryKey, associations: [])
  }

  private static func addAssociations(_ database: Database, _ tables: inout [RecordTable]) throws {
    for childIndex in tables.indices where !tables[childIndex].primaryKey.isEmpty {
      let child = tables[childIndex]
      let keys = try database.foreignKeys(of: child.table)
      for key in keys {
        guard let parentIndex = tables.firstIndex(where: { sameName($0.table, key.destinationTable) }) else {
          continue
        }
        let parent = tables[parentIndex]
        let parentColumns =
          key.destinationColumns.isEmpty ? try database.primaryKey(of: parent.table) : key.destinationColumns
        let isAmbiguous =
          childIndex == parentIndex || keys.filter { sameName($0.destinationTable, key.destinationTable) }.count > 1
        let keyName = columnsName(key.columns)
        let plural = pluralized(Identifiers.lowered(child.typeName))
        tables[childIndex].associations.append(
          RecordAssociation(
            kind: .belongsTo, name: isAmbiguous ? keyName : Identifiers.lowered(parent.typeName),
            otherTable: parent.table, otherType: parent.typeName, childColumns: key.columns,
            parentColumns: parentColumns))
        tables[parentIndex].associations.append(
          RecordAssociation(
            kind: .hasMany, name: isAmbiguous ? keyName + Identifiers.capitalized(plural) : plural,
            otherTable: child.table, otherType: child.typeName, childColumns: key.columns,
            parentColumns: parentColumns))
      }
    }
    for table in tables { try checkAssociationNames(table) }
  }

  private static func checkAssociationNames(_ table: RecordTable) throws {
    var seen: [String: RecordAssociation] = [:]
    for association in table.associations {
      if let other = seen[association.name] {
        throw GenerationError(
          "table \(quoted(table.table)): the associations \(describe(other)) and \(describe(association)) "
            + "both map to the name \(association.name)")
      }
      if reservedMembers.contains(association.name) || association.name == table.typeName {
        throw GenerationError(
          "table \(quoted(table.table)): the association \(describe(association)) maps to the name "
            + "\(association.name), which the generated code reserves")
      }
      seen[association.name] = association
    }
  }

  /// "belongsTo "folder" (folder_id)", "hasMany "note" (folder_id)".
  private static func describe(_ association: RecordAssociation) -> String {
    let kind = association.kind == .belongsTo ? "belongsTo" : "hasMany"
    return "\(kind) \(quoted(association.otherTable)) (\(association.childColumns.joined(separator: ", ")))"
  }

  /// The foreign key's columns as one name, a trailing `Id`/`ID` dropped.
  private static func columnsName(_ columns: [String]) -> String {
    let name = Identifiers.propertyName(columns.joined(separator: "_"), position: 0)
    for suffix in ["Id", "ID"] where name.hasSuffix(suffix) && name.count > suffix.count {
      return String(name.dropLast(suffix.count))
    }
    return name
  }

  private static func pluralized(_ name: String) -> String { name.hasSuffix("s") ? name : name + "s" }

  /// SQLite's rule for names: ASCII letters match ignoring case.
  static func sameName(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
  }

  private static func asciiLower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }

  /// A name in double quotes, as messages show names.
  static func quoted(_ name: String) -> String { "\"\(name)\"" }
}
