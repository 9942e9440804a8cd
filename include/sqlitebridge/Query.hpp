#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "Export.hpp"
#include "SQL.hpp"
#include "Value.hpp"

namespace sqlitebridge {

class Database;
struct ExpressionNode;
struct QueryState;
struct AssociationState;
struct QueryAccess;

/// A piece of a query request: a column, a value, or operators and functions
/// over them, built without touching a database.
///
///     QueryRequest notes = QueryRequest::table("notes")
///                              .filter(column("pinned") == 1 && column("title").like(value("%SQL%")))
///                              .order({column("date").desc()})
///                              .limit(20);
///     std::vector<Row> rows;
///     if (!db.fetch(notes, &rows)) std::cerr << db.lastError().message;
///
/// An `Expression` is an immutable value: copies share their (const) nodes,
/// and every operator makes a new one. The SQL it becomes is decided by the
/// core when a request is rendered (`QueryRequest::makeSQL`): every value is
/// bound to a `?` (never spliced into the text), every name quoted as an
/// identifier, and parentheses written where SQLite's precedence needs them
/// to keep the tree's meaning.
///
/// NULL: `e == value(Value())` renders `e IS NULL` and `e != value(Value())`
/// renders `e IS NOT NULL` (GRDB's meaning of `== nil`), whichever side the
/// NULL is on; any other NULL operand renders as the keyword `NULL`.
///
/// Building never fails: an expression that cannot stand where it is used
/// (an ordering, `asc()`/`desc()`, outside `QueryRequest::order`; an alias
/// or `allColumns()` outside `QueryRequest::select`) makes the request's
/// rendering fail with SQLITE_MISUSE saying so. Building allocates; running
/// out of memory while building terminates the process, as it would in
/// Swift (these functions are `noexcept`, like the rest of the C++ API).
class SQLITEBRIDGE_API Expression {
 public:
  /// The NULL value (`value(Value())`).
  Expression() noexcept;

  /// `self IS NULL`.
  Expression isNull() const noexcept;
  /// `self IS NOT NULL`.
  Expression isNotNull() const noexcept;
  /// `self LIKE pattern` (SQLite's LIKE: ASCII case-insensitive, `%` and `_`
  /// wildcards, no escape character).
  Expression like(Expression pattern) const noexcept;
  /// `self IN (?, ?, …)`, each value bound; an empty list renders `IN ()`,
  /// which matches no row.
  Expression in(std::vector<Value> values) const noexcept;
  /// `self ASC`: an ordering, valid only in `QueryRequest::order`.
  Expression asc() const noexcept;
  /// `self DESC`: an ordering, valid only in `QueryRequest::order`.
  Expression desc() const noexcept;
  /// `self ASC NULLS LAST`: an ordering (NULLs after every value).
  Expression ascNullsLast() const noexcept;
  /// `self DESC NULLS FIRST`: an ordering (NULLs before every value).
  Expression descNullsFirst() const noexcept;
  /// `self AS "name"`: a result column named `name`, valid only in
  /// `QueryRequest::select` (elsewhere rendering fails with SQLITE_MISUSE).
  Expression aliased(std::string name) const noexcept;

