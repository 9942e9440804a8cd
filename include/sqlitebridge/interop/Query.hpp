// For the Swift facade only; no stability promise. Query requests as Swift
// builds and runs them: expressions made from typed kinds (C++ operators
// and default arguments do not import), lists Swift can fill, and the
// request rendered by the core's compiler straight into a lent statement
// with its arguments bound (no SQL text assembled in Swift). Never included
// by <sqlitebridge/sqlitebridge.hpp>; Swift imports it with the explicit
// submodule SQLiteBridgeCore.Interop. Definitions:
// Sources/SQLiteBridgeCore/Query/QueryInterop.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../Export.hpp"
#include "../Query.hpp"
#include "../sqlitebridge.hpp"

namespace sqlitebridge::interop {

/// Expressions in order (orderings, a selection, an IN list), named so that
/// Swift can make one.
using ExpressionList = std::vector<Expression>;
/// The SET terms of an update, named so that Swift can make one.
using AssignmentList = std::vector<ColumnAssignment>;
/// Where a request's included scopes are in its rows.
using ScopeSpanList = std::vector<ScopeSpan>;

/// The binary operators of the query interface (SQL's meaning; `==`/`!=`
/// with NULL render IS NULL / IS NOT NULL).
enum class QueryOperator {
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  And,
  Or,
  Add,
  Subtract,
  Multiply,
  Divide,
  Like
};

/// SQLite's functions the query interface builds.
enum class QueryFunction { Count, CountDistinct, Sum, Total, Min, Max, Average, Length, Abs };

/// How an ordering sorts.
enum class QueryOrdering { Asc, Desc, AscNullsLast, DescNullsFirst };

/// Which statement of a request to render: the SELECT, its first row, its
/// count, a DELETE or an UPDATE of the rows it selects.
enum class RequestStatement { Select, SelectOne, Count, Delete, Update };

/// Building expressions and running requests for Swift. Builders never
/// fail (they only allocate); the calls on a database report by return
/// value, the reason in the database's `lastError()`.
struct SQLITEBRIDGE_API QueryBuilding {
  /// A column of the request's table, named by `size` bytes of UTF-8.
  static Expression column(const void* utf8, std::size_t size) noexcept;
  /// A column of `table` (qualified as written).
  static Expression qualifiedColumn(const std::string& table, const std::string& name) noexcept;
  /// `*` (every column of the request's table), for a selection.
  static Expression allColumns() noexcept;
  /// NULL (renders as the keyword).
  static Expression null() noexcept;
  /// A term the core cannot render (a Swift type conforming to a query
  /// protocol the face does not know): rendering a request that holds it
  /// fails with SQLITE_MISUSE and `why`.
  static Expression unsupported(const std::string& why) noexcept;
  /// A bound integer.
  static Expression integer(std::int64_t value) noexcept;
  /// A bound real.
  static Expression real(double value) noexcept;
  /// Bound text: `size` bytes of UTF-8 (copied).
  static Expression text(const void* utf8, std::size_t size) noexcept;
  /// A bound blob: `size` bytes (copied).
  static Expression blob(const void* bytes, std::size_t size) noexcept;
  /// `a op b`.
  static Expression binary(QueryOperator op, const Expression& a, const Expression& b) noexcept;
  /// `NOT a`.
  static Expression logicalNot(const Expression& a) noexcept;
  /// `-a`.
  static Expression negated(const Expression& a) noexcept;
  /// `function(a)`.
  static Expression function(QueryFunction function, const Expression& a) noexcept;
  /// `COUNT(*)`.
  static Expression countAll() noexcept;
  /// `a` sorted as `ordering`, for `QueryRequest::order`.
  static Expression ordering(QueryOrdering ordering, const Expression& a) noexcept;
  /// `a AS "name"`, for a selection.
  static Expression aliased(const Expression& a, const std::string& name) noexcept;
  /// `a IN (e1, e2, …)`: the list's expressions, values bound; an empty list
  /// matches nothing.
  static Expression isIn(const Expression& a, const ExpressionList& list) noexcept;
  /// Appends `e` to `list`; false only when memory runs out.
  static bool append(ExpressionList& list, const Expression& e) noexcept;
  /// Appends `SET "column" = value` to `list`; false only when memory runs out.
  static bool appendAssignment(AssignmentList& list, const std::string& column, const Expression& value) noexcept;
  /// `value` as one of `QueryRequest::filterKeys`'s keys: appends it to
  /// `keys` as the value `e` binds. False when `e` is not a plain value (a
  /// key is a value) or memory runs out.
  static bool appendKey(std::vector<Value>& keys, const Expression& e) noexcept;
  /// `request.filterKeys(keys)`.
  static QueryRequest filterKeys(const QueryRequest& request, const std::vector<Value>& keys) noexcept;
  /// `request.limit(limit, offset)` with an offset only when `hasOffset`.
  static QueryRequest limit(const QueryRequest& request, std::int64_t limit, bool hasOffset,
                            std::int64_t offset) noexcept;
  /// `request.matching(pattern)` with a pattern only when `hasPattern`.
  static QueryRequest matching(const QueryRequest& request, bool hasPattern, const std::string& pattern) noexcept;

