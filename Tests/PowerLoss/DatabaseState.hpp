// What the checks read back from a database after a cut or a fault, with
// the default VFS.
#pragma once

#include <sqlitebridge/sqlitebridge.hpp>

#include <string>

namespace powerloss {

/// Empty when `PRAGMA integrity_check` says ok; else its first line (and how
/// many more there are), or why it could not run.
std::string integrityProblem(sqlitebridge::Database& db);
/// The whole state of `db`'s main schema as text: every schema object
/// (type, name, SQL) and every row of every table, in a fixed order, so two
/// databases in the same state give the same text.
std::string stateOf(sqlitebridge::Database& db);
/// Empty when `db` (opened with the default VFS) is open and passes
/// integrity_check, else what is wrong.
std::string notIntact(sqlitebridge::Database& db);
/// Reads the transaction numbers of table `commits` (column `txn`) into
/// `count`: empty when they are exactly 1..count, else which one is missing.
std::string committedPrefix(sqlitebridge::Database& db, std::int64_t& count);
/// Judges `present` commits against the `acknowledged` ones: more than one
/// past them is a problem (returned); sets `lost` to those missing.
std::string judgeCommits(std::int64_t present, std::int64_t acknowledged, std::int64_t& lost);
/// The one integer `sql` returns; `ok` false when it returned none.
std::int64_t scalar(sqlitebridge::Database& db, const std::string& sql, bool& ok);

}  // namespace powerloss