 private:
  friend struct QueryAccess;
  explicit Expression(std::shared_ptr<const ExpressionNode> node) noexcept;
  std::shared_ptr<const ExpressionNode> node_;
};

/// The column `name` of the request's own table: the quoted name, qualified
/// by the table's quoted name once the request joins another table. Any
/// name is a name: it is quoted, never read as SQL. A name holding NUL makes rendering fail with
/// SQLITE_MISUSE naming it.
SQLITEBRIDGE_API Expression column(std::string name) noexcept;
/// The column `name` of `table` (both quoted, the name qualified by the
/// table), for filtering, ordering or selecting on a joined table. Fails as `column(name)`.
SQLITEBRIDGE_API Expression column(std::string table, std::string name) noexcept;
/// Every column of the request's table (`*`, qualified by the table's
/// quoted name in a joined request): valid only in `QueryRequest::select`.
SQLITEBRIDGE_API Expression allColumns() noexcept;
/// A value, bound to a `?` when rendered (NULL renders as the keyword NULL,
/// and as IS NULL / IS NOT NULL beside `==` / `!=`).
SQLITEBRIDGE_API Expression value(Value v) noexcept;

// Comparisons: `=`, `<>`, `<`, `<=`, `>`, `>=` (SQLite's comparison rules
// and affinities apply). `==` and `!=` with a NULL value render IS NULL /
// IS NOT NULL.
/// `a = b`; with a NULL value side, `a IS NULL`.
SQLITEBRIDGE_API Expression operator==(const Expression& a, const Expression& b) noexcept;
/// `a <> b`; with a NULL value side, `a IS NOT NULL`.
SQLITEBRIDGE_API Expression operator!=(const Expression& a, const Expression& b) noexcept;
/// `a < b`.
SQLITEBRIDGE_API Expression operator<(const Expression& a, const Expression& b) noexcept;
/// `a <= b`.
SQLITEBRIDGE_API Expression operator<=(const Expression& a, const Expression& b) noexcept;
/// `a > b`.
SQLITEBRIDGE_API Expression operator>(const Expression& a, const Expression& b) noexcept;
/// `a >= b`.
SQLITEBRIDGE_API Expression operator>=(const Expression& a, const Expression& b) noexcept;
// Logical AND / OR (SQL's three-valued logic; both sides always rendered:
// these overloads do not short-circuit).
/// `a AND b` (both sides always built: no short-circuit).
SQLITEBRIDGE_API Expression operator&&(const Expression& a, const Expression& b) noexcept;
/// `a OR b` (both sides always built: no short-circuit).
SQLITEBRIDGE_API Expression operator||(const Expression& a, const Expression& b) noexcept;
/// Logical NOT.
SQLITEBRIDGE_API Expression operator!(const Expression& a) noexcept;
// Arithmetic: `+`, `-`, `*`, `/` (SQLite's: integer division of integers,
// NULL when a side is NULL or on division by zero).
/// `a + b`.
SQLITEBRIDGE_API Expression operator+(const Expression& a, const Expression& b) noexcept;
/// `a - b`.
SQLITEBRIDGE_API Expression operator-(const Expression& a, const Expression& b) noexcept;
/// `a * b`.
SQLITEBRIDGE_API Expression operator*(const Expression& a, const Expression& b) noexcept;
/// `a / b` (SQLite: integer division of integers, NULL on division by zero).
SQLITEBRIDGE_API Expression operator/(const Expression& a, const Expression& b) noexcept;
/// Negation (`-e`).
SQLITEBRIDGE_API Expression operator-(const Expression& a) noexcept;

// The operators above with a `Value` on one side (`column("id") > 3`,
// `column("title") == "SQL"`): the value is bound, as `value(v)` would be.
/// `a = b`; with a NULL value side, `a IS NULL`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator==(const Expression& a, const Value& b) noexcept;
/// `a <> b`; with a NULL value side, `a IS NOT NULL`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator!=(const Expression& a, const Value& b) noexcept;
/// `a < b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator<(const Expression& a, const Value& b) noexcept;
/// `a <= b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator<=(const Expression& a, const Value& b) noexcept;
/// `a > b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator>(const Expression& a, const Value& b) noexcept;
/// `a >= b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator>=(const Expression& a, const Value& b) noexcept;
/// `a AND b` (both sides always built: no short-circuit), `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator&&(const Expression& a, const Value& b) noexcept;
/// `a OR b` (both sides always built: no short-circuit), `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator||(const Expression& a, const Value& b) noexcept;
/// `a + b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator+(const Expression& a, const Value& b) noexcept;
/// `a - b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator-(const Expression& a, const Value& b) noexcept;
/// `a * b`, `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator*(const Expression& a, const Value& b) noexcept;
/// `a / b` (SQLite: integer division of integers, NULL on division by zero), `b` bound as `value(b)`.
SQLITEBRIDGE_API Expression operator/(const Expression& a, const Value& b) noexcept;
/// `a = b`; with a NULL value side, `a IS NULL`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator==(const Value& a, const Expression& b) noexcept;
/// `a <> b`; with a NULL value side, `a IS NOT NULL`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator!=(const Value& a, const Expression& b) noexcept;
/// `a < b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator<(const Value& a, const Expression& b) noexcept;
/// `a <= b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator<=(const Value& a, const Expression& b) noexcept;
/// `a > b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator>(const Value& a, const Expression& b) noexcept;
/// `a >= b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator>=(const Value& a, const Expression& b) noexcept;
/// `a AND b` (both sides always built: no short-circuit), `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator&&(const Value& a, const Expression& b) noexcept;
/// `a OR b` (both sides always built: no short-circuit), `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator||(const Value& a, const Expression& b) noexcept;
/// `a + b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator+(const Value& a, const Expression& b) noexcept;
/// `a - b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator-(const Value& a, const Expression& b) noexcept;
/// `a * b`, `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator*(const Value& a, const Expression& b) noexcept;
/// `a / b` (SQLite: integer division of integers, NULL on division by zero), `a` bound as `value(a)`.
SQLITEBRIDGE_API Expression operator/(const Value& a, const Expression& b) noexcept;

// SQLite's aggregate and scalar functions: `COUNT(e)`, `COUNT(DISTINCT e)`,
// `COUNT(*)`, `SUM(e)`, `TOTAL(e)`, `MIN(e)`, `MAX(e)`, `AVG(e)`,
// `LENGTH(e)`, `ABS(e)`. An aggregate where SQLite allows none (in a
// filter) fails when the request runs, with SQLite's error ("misuse of
// aggregate").
/// `COUNT(e)`: the number of rows where `e` is not NULL.
SQLITEBRIDGE_API Expression count(Expression e) noexcept;
/// `COUNT(DISTINCT e)`.
SQLITEBRIDGE_API Expression countDistinct(Expression e) noexcept;
/// `COUNT(*)`: the number of rows.
SQLITEBRIDGE_API Expression countAll() noexcept;
/// `SUM(e)`: NULL over no row, an integer sum overflowing fails when the request runs (SQLite's "integer overflow").
SQLITEBRIDGE_API Expression sum(Expression e) noexcept;
/// `TOTAL(e)`: a real sum, 0.0 over no row.
SQLITEBRIDGE_API Expression total(Expression e) noexcept;
/// `MIN(e)`.
SQLITEBRIDGE_API Expression min(Expression e) noexcept;
/// `MAX(e)`.
SQLITEBRIDGE_API Expression max(Expression e) noexcept;
/// `AVG(e)`.
SQLITEBRIDGE_API Expression average(Expression e) noexcept;
/// `LENGTH(e)`: characters of text, bytes of a blob.
SQLITEBRIDGE_API Expression length(Expression e) noexcept;
/// `ABS(e)`: fails when the request runs for the smallest integer (SQLite's "integer overflow").
SQLITEBRIDGE_API Expression abs(Expression e) noexcept;

/// How `QueryRequest::joining` joins a table: `Required` is an INNER JOIN
/// (rows without a match are left out), `Optional` a LEFT JOIN (they are
/// kept, the joined table's columns NULL).
enum class JoinKind { Required, Optional };

/// The columns that join two tables, for `QueryRequest::joining` when the
/// schema's foreign keys should not decide: `origin` in the request's own
/// table, `destination` in the joined table, matched pairwise (the joined
/// table's `destination[i]` equals the request table's `origin[i]`). An
/// empty `destination` means the joined table's primary key.
struct ForeignKeyColumns {
  /// Columns of the request's table.
  std::vector<std::string> origin;
  /// Columns of the joined table, in the same order; empty: its primary key.
  std::vector<std::string> destination;
};

/// One `SET "column" = value` term of `QueryRequest::makeUpdateSQL` and
/// `Database::updateAll`: `value` is any expression (a bound value, another
/// column, arithmetic over them).
struct ColumnAssignment {
  /// The column of the request's table to set.
  std::string column;
  /// What it becomes.
  Expression value;
};

/// `ColumnAssignment{column, value}`: `assign("score", column("score") + 1)`.
SQLITEBRIDGE_API ColumnAssignment assign(std::string column, Expression value) noexcept;

/// Which way an association goes, from the table it starts at (its
/// origin) to the table it reaches (its destination).
enum class AssociationKind {
  /// The origin holds the foreign key (a book belongs to its author): at
  /// most one destination row per origin row.
  BelongsTo,
  /// The destination holds the foreign key, at most one row per origin row
  /// (an author has one profile).
  HasOne,
  /// The destination holds the foreign key (an author has many books).
  HasMany,
};

/// How `QueryRequest::including` uses an association.
enum class IncludeKind {
  /// INNER JOIN, the destination's columns selected after the request's
  /// (a scope named by the association's key): rows without a match are
  /// left out.
  IncludingRequired,
  /// LEFT JOIN, the destination's columns selected (NULL without a match).
  IncludingOptional,
  /// A to-many association fetched by a second query for every origin row
  /// at once (`makePrefetchSQL`), not joined.
  IncludingAll,
  /// INNER JOIN, nothing selected: a filter on the destination.
  JoiningRequired,
  /// LEFT JOIN, nothing selected.
  JoiningOptional,
};

/// A relation between the rows of two tables, declared once and used by
/// requests (`including`), in filters and selections (`count()`,
/// `isEmpty()`). A value; building one never touches a database.
///
/// The foreign key comes from the schema (`PRAGMA foreign_key_list`): for
/// `belongsTo`, the origin's key to the destination; for `hasOne` and
/// `hasMany`, the destination's key to the origin. None, or several, is an
/// error naming both tables when a request using it renders; `using_`
/// gives the columns instead: `origin` the columns of the table that holds
/// the key (the child), `destination` the columns they reference in the
/// other table (empty: its primary key).
class SQLITEBRIDGE_API Association {
 public:
  /// An association to no table: rendering a request with it fails with
  /// SQLITE_MISUSE.
  Association() noexcept;