  /// An association of `kind` to `table`, on the schema's foreign key, or
  /// on `origin` (the child's columns) and `destination` (the parent's;
  /// empty: its primary key) when `hasColumns`.
  static Association association(AssociationKind kind, const std::string& table, bool hasColumns,
                                 const std::vector<std::string>& origin,
                                 const std::vector<std::string>& destination) noexcept;
  /// `QueryRequest::scopes` into `out`; false as it fails.
  static bool scopes(Database& db, const QueryRequest& request, ScopeSpanList& out) noexcept;
  /// Renders the prefetch query of the `index`th `IncludingAll` association,
  /// for the rows `statement` (Select or SelectOne) of the request returns,
  /// and lends it, bound, into `out`; sets `keyColumns` to the origin's
  /// columns its trailing key columns match. False as it fails.
  static bool lendPrefetch(Database& db, const QueryRequest& request, RequestStatement statement, std::size_t index,
                           Statement& out, std::vector<std::string>& keyColumns) noexcept;
  /// Whether `keyColumn` (from `lendPrefetch`) names a column the core adds
  /// after all the others of the request's rows because the selection
  /// lacks it (to be read, not shown). Never fails.
  static bool isAddedKeyColumn(const std::string& keyColumn) noexcept;

  /// Renders `statement` of `request` (with `assignments` for an Update)
  /// and lends the cached statement for its text into `out` with every
  /// argument bound, ready to step. False as rendering or preparing fails.
  /// A select or count of a request that prefetches (or whose render reads
  /// a primary key) runs in one read transaction with its render and with
  /// the prefetches lent while `out` is; it ends when `out` is released.
  static bool lend(Database& db, const QueryRequest& request, RequestStatement statement,
                   const AssignmentList& assignments, Statement& out) noexcept;
  /// Renders `statement` of `request` into `out` (what `lend` would run).
  static bool render(Database& db, const QueryRequest& request, RequestStatement statement,
                     const AssignmentList& assignments, SQL& out) noexcept;
  /// The text of `sql` (a copy; empty only when memory runs out).
  static std::string text(const SQL& sql) noexcept;
  /// Lends the cached statement for `sql`'s text into `out`, its arguments
  /// bound; false as preparing or binding fails.
  static bool lendBound(Database& db, const SQL& sql, Statement& out) noexcept;
  /// Number of arguments of `sql`.
  static std::size_t argumentCount(const SQL& sql) noexcept { return sql.arguments().size(); }
  /// Argument `index` of `sql`, read in place (valid while `sql` is).
  static ColumnView argument(const SQL& sql, std::size_t index) noexcept { return sql.arguments()[index].view(); }
};

}  // namespace sqlitebridge::interop
