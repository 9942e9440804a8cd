import CxxStdlib
import SQLiteBridgeCore
import SQLiteBridgeCore.Interop

/// Migrations: named steps that bring a database's schema and data up to
/// date, each applied once, in the order registered.
///
/// The identifiers of applied migrations are recorded in the table
/// `sqlitebridge_migrations(identifier TEXT PRIMARY KEY NOT NULL)` (in the
/// order applied), and `PRAGMA user_version` is set to how many are
/// applied, so that `sqlite3` and other tools see the version. Each pending
/// migration runs in its own IMMEDIATE transaction with foreign-key
/// enforcement paused (so that it may rebuild a table others reference, with
/// `updateTable` say); before it commits, `PRAGMA foreign_key_check` must
/// find nothing. A failure stops the run there: earlier migrations stay
/// committed, the failed one is rolled back entirely, later ones do not run.
/// Running again applies what is still pending. Every rule is the core's
/// (`sqlitebridge::Migrator` takes the same steps with C++ bodies).
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("create notes") { db in
///   try db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// }
/// try migrator.migrate(db)
/// ```
public struct DatabaseMigrator: Sendable {
  private var migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = []

  /// A migrator with no migrations.
  public init() {}

  /// Adds a migration after those registered so far. `migrate` runs inside
  /// the migration's transaction; throwing fails the migration.
  /// Identifiers are unique: registering one twice is a programming error
  /// reported by `migrate` (`.misuse`), which then runs nothing.
  public mutating func registerMigration(
    _ identifier: String, _ migrate: @escaping @Sendable (Database) throws -> Void
  ) {
    migrations.append((identifier, migrate))
  }

  /// Runs every pending migration, in the order registered.
  ///
  /// - Throws: When a migration throws a `DatabaseError`, or breaks a
  ///   foreign key (`.constraintForeignKey`, 787), a `DatabaseError` with
  ///   the same codes whose message is "migration <identifier> failed:
  ///   <reason>"; any other error a migration throws is rethrown as it is.
  ///   Either way that migration is rolled back and the ones before it stay
  ///   applied. Before running anything: `.misuse` when an identifier was
  ///   registered twice (or is empty), inside an open transaction ("cannot
  ///   migrate inside a transaction") or when closed; `.error` ("the
  ///   database was migrated by a newer version of the app: unknown
  ///   migration <identifier>") when the database records a migration this
  ///   migrator does not know; `.busy` when another connection holds the
  ///   write lock past the busy timeout.
  public func migrate(_ db: Database) throws {
    try run(db, upTo: nil)
  }

  /// Runs the pending migrations registered up to and including
  /// `identifier`, as `migrate(_:)` does; later ones stay pending.
  ///
  /// - Throws: as `migrate(_:)`, and `.misuse` ("no migration named
  ///   <identifier> is registered") when `identifier` is unknown.
  public func migrate(_ db: Database, upTo identifier: String) throws {
    try run(db, upTo: identifier)
  }

  /// The migrations the database records as applied, in the order applied
  /// (including any this migrator does not know); empty when none was.
  ///
  /// - Throws: `DatabaseError` with `.misuse` when closed, or SQLite's
  ///   error when the migrations table cannot be read.
  public func appliedMigrations(_ db: Database) throws -> [String] {
    var identifiers = sqlitebridge.interop.StringList()
    guard sqlitebridge.interop.MigrationAccess.appliedMigrations(&db.core, &identifiers) else { throw db.lastError }
    return (0..<identifiers.size()).map { String(identifiers[$0]) }
  }

  /// Whether every registered migration is applied.
  ///
  /// - Throws: as `migrate(_:)` does before running anything (an
  ///   identifier registered twice, a database migrated by a newer version
  ///   of the app), but not inside a transaction.
  public func hasCompletedMigrations(_ db: Database) throws -> Bool {
    var completed = false
    guard sqlitebridge.interop.MigrationAccess.hasCompletedMigrations(&db.core, registered(), &completed) else {
      throw db.lastError
    }
    return completed
  }

  /// The registered identifiers, for the core.
  private func registered() -> sqlitebridge.interop.StringList {
    var identifiers = sqlitebridge.interop.StringList()
    for migration in migrations { identifiers.push_back(std.string(migration.identifier)) }
    return identifiers
  }

  /// The core's steps: plan, then for each pending migration begin, run the
  /// Swift body, finish.
  private func run(_ db: Database, upTo: String?) throws {
    var pending = sqlitebridge.interop.StringList()
    guard
      sqlitebridge.interop.MigrationAccess.planMigrations(
        &db.core, registered(), upTo != nil, std.string(upTo ?? ""), &pending)
    else { throw db.lastError }
    for index in 0..<pending.size() {
      let cxxIdentifier = pending[index]
      let identifier = String(cxxIdentifier)
      // Identifiers are unique (the plan checked).
      guard let migration = migrations.first(where: { $0.identifier == identifier }) else { continue }
      var foreignKeysWereOn = false
      var alreadyApplied = false
      guard
        sqlitebridge.interop.MigrationAccess.beginMigration(
          &db.core, cxxIdentifier, &foreignKeysWereOn, &alreadyApplied)
      else { throw db.lastError }
      if alreadyApplied { continue }
      do {
        try migration.migrate(db)
      } catch let error as DatabaseError {
        _ = sqlitebridge.interop.MigrationAccess.finishMigration(
          &db.core, cxxIdentifier, false, error.cxx, foreignKeysWereOn)
        throw db.lastError
      } catch {
        var failure = sqlitebridge.Error()
        // For the core's record; the caller gets `error` itself.
        failure.code = ResultCode.error.rawValue
        failure.extendedCode = ResultCode.error.rawValue
        failure.message = std.string(String(describing: error))
        _ = sqlitebridge.interop.MigrationAccess.finishMigration(
          &db.core, cxxIdentifier, false, failure, foreignKeysWereOn)
        throw error
      }
      guard
        sqlitebridge.interop.MigrationAccess.finishMigration(
          &db.core, cxxIdentifier, true, sqlitebridge.Error(), foreignKeysWereOn)
      else { throw db.lastError }
    }
  }
}

extension DatabaseError {
  /// The same error as the core's type.
  var cxx: sqlitebridge.Error {
    var error = sqlitebridge.Error()
    error.code = code
    error.extendedCode = extendedCode
    error.message = std.string(message)
    error.sql = std.string(sql ?? "")
    return error
  }
}