  /// The origin's foreign key to `destination` (a book's author).
  static Association belongsTo(std::string destination,
                               std::optional<ForeignKeyColumns> using_ = std::nullopt) noexcept;
  /// `destination`'s foreign key to the origin, one row (an author's profile).
  static Association hasOne(std::string destination, std::optional<ForeignKeyColumns> using_ = std::nullopt) noexcept;
  /// `destination`'s foreign key to the origin, many rows (an author's books).
  static Association hasMany(std::string destination, std::optional<ForeignKeyColumns> using_ = std::nullopt) noexcept;

  /// The name of the association's scope in a fetched row and of its
  /// prefetched rows (default: the destination table's name). Two
  /// associations of one request under the same key fail with
  /// SQLITE_MISUSE.
  Association forKey(std::string key) const noexcept;
  /// The name the destination takes in the SQL (`JOIN "t" AS "alias"`),
  /// for reaching its columns from the request with `column(alias, name)`.
  /// Without one, the destination is called by its table's name, or, when
  /// that name is taken (a self-join, a table joined twice), by the key.
  Association aliased(std::string alias) const noexcept;
  /// Keeps the destination rows where `predicate` holds (part of the JOIN's
  /// ON clause; of a prefetch's WHERE). Columns refer to the destination.
  Association filter(Expression predicate) const noexcept;
  /// Orders the destination's rows (after the request's own orderings;
  /// a prefetch's rows by these alone).
  Association order(std::vector<Expression> orderings) const noexcept;
  /// The destination's selected columns (default: all of them).
  Association select(std::vector<Expression> selection) const noexcept;
  /// Joins `nested`, an association of this one's destination, with it
  /// (`kind`: IncludingRequired, IncludingOptional, JoiningRequired or
  /// JoiningOptional): `Association::belongsTo("authors").including(
  /// Association::belongsTo("countries"), IncludeKind::IncludingOptional)`.
  /// A selected nested association's columns follow its parent's; its
  /// `ScopeSpan::parent` names the parent's span. Rendering fails with
  /// SQLITE_MISUSE for IncludingAll (a prefetch of a joined association is
  /// not supported) and for an association included under a prefetched one.
  Association including(const Association& nested, IncludeKind kind) const noexcept;

