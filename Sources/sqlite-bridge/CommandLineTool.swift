import Foundation
import SQLiteBridge

/// Dispatches a command line to its command and turns failures into exit
/// statuses: 0 success, 1 a database error, 2 a usage error.
enum CommandLineTool {
  static let usage = """
    usage: sqlite-bridge <command> [options] [--key-file FILE] [--vfs NAME] [--extension PATH[:ENTRY]]...

    commands:
      demo [--dir DIR]
          Open the notes database by name (copied from the bundled seed on first
          use), insert, query, change the table with updateTable, print the rows.
          DIR defaults to a new temporary directory.
      query DB SQL [ARG...] [--format json|table|csv]
          Run one statement on the database file DB (created if missing) with
          ARGs bound to its parameters, and print the rows (JSON by default).
          An ARG that reads as an integer or a decimal number is bound as one;
          NULL binds NULL; anything else binds as text. Arguments after a
          lone -- are taken as they are (e.g. text starting with --).
          CSV is RFC 4180: a header row, CRLF line ends, fields holding , " CR
          or LF quoted with " doubled, NULL an empty field, empty text "",
          blobs as uppercase hex.
      watch DB SQL [ARG...] [--format json|table|csv] [--external-interval MS] [--count N]
          Print the rows of SQL on the existing file DB, then print them again
          each time they change, until interrupted (Ctrl-C: exit 0) or after N
          prints. Commits of other processes are looked for every MS
          milliseconds (100 by default); rows equal to the last ones printed
          are not printed again. JSON prints one array per line; a table is
          followed by an empty line; CSV prints its header each time. ARGs bind
          as for query. A statement that fails to prepare fails at once; one
          that fails later ends the watch with its error (exit 1).
      shell DB [--mode json|table|csv]
          An interactive prompt on DB (created if missing): SQL statements
          ending with ';' (one may span lines), and the dot commands .tables,
          .schema [TABLE], .mode json|table|csv, .help, .quit. Rows print as a
          table unless --mode or .mode says otherwise. A failing statement
          prints its error and the shell goes on. With stdin not a terminal it
          runs stdin as a script, without prompts, continuing past errors, and
          exits 1 if any statement or dot command failed.
      check DB
          Run SQLite's integrity check and foreign-key check: print "ok" (exit
          0), or each problem and their count (exit 1).
      backup SRC DEST
          Copy the database SRC into DEST (created, or replaced when it exists)
          with SQLite's online backup, showing a progress bar on stderr when it
          is a terminal. SRC and DEST must be different files. --key-file
          opens both with the key. A DEST that Litestream replicates gets
          the copy replicated, and loses Litestream's own tables.
      columns DB TABLE
          Print TABLE's column names, one per line.
      tables DB [--format json|table]
          Print the names of DB's tables (the main schema's, without SQLite's
          own sqlite_* tables), sorted; a JSON array by default.
      schema DB [TABLE] [--format json|table]
          Print the columns, primary key, indexes and foreign keys of TABLE, or
          of every table that `tables` lists (JSON by default). TABLE may be
          qualified (main.t, temp.t).
      update-table DB TABLE --create SQL [--insert SQL]
          Rebuild TABLE with a new schema (see Database.updateTable).
      generate swift|cxx DB [--table TABLE]... [--output FILE]
          Write a record type for each table of the existing file DB (or for
          each TABLE, which may also be a view or an internal table), to FILE
          or stdout: in Swift a Codable, FetchableRecord, PersistableRecord
          struct with Columns and the associations its foreign keys imply; in
          C++ a struct, its Columns and Associations, and its RecordTraits.
          Property types follow the declared type's affinity (DATE, DATETIME,
          TIMESTAMP: dates; BOOL, BOOLEAN: booleans; no type: any value),
          optional when the column may be NULL. Names become identifiers
          (words joined in camel case, keywords escaped); two names giving one
          identifier, or an unknown TABLE, fail (exit 1) naming them. See
          docs/generate.md.
      diff A B [--table T]... [--patchset] --output FILE
          Write the changeset (or patchset) that turns database A into B to
          FILE, made by SQLite's session extension: every table of B with a
          PRIMARY KEY, or each T. A keyless table, or one only A holds, is left
          out with a note on stderr; a table of B that A lacks, or whose columns
          or primary key differ, fails (exit 1). Neither file changes.
      apply DB FILE [--on-conflict abort|omit|replace]
          Apply the changeset or patchset in FILE to DB in one transaction,
          printing each conflict and the answer, then how many changes were
          applied. abort (the default) stops at the first conflict and exits 1
          with DB unchanged; omit skips conflicting changes; replace overwrites
          the conflicting row where SQLite can (a row changed or already there)
          and aborts on any other conflict. A table FILE changes that DB lacks
          fails (exit 1), DB unchanged.
      changeset show FILE [--format json|table]
          Print the changes in FILE: table, kind, indirect flag, primary key
          columns and old and new values (a value not recorded: {"absent":
          true} in JSON, - in a table, where key columns end in *).
      changeset invert FILE --output OUT
          Write the changeset that undoes FILE to OUT (a patchset cannot be
          inverted: exit 1).
      sync DB --hub HUB --tables T1,T2 --device NAME [--record-existing-rows] [--execute SQL]...
      sync DB --cluster HOST:PORT,... [--hub-database NAME] --tables T1,T2 --device NAME
          Run each SQL (one statement) in a write transaction of its own while
          the engine records, then one sync of DB, the device NAME's
          database: pull what other devices
          pushed to the hub, rewrite DB (its pending changes on top, the later
          change in the hub's order winning conflicts), push. The hub is a
          SQLite file HUB (made when missing) or, with --cluster, the cluster
          database NAME (sync-hub by default). Prints "pushed N, pulled N,
          rounds N, conflicts N" and each conflict. Each table needs a PRIMARY
          KEY; DB records as NAME from the first sync on (another name: exit
          1). A failed sync exits 1, DB as before, its changes kept. Changes
          to DB are recorded only while an engine is open on it (--execute, an
          app's SyncEngine): see docs/sync.md. --record-existing-rows first
          records every row the tables hold as one pending change (for the
          device whose data is the starting point, once).
      hub log HUB [--after N]
          Print the entries of the hub's log after position N (0: all) as a
          JSON array: position, device, sequence, changes, bytes and the
          changeset in hex. HUB is a file, or with --cluster the cluster
          database's name.
      node --address HOST:PORT --data DIR [--join HOST:PORT,...] [--id N]
          Run a dqlite node (a member of a replicated cluster) in the
          foreground until SIGTERM or SIGINT, when it hands leadership over (if
          it leads) and stops. Without --join it bootstraps a new cluster (or
          restarts the one in DIR); with it, it joins through those members as
          a voter. Prints "node ID ready at HOST:PORT" once it serves. Only a
          build with the Dqlite trait (swift build --traits Dqlite, needs
          libdqlite-dev) runs nodes; elsewhere it fails with SQLite error 21.
      cluster members|leader --cluster HOST:PORT,... [--format json|table]
          Print the cluster's members (id, address, role) or its leader.
      version
          Print the SQLite version, whether this build can encrypt
          ("encryption: available" or "encryption: unavailable") and whether
          it runs dqlite nodes ("dqlite node: available" or "... unavailable").

    --cluster HOST:PORT[,HOST:PORT...]  (query, watch, shell, cluster, sync, hub)
          Work on a dqlite cluster instead of a file: DB is the name of the
          cluster's database, reached through its leader (any member listed
          leads the client to it). watch then runs the statement again every
          --external-interval milliseconds (1000 by default) and prints the
          rows when they changed; the shell's .schema prints the CREATE
          statements.

    options of every command that opens a database:
      --key-file FILE
          Open (or create) the database encrypted with the key in FILE: its
          contents, less one trailing newline. Only the SQLCipher build can
          encrypt (swift build --traits SQLCipher); the default build refuses
          a key with SQLite error 21 and makes no file. A wrong key fails with
          SQLite error 26. The key is never taken on the command line. With a
          key, demo creates its database (the bundled seed is plain text).
      --vfs NAME
          Open the database through the SQLite VFS registered as NAME (such as
          unix-dotfile, or one an --extension registers). A NAME that is not
          registered fails with SQLite error 14 and makes no file.
      --extension PATH[:ENTRY]
          Load the SQLite extension PATH (SQLite also tries PATH with .so
          appended) into the connection before anything else runs, calling its
          init function ENTRY (by default SQLite's rule: sqlite3_extension_init,
          then sqlite3_NAME_init from the file name). ENTRY is the text after
          the last ':' when it is a C identifier. Repeatable: loaded in order. A
          missing file, a missing entry point or a failing init fails with
          SQLite error 1 naming PATH. SQL cannot load extensions
          (load_extension() stays disabled). Not taken with --cluster.

    Errors go to stderr with the SQLite result code. Exit status: 0 success,
    1 database error, 2 usage error (also a key file that cannot be read, is
    empty or is not UTF-8 text).
    """

