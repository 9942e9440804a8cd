import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// A set of tables and columns (or the whole database), compared as SQLite
/// compares identifiers: ASCII letters without regard to case, every other
/// byte exactly ("Notes" and "NOTES" are one table, "É" and "é" are two).
/// A value type; no operation fails.
///
/// The region a statement reads is what SQLite's authorizer reports while
/// it is prepared (`Database.region(of:)`): views are resolved to the
/// tables they read, SQLite's own tables (`sqlite_*`) and table-valued
/// pragmas (`pragma_*`) are left out, and a read that names no column
/// (`COUNT(*)`, a rowid or its alias) counts as the whole table.
///
/// Every rule (name comparison, union, intersection, description, hashing)
/// is the core's `sqlitebridge::DatabaseRegion`, which this wraps.
///
/// `@unchecked Sendable`: the wrapped C++ value is copied with the struct
/// (its copy constructor copies its maps: no storage is shared between
/// copies), is only ever mutated on a private copy (`union`), and its reads
/// are `const` and touch no hidden state, so reading one value from several
/// threads at once is safe.
public struct DatabaseRegion: @unchecked Sendable, Hashable, CustomStringConvertible {
  /// The core's value.
  var cxx: sqlitebridge.DatabaseRegion

  init(_ cxx: sqlitebridge.DatabaseRegion) {
    self.cxx = cxx
  }

  /// The whole database: it intersects every region but the empty one, and
  /// a union with it is the whole database.
  public static let fullDatabase = DatabaseRegion(sqlitebridge.DatabaseRegion.fullDatabase())

  /// The empty region: it intersects nothing.
  public init() {
    cxx = sqlitebridge.DatabaseRegion()
  }

  /// Every column of table `table` (its rows as a whole: inserts and
  /// deletes too). The name is kept as spelled for `description`.
  public init(table: String) {
    cxx = sqlitebridge.DatabaseRegion.table(std.string(table))
  }

  /// The given columns of `table` (repeats, in any case, count once); with
  /// no columns, the empty region.
  public init(table: String, columns: [String]) {
    var list = sqlitebridge.interop.StringList()
    list.reserve(columns.count)
    for column in columns { list.push_back(std.string(column)) }
    // Out of memory in the core gives the full database (the safe answer
    // for an observer: it hears of more, never of less).
    cxx = sqlitebridge.interop.ObservationAccess.columns(std.string(table), list)
  }

  /// This region and `other` together: columns of one table add up, a
  /// table as a whole takes in any of its columns, and the full database
  /// takes in everything. A table or column keeps the spelling it was first
  /// added with.
  public func union(_ other: DatabaseRegion) -> DatabaseRegion {
    var result = cxx
    // `formUnion` returns a reference, which Swift imports as `__…Unsafe`.
    _ = result.__formUnionUnsafe(other.cxx)
    return DatabaseRegion(result)
  }

  /// Whether the two regions share a column: a table as a whole shares
  /// every column of it, the full database shares everything that is not
  /// empty, and the empty region shares nothing (not even with the full
  /// database).
  public func intersects(_ other: DatabaseRegion) -> Bool {
    cxx.intersects(other.cxx)
  }

  /// Whether the region holds nothing.
  public var isEmpty: Bool { cxx.isEmpty() }

  /// Whether the region is the whole database.
  public var isFullDatabase: Bool { cxx.isFullDatabase() }

  /// "t(a,b),u(*)": tables in order of their case-folded names, each with
  /// its columns in that order or `*` for all; "empty", or "full database".
  /// A name is spelled as it was first added.
  public var description: String { String(cxx.description()) }

  /// Equal when they hold the same tables and columns, names compared as
  /// SQLite compares them (the core's `operator==`).
  public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
    lhs.cxx == rhs.cxx
  }

  /// Hashes the core's hash, which equal regions share (names case-folded).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cxx.hashValue())
  }
}