  /// `(SELECT COUNT(*) FROM destination WHERE <key matches> AND <filters>)`
  /// for the row of the request's table: usable in `annotated`, `filter`
  /// and `having` (a request with no grouping is then grouped by its
  /// primary key).
  Expression count() const noexcept;
  /// `NOT EXISTS (SELECT 1 FROM destination WHERE …)`.
  Expression isEmpty() const noexcept;

  /// The key (`forKey`, else the destination's name).
  std::string key() const noexcept;
  /// The destination table.
  std::string destination() const noexcept;
  /// Which way it goes.
  AssociationKind kind() const noexcept;

 private:
  friend struct QueryAccess;
  explicit Association(std::shared_ptr<const AssociationState> state) noexcept;
  std::shared_ptr<const AssociationState> state_;
};

/// Where an included association's columns are in a fetched row: the
/// columns `start` to `start + count - 1` (0-based) hold the scope `key`.
struct ScopeSpan {
  /// The association's key.
  std::string key;
  /// The first column of the scope.
  int start = 0;
  /// Its number of columns.
  int count = 0;
  /// The span of the selected association this one was included with
  /// (`Association::including`), an index into the same list; -1 for an
  /// association of the request itself (or of one only joined).
  int parent = -1;
};

/// A SELECT over one table, built from typed pieces: each call returns a new
/// request and leaves this one as it was (requests are values; copies share
/// their immutable state). Building never touches a database.
///
/// `makeSQL` renders it (the core's one renderer, which the Swift face uses
/// too); `Database::fetch`, `fetchCount`, `deleteAll` and `fetchAll<T>` run
/// it. Rendering reads the schema only for what the schema decides (the
/// foreign key of a join without explicit columns, the primary key of a
/// join's implicit reference or of a `deleteAll` that needs a subquery), and
/// fails by return value, the reason in the database's `lastError()`:
/// - SQLITE_MISUSE: a request without a table; a name holding NUL; an
///   empty `updateAll`; `filterKey` on a table whose key has several columns; an
///   ordering, alias or `allColumns()` out of place; a table joined twice or
///   to itself; explicit join columns that do not pair up.
/// - SQLITE_ERROR "no such table: T" (from the schema) when a table whose
///   foreign keys or primary key are needed does not exist; a table that
///   rendering does not look up is reported by SQLite when the request runs.
/// - SQLITE_ERROR naming both tables when no foreign key, or more than one,
///   joins the request's table and the joined one.
class SQLITEBRIDGE_API QueryRequest {
 public:
  /// A request of no table: rendering it fails with SQLITE_MISUSE.
  QueryRequest() noexcept;

