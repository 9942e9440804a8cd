#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "TableHelpers.hpp"

namespace sqlitebridge {

class Statement;

/// What a record statement does (see `RecordPlan`).
enum class RecordOperation {
  /// `INSERT OR <onConflict> INTO "t" ("c", ...) VALUES (?, ...)`: every
  /// column of the record, in its order (`DEFAULT VALUES` for none).
  Insert,
  /// `UPDATE "t" SET "c" = ?, ... WHERE "k" = ? AND ...`: the record's
  /// columns that are not in the primary key, then the key. A record made
  /// of its key only sets the key to itself, so that a missing row is still
  /// told apart. No row changed is SQLITE_NOTFOUND, naming table and key.
  Update,
  /// `Update`, then, when no row has the record's key (a NULL key never
  /// matches one), `Insert`.
  Save,
  /// `DELETE FROM "t" WHERE "k" = ? AND ...`: the key columns only.
  Delete,
  /// `SELECT * FROM "t" WHERE "k" = ? AND ...`: the key values bind in key
  /// order (a plan made without record columns).
  SelectByKey,
  /// `SELECT * FROM "t"`.
  SelectAll,
};

/// The statement (or, for `Save`, the two statements) of one record
/// operation on one table, for records with one list of columns, written
/// by the core: identifiers quoted (any name is just a name), values bound.
/// Made once per shape of record and reused for every record of that
/// shape: the Swift facade caches it per record type.
struct RecordPlan {
  /// Which operation the plan runs.
  RecordOperation operation = RecordOperation::Insert;
  /// The table, as the record type names it (unquoted).
  std::string table;
  /// The primary key columns, in key order (as the record type names them).
  std::vector<std::string> primaryKey;
  /// The statement to run (for `Save`, the UPDATE).
  std::string sql;
  /// For each parameter of `sql` (1, 2, ...), the index of the record column
  /// whose value binds to it. For `SelectByKey`: the index into the key.
  std::vector<int> bindOrder;
  /// For each primary key column, the index of the record column holding it
  /// (empty for `Insert`, `SelectByKey` and `SelectAll`).
  std::vector<int> keyColumns;
  /// `Save` only: the INSERT run when the UPDATE changed no row, and its
  /// bind order.
  std::string insertSQL;
  /// `Save` only: `bindOrder` for `insertSQL`.
  std::vector<int> insertBindOrder;
};

/// Binds a record's values into `statement`: the value of record column
/// `columns[i]` to parameter `i + 1`, for `i` below `count`. Returns false
/// when a bind fails (the statement recorded why). `context` is the
/// caller's record.
using RecordBinder = bool (*)(void* context, Statement* statement, const int* columns, std::size_t count);

/// How C++ reads and writes a `T` as a row of a table. Specialize it for
/// your type (see `Database::fetch`, `insert`, `update`, `save`, `remove`):
///
/// ```cpp
/// template <> struct sqlitebridge::RecordTraits<Note> {
///   static constexpr const char* table = "notes";
///   static std::vector<std::string> primaryKey() { return {"id"}; }
///   static bool read(const RowView& row, Note& out) {
///     return row.get("id", out.id) && row.get("title", out.title);
///   }
///   static void write(const Note& in, NamedValues& out) {
///     out.add("id", in.id);
///     out.add("title", in.title);
///   }
/// };
/// ```
///
/// `read` returns false when a `RowView::get` fails (the error is already
/// recorded). `write` adds every column to store, in the order the INSERT
/// lists them, with the key columns among them.
///
/// JSON columns: a C++ record reads and writes a column holding JSON as
/// its text, a `std::string` (`row.get("tags", out.tagsJSON)`,
/// `out.add("tags", in.tagsJSON)`); the core neither parses nor checks it.
/// The Swift facade stores a `Codable` record's nested values (a struct,
/// an array, a dictionary) as JSON text in the same kind of column, so a
/// table is shared by both languages, and SQLite's JSON functions work on
/// those columns from either (`SELECT json_extract(tags, '$[0]') FROM
/// players`, or `tags ->> '$[0]'` from SQLite 3.38; `json_valid(tags)`
/// tells whether the text is JSON). A value that is not text fails
/// `row.get` into a `std::string` with SQLITE_MISMATCH naming the column,
/// as any conversion does; read a column that may be NULL into a
/// `std::optional<std::string>`.
template <typename T>
struct RecordTraits;

/// True when `RecordTraits<T>` is specialized (it has `table`): the record
/// templates of `Database` take part in overload resolution only then, so
/// `insert("notes", {...})` and the other table helpers keep their meaning.
template <typename T, typename = void>
struct IsRecord : std::false_type {};
template <typename T>
struct IsRecord<T, std::void_t<decltype(RecordTraits<T>::table)>> : std::true_type {};

}  // namespace sqlitebridge
