import Foundation
import SQLiteBridge

/// `backup SRC DEST`: copies the database SRC into DEST with SQLite's online
/// backup API (`Database.backup`), `pagesPerStep` pages at a time, so other
/// connections may use SRC between steps.
///
/// DEST is created when missing and replaced when it exists (as sqlite3's
/// `.backup` does); a failed copy leaves it as it was. SRC is never created
/// (a missing SRC is SQLite error 14). With `--key-file` both sides are
/// opened with the key: an encrypted SRC is copied into DEST encrypted with
/// the same key (an existing DEST must already be encrypted with it). SRC
/// and DEST naming the same file (the same path, or a link to it) is a
/// usage error. On a terminal, stderr shows a progress bar.
///
/// A DEST that Litestream replicates: the copy is an ordinary write through
/// SQLite, so Litestream ships it like any other commit (a restore gives the
/// copy), and it replaces DEST's tables, Litestream's `_litestream_seq` and
/// `_litestream_lock` included (they are gone until Litestream makes them
/// again). Tests/CLI/test_cli.py's LitestreamTests check both.
enum BackupCommand {
  static let pagesPerStep = 256

  static func run(_ arguments: inout Arguments, _ opener: DatabaseOpener) throws {
    let sourcePath = try arguments.positional("SRC")
    let destinationPath = try arguments.positional("DEST")
    try arguments.finish()
    if sourcePath == destinationPath || FileIdentity(sourcePath).map({ $0 == FileIdentity(destinationPath) }) == true {
      throw UsageError("SRC and DEST are the same file (\(sourcePath)); a backup needs another file")
    }
    let source = try opener.open(sourcePath, mode: .readWrite)
    let destination = try opener.open(destinationPath, mode: .readWriteCreate)
    let bar = isatty(STDERR_FILENO) != 0 ? ProgressBar(unit: "pages") : nil
    var pages = 0
    var drawn = false
    do {
      try source.backup(to: destination, pagesPerStep: pagesPerStep) { remaining, total in
        pages = total
        bar?.show(done: total - remaining, of: total)
        drawn = true
      }
    } catch {
      // The error starts on a line of its own.
      if drawn { bar?.finish() }
      throw error
    }
    bar?.finish()
    print("copied \(sourcePath) to \(destinationPath): \(pages) page\(pages == 1 ? "" : "s")")
  }
}