  /// Every row of `name` (`SELECT * FROM "name"`).
  static QueryRequest table(std::string name) noexcept;
  /// Keeps the rows where `predicate` holds; successive filters are joined
  /// with AND.
  QueryRequest filter(Expression predicate) const noexcept;
  /// Sorts by `orderings` (expressions, or their `asc()` / `desc()`),
  /// replacing any earlier order; an empty list removes it.
  QueryRequest order(std::vector<Expression> orderings) const noexcept;
  /// At most `limit` rows (a negative limit: no limit), after skipping
  /// `offset` rows; both are bound. Replaces an earlier limit.
  QueryRequest limit(std::int64_t limit, std::optional<std::int64_t> offset = std::nullopt) const noexcept;
  /// The result columns (expressions, `aliased` ones, `allColumns()`),
  /// replacing the earlier selection; an empty list means every column of
  /// the request's table.
  QueryRequest select(std::vector<Expression> selection) const noexcept;
  /// SELECT DISTINCT.
  QueryRequest distinct() const noexcept;
  /// GROUP BY `expressions`, replacing an earlier grouping.
  QueryRequest group(std::vector<Expression> expressions) const noexcept;
  /// HAVING `predicate`; successive calls are joined with AND.
  QueryRequest having(Expression predicate) const noexcept;
  /// Joins `table` (INNER for `Required`, LEFT for `Optional`) on the
  /// columns `using_` gives, or else on the one foreign key between the
  /// request's table and `table` (either way round) that the schema
  /// declares. The joined table's columns are not selected; reach them with
  /// `column(table, name)`. Once a request joins, its own columns are
  /// qualified with its table's name.
  QueryRequest joining(const std::string& table, JoinKind kind,
                       std::optional<ForeignKeyColumns> using_ = std::nullopt) const noexcept;
  /// Keeps the row whose primary key is `key` (`"id" = ?`, the key column
  /// read from the schema when the request renders; `rowid` for a table
  /// without a declared key). A NULL key matches no row. Rendering fails
  /// with SQLITE_MISUSE naming the table and its columns when the primary
  /// key has several columns (filter on them instead).
  QueryRequest filterKey(Value key) const noexcept;
  /// Keeps the rows whose primary key is one of `keys` (`"id" IN (?, …)`;
  /// an empty list matches no row). Fails as `filterKey`.
  QueryRequest filterKeys(std::vector<Value> keys) const noexcept;
  /// The same rows in the opposite order: each ordering flipped (ASC and
  /// DESC, NULLS FIRST and NULLS LAST); a request without an order is
  /// ordered by its primary key (rowid without a declared one), descending.
  /// Reversing twice restores the request.
  QueryRequest reversed() const noexcept;
  /// Adds `selection` after the request's own columns (after every column
  /// of its table when it selects none): `annotated({count(...)
  /// .aliased("n")})`. `select` replaces annotations too.
  QueryRequest annotated(std::vector<Expression> selection) const noexcept;
  /// Keeps the rows of the request's FTS5 table that match `pattern`
  /// (`"table" MATCH ?`, bound); no pattern matches no row. SQLite reports
  /// a table that is not a full-text table, or a malformed pattern, when
  /// the request runs.
  QueryRequest matching(std::optional<std::string> pattern) const noexcept;
  /// Uses `association` (from this request's table) as `kind` says: joined
  /// and selected as a scope, joined only, or prefetched. Rendering fails
  /// with SQLITE_MISUSE for two associations under one key or one alias,
  /// `IncludingAll` of an association that is not `hasMany`, and as the
  /// class comment says for its foreign key.
  QueryRequest including(const Association& association, IncludeKind kind) const noexcept;
  /// A request of the rows `association` reaches from the rows of this
  /// request (`… WHERE ("fk") IN (SELECT "key" FROM <this request>)`):
  /// an author's books, a book's author.
  QueryRequest associated(const Association& association) const noexcept;

