import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Records the changes made through one ``Database`` to the tables of one
/// schema, and gives them as a ``Changeset`` or a patchset at any time
/// (SQLite's session object; the C++ `sqlitebridge::Session`).
///
/// ```swift
/// let session = try DatabaseSession(db)
/// try session.attachAll()
/// try db.execute("UPDATE notes SET title = 'x' WHERE id = 1")
/// let changes = try session.changeset()
/// ```
///
/// It records from when a table is attached until the session is released.
/// Only tables with a declared PRIMARY KEY can be recorded (SQLite's rule):
/// ``attach(_:)`` refuses a table without one. Changes undone by a rollback
/// are not in the changeset.
///
/// Use it where its database is used (it is not `Sendable`). Once the
/// database is closed (also a database a queue or pool lent a block, once
/// the block returns), every throwing call throws `.misuse`,
/// ``isEnabled`` and ``isIndirect`` read false (setting them does
/// nothing) and ``isEmpty`` reads true. Every call throws `.error` naming
/// the session extension where SQLite lacks it (``Changeset/isAvailable``).
public final class DatabaseSession {
  /// The database it records (kept alive with it).
  let database: Database
  var core: sqlitebridge.Session

  /// Starts recording on `db` for `schema` ("main", "temp" or an attached
  /// database's name). No table is recorded until ``attach(_:)`` or
  /// ``attachAll()``.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when `db` is closed; `.error`
  ///   without the session extension; `.nomem` when memory runs out.
  public init(_ db: Database, schema: String = "main") throws {
    database = db
    core = sqlitebridge.Session(&db.core, std.string(schema))
    let error = core.error()
    guard !error.isError() else { throw DatabaseError(error) }
  }

  /// Records changes to `table` from now on. A table that does not exist
  /// yet is recorded once created with a PRIMARY KEY.
  ///
  /// - Throws: `DatabaseError` with `.error` when the table exists without a
  ///   declared PRIMARY KEY (SQLite would record nothing of it); `.misuse`
  ///   once the database is closed.
  public func attach(_ table: String) throws {
    var error = sqlitebridge.Error()
    guard core.attach(std.string(table), &error) else { throw DatabaseError(error) }
  }

  /// Records changes to every table of the schema from now on, tables made
  /// later included; tables without a PRIMARY KEY are skipped (SQLite's
  /// rule), and so are the library's own (named `sqlitebridge_…`: the sync
  /// engine's bookkeeping).
  ///
  /// - Throws: `DatabaseError` with `.misuse` once the database is closed.
  public func attachAll() throws {
    var error = sqlitebridge.Error()
    guard core.attachAll(&error) else { throw DatabaseError(error) }
  }

  /// Whether changes are being recorded: true when made; set false to stop
  /// recording and true to resume. False once the database is closed, when
  /// setting it does nothing.
  public var isEnabled: Bool {
    get { core.isEnabled() }
    set {
      var error = sqlitebridge.Error()
      _ = core.setEnabled(newValue, &error)
    }
  }

  /// Whether the changes recorded from now on are marked indirect
  /// (``ChangesetOperation/isIndirect``); false when made. False once the
  /// database is closed, when setting it does nothing.
  public var isIndirect: Bool {
    get { core.isIndirect() }
    set {
      var error = sqlitebridge.Error()
      _ = core.setIndirect(newValue, &error)
    }
  }

  /// Whether nothing has been recorded (true once the database is closed).
  /// A change recorded and rolled back since may still count.
  public var isEmpty: Bool { core.isEmpty() }

  /// The changes recorded so far, as a changeset (old and new values).
  ///
  /// - Throws: `DatabaseError` with `.misuse` once the database is closed;
  ///   `.error` without the session extension; `.nomem` when memory runs
  ///   out.
  public func changeset() throws -> Changeset {
    var out = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    guard core.changeset(&out, &error) else { throw DatabaseError(error) }
    return Changeset(out)
  }

  /// The changes recorded so far, as a patchset: smaller (no old values of
  /// updates and deletes), but it cannot be inverted.
  ///
  /// - Throws: `DatabaseError`, as ``changeset()``.
  public func patchset() throws -> Changeset {
    var out = sqlitebridge.Changeset()
    var error = sqlitebridge.Error()
    guard core.patchset(&out, &error) else { throw DatabaseError(error) }
    return Changeset(out)
  }

  /// Records, as changes, what turns `table` of the attached schema `schema`
  /// into `table` of this session's schema: rows only here inserted, rows
  /// only in `schema` deleted, differing rows updated. Attaches `table`
  /// first.
  ///
  /// - Throws: `DatabaseError` with `.schema` when the two tables' columns
  ///   or primary keys differ; `.error` when `schema` is not attached or the
  ///   table has no PRIMARY KEY; `.misuse` once the database is closed.
  public func diff(from schema: String, table: String) throws {
    var error = sqlitebridge.Error()
    guard core.diff(std.string(schema), std.string(table), &error) else { throw DatabaseError(error) }
  }
}