  static func run(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
      printError(usage)
      return 2
    }
    var options = Arguments(Array(arguments.dropFirst()))
    do {
      let opener = try DatabaseOpener(&options)
      let cluster = try ClusterTarget(&options)
      if cluster != nil && !["query", "watch", "shell", "cluster", "sync", "hub"].contains(command) {
        throw UsageError("--cluster is taken by query, watch, shell, cluster, sync and hub, not by \(command)")
      }
      if opener.hasConnectionOptions && (cluster != nil || ["node", "cluster", "version"].contains(command)) {
        throw UsageError(
          "--vfs and --extension are taken by the commands that open a local database file, not by \(command)"
            + (cluster != nil ? " with --cluster" : ""))
      }
      switch command {
      case "demo": try DemoCommand.run(&options, opener)
      case "query": try QueryCommand.run(&options, opener, cluster)
      case "watch":
        if let cluster {
          try ClusterWatchCommand.run(&options, cluster)
        } else {
          try WatchCommand.run(&options, opener)
        }
      case "node": try NodeCommand.run(&options)
      case "cluster": try ClusterCommand.run(&options, cluster)
      case "columns": try ColumnsCommand.run(&options, opener)
      case "tables": try TablesCommand.run(&options, opener)
      case "schema": try SchemaCommand.run(&options, opener)
      case "update-table": try UpdateTableCommand.run(&options, opener)
      case "shell": try ShellCommand.run(&options, opener, cluster)
      case "check": try CheckCommand.run(&options, opener)
      case "backup": try BackupCommand.run(&options, opener)
      case "generate": try GenerateCommand.run(&options, opener)
      case "diff": try DiffCommand.run(&options, opener)
      case "apply": try ApplyCommand.run(&options, opener)
      case "changeset": try ChangesetCommand.run(&options)
      case "sync": try SyncCommand.run(&options, opener, cluster)
      case "hub": try HubCommand.run(&options, cluster)
      case "version": try VersionCommand.run(&options)
      case "help", "--help", "-h": print(usage)
      default: throw UsageError("unknown command '\(command)'")
      }
      return 0
    } catch let error as UsageError {
      printError("error: \(error.message)\n\n\(usage)")
      return 2
    } catch is ReportedFailure {
      return 1
    } catch let error as DatabaseError {
      printError("error: \(error)")
      return 1
    } catch {
      printError("error: \(error)")
      return 1
    }
  }

  static func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