  /// Replaces `out` with the SELECT this request is, its arguments bound in
  /// order. Fails (false, `db.lastError()` saying why, `out` unspecified) as
  /// the class comment says; SQLITE_MISUSE when `db` is closed.
  bool makeSQL(Database& db, SQL& out) const noexcept;
  /// The statement `Database::fetchCount` runs: `SELECT COUNT(*) FROM …`
  /// (over the request as a subquery when it is distinct, grouped, limited
  /// or selects its own columns). Fails as `makeSQL`.
  bool makeCountSQL(Database& db, SQL& out) const noexcept;
  /// The statement `Database::deleteAll` runs: `DELETE FROM "t" WHERE …`,
  /// or, for a request that joins, groups or limits, a DELETE of the rows
  /// whose primary key the request selects. Order, selection and DISTINCT
  /// change nothing. Fails as `makeSQL`.
  bool makeDeleteSQL(Database& db, SQL& out) const noexcept;
  /// The statement `Database::updateAll` runs: `UPDATE "t" SET "a" = ?, …
  /// WHERE …`, or, for a request that joins, groups or limits, an UPDATE of
  /// the rows whose primary key the request selects. Fails as `makeSQL`,
  /// and with SQLITE_MISUSE when `assignments` is empty.
  bool makeUpdateSQL(Database& db, const std::vector<ColumnAssignment>& assignments, SQL& out) const noexcept;
  /// Where each `IncludingRequired`/`IncludingOptional` association's
  /// columns are in the rows `makeSQL`'s statement returns (the request's
  /// own columns and annotations first), in include order. Reads the
  /// schema for the number of columns of each `*`. Fails as `makeSQL`.
  bool scopes(Database& db, std::vector<ScopeSpan>& out) const noexcept;
  /// The second query of the `IncludingAll` association `index` (0-based
  /// among them): the destination's rows for every row the request
  /// returns, at once (`… WHERE ("fk") IN (SELECT "key" FROM <this
  /// request>)`), followed by the foreign key's columns again (as
  /// `"sqlitebridge_key_0"`, …) so that rows can be matched to their
  /// origin row's `keyColumns` (set into `keyColumns`: the names the
  /// origin's key columns have in the rows of `makeSQL`'s statement, their
  /// own when the request selects them, else `"sqlitebridge_origin_0"`, …:
  /// columns `makeSQL` then adds after all the others for the purpose).
  /// Fails as `makeSQL`, and with SQLITE_RANGE for no such
  /// association. Run it and the request in one transaction for rows of one
  /// snapshot (the Swift face's fetches do).
  bool makePrefetchSQL(Database& db, std::size_t index, SQL& out, std::vector<std::string>& keyColumns) const noexcept;
  /// `makePrefetchSQL` for the first row only (the row `fetchOne` returns:
  /// the origin subquery is limited as fetchOne's statement is).
  bool makeFirstRowPrefetchSQL(Database& db, std::size_t index, SQL& out,
                               std::vector<std::string>& keyColumns) const noexcept;

  /// The request's table (empty for a default-made request).
  std::string tableName() const noexcept;

 private:
  friend struct QueryAccess;
  explicit QueryRequest(std::shared_ptr<const QueryState> state) noexcept;
  std::shared_ptr<const QueryState> state_;
};

}  // namespace sqlitebridge
