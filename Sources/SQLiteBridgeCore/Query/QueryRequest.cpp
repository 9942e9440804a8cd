// Query requests: the builders (each copies the request's state, sharing its
// expression nodes, and changes the copy) and the calls that render or run
// one on a database. What the SQL is belongs to QueryCompiler.cpp; the
// `Database` members here only render and then run it as any SQL literal.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "Connection.hpp"
#include "QueryCompiler.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

const std::shared_ptr<const QueryState>& emptyState() noexcept {
  static const std::shared_ptr<const QueryState> state = std::make_shared<QueryState>();
  return state;
}

// A new request: `change` applied to a copy of `state`.
template <typename Change>
QueryRequest changed(const QueryState& state, Change&& change) noexcept {
  auto next = std::make_shared<QueryState>(state);
  change(*next);
  return QueryAccess::make(std::move(next));
}

}  // namespace

QueryRequest::QueryRequest() noexcept : state_(emptyState()) {}

QueryRequest::QueryRequest(std::shared_ptr<const QueryState> state) noexcept : state_(std::move(state)) {}

QueryRequest QueryRequest::table(std::string name) noexcept {
  auto state = std::make_shared<QueryState>();
  state->table = std::move(name);
  state->hasTable = true;
  return QueryRequest(std::move(state));
}

QueryRequest QueryRequest::filter(Expression predicate) const noexcept {
  return changed(*state_, [&](QueryState& s) { s.filters.push_back(std::move(predicate)); });
}

QueryRequest QueryRequest::order(std::vector<Expression> orderings) const noexcept {
  return changed(*state_, [&](QueryState& s) { s.orderings = std::move(orderings); });
}

QueryRequest QueryRequest::limit(std::int64_t limit, std::optional<std::int64_t> offset) const noexcept {
  return changed(*state_, [&](QueryState& s) {
    s.limit = limit;
    s.offset = offset;
  });
}

QueryRequest QueryRequest::select(std::vector<Expression> selection) const noexcept {
  return changed(*state_, [&](QueryState& s) {
    s.selection = std::move(selection);
    s.annotations.clear();
  });
}

QueryRequest QueryRequest::distinct() const noexcept {
  return changed(*state_, [](QueryState& s) { s.distinct = true; });
}

QueryRequest QueryRequest::group(std::vector<Expression> expressions) const noexcept {
  return changed(*state_, [&](QueryState& s) { s.groups = std::move(expressions); });
}

QueryRequest QueryRequest::having(Expression predicate) const noexcept {
  return changed(*state_, [&](QueryState& s) { s.havings.push_back(std::move(predicate)); });
}

QueryRequest QueryRequest::joining(const std::string& table, JoinKind kind,
                                   std::optional<ForeignKeyColumns> using_) const noexcept {
  auto association = std::make_shared<AssociationState>();
  association->eitherWay = true;
  association->hasTable = true;
  association->table = table;
  association->foreignKey = std::move(using_);
  return changed(*state_, [&](QueryState& s) {
    s.includes.push_back(IncludeSpec{std::move(association), kind == JoinKind::Required
                                                                 ? IncludeKind::JoiningRequired
                                                                 : IncludeKind::JoiningOptional});
  });
}

QueryRequest QueryRequest::associated(const Association& association) const noexcept {
  const std::shared_ptr<const AssociationState>& a = QueryAccess::state(association);
  ExpressionNode node;
  node.kind = NodeKind::AssociatedTo;
  node.association = a;
  node.origin = state_;
  return table(a->table).filter(QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node))));
}

QueryRequest QueryRequest::including(const Association& association, IncludeKind kind) const noexcept {
  return changed(*state_,
                 [&](QueryState& s) { s.includes.push_back(IncludeSpec{QueryAccess::state(association), kind}); });
}

QueryRequest QueryRequest::filterKey(Value key) const noexcept {
  std::vector<Value> keys;
  keys.push_back(std::move(key));
  return filterKeys(std::move(keys));
}

QueryRequest QueryRequest::filterKeys(std::vector<Value> keys) const noexcept {
  ExpressionNode node;
  node.kind = NodeKind::KeyIn;
  node.values = std::move(keys);
  return filter(QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node))));
}

QueryRequest QueryRequest::reversed() const noexcept {
  return changed(*state_, [](QueryState& s) { s.reversed = !s.reversed; });
}

QueryRequest QueryRequest::annotated(std::vector<Expression> selection) const noexcept {
  return changed(*state_, [&](QueryState& s) {
    for (Expression& e : selection) s.annotations.push_back(std::move(e));
  });
}

QueryRequest QueryRequest::matching(std::optional<std::string> pattern) const noexcept {
  if (!pattern) return filter(value(Value(std::int64_t{0})));
  ExpressionNode node;
  node.kind = NodeKind::Match;
  node.value = Value(std::move(*pattern));
  return filter(QueryAccess::make(std::make_shared<ExpressionNode>(std::move(node))));
}

bool QueryRequest::makeSQL(Database& db, SQL& out) const noexcept {
  return QueryAccess::render(db, *this, QueryStatement::Select, out);
}

bool QueryRequest::makeCountSQL(Database& db, SQL& out) const noexcept {
  return QueryAccess::render(db, *this, QueryStatement::Count, out);
}

bool QueryRequest::makeDeleteSQL(Database& db, SQL& out) const noexcept {
  return QueryAccess::render(db, *this, QueryStatement::Delete, out);
}

bool QueryRequest::makeUpdateSQL(Database& db, const std::vector<ColumnAssignment>& assignments,
                                 SQL& out) const noexcept {
  return QueryAccess::render(db, *this, QueryStatement::Update, out, &assignments);
}

std::string QueryRequest::tableName() const noexcept { return state_->table; }

template <typename Render>
bool QueryAccess::guarded(Database& db, Render&& render) noexcept {
  if (!db.beginCall()) return false;
  try {
    Error error;
    if (!render(error)) {
      // A schema lookup's failure is already the connection's error.
      if (db.lastError().isError()) return false;
      return db.connection_->fail(error.code, error.message, std::string());
    }
    return true;
  } catch (const std::bad_alloc&) {
    return db.connection_->fail(SQLITE_NOMEM, "out of memory while rendering a query request", std::string());
  } catch (...) {
    return db.connection_->fail(SQLITE_ERROR, "a query request could not be rendered", std::string());
  }
}

Connection& QueryAccess::connection(Database& db) noexcept { return *db.connection_; }

bool QueryAccess::failInvalid(Database& db, const SQL& literal) noexcept { return db.failInvalidLiteral(literal); }

bool QueryAccess::render(Database& db, const QueryRequest& request, QueryStatement statement, SQL& out,
                         const std::vector<ColumnAssignment>* assignments) noexcept {
  return guarded(db, [&](Error& error) {
    SQL rendered;
    if (!renderQuery(db, *request.state_, statement, rendered, error, assignments)) return false;
    // A name holding NUL: SQLITE_MISUSE naming it, as for any SQL literal.
    if (!rendered.isValid()) return failInvalid(db, rendered);
    out = std::move(rendered);
    return true;
  });
}

bool QueryAccess::lendBound(Database& db, const SQL& sql, Statement& out) noexcept {
  const std::string& text = sql.text();
  return db.cachedStatementForArguments(text.data(), text.size(), out) && out.bind(sql.arguments());
}

bool QueryAccess::lend(Database& db, const QueryRequest& request, QueryStatement statement, Statement& out,
                       const std::vector<ColumnAssignment>* assignments) noexcept {
  FetchHold hold(fetchHoldConnection(db, statement));
  // A request that prefetches: its rows and the prefetches' (lent while
  // this statement is) come from one snapshot.
  const std::vector<IncludeSpec>& includes = request.state_->includes;
  const bool prefetches = std::any_of(includes.begin(), includes.end(), [](const IncludeSpec& include) {
    return include.kind == IncludeKind::IncludingAll;
  });
  if (prefetches && !guarded(db, [&](Error&) { return hold.open(); })) return false;
  SQL sql;
  if (!render(db, request, statement, sql, assignments) || !lendBound(db, sql, out)) return false;
  hold.handTo(out.handle());
  return true;
}

Connection* QueryAccess::fetchHoldConnection(Database& db, QueryStatement statement) noexcept {
  const bool fetches = statement == QueryStatement::Select || statement == QueryStatement::SelectOne ||
                       statement == QueryStatement::Count;
  return fetches && db.isOpen() ? db.connection_.get() : nullptr;
}

bool QueryRequest::scopes(Database& db, std::vector<ScopeSpan>& out) const noexcept {
  return QueryAccess::guarded(db, [&](Error& error) {
    std::vector<ScopeSpan> spans;
    if (!renderScopes(db, *state_, spans, error)) return false;
    out = std::move(spans);
    return true;
  });
}

bool QueryRequest::makePrefetchSQL(Database& db, std::size_t index, SQL& out,
                                   std::vector<std::string>& keyColumns) const noexcept {
  return QueryAccess::renderPrefetch(db, *this, index, QueryStatement::Select, out, keyColumns);
}

bool QueryRequest::makeFirstRowPrefetchSQL(Database& db, std::size_t index, SQL& out,
                                           std::vector<std::string>& keyColumns) const noexcept {
  return QueryAccess::renderPrefetch(db, *this, index, QueryStatement::SelectOne, out, keyColumns);
}

bool QueryAccess::renderPrefetch(Database& db, const QueryRequest& request, std::size_t index, QueryStatement statement,
                                 SQL& out, std::vector<std::string>& keyColumns) noexcept {
  return guarded(db, [&](Error& error) {
    SQL rendered;
    std::vector<std::string> columns;
    if (!sqlitebridge::renderPrefetch(db, *request.state_, index, statement == QueryStatement::SelectOne, rendered,
                                      columns, error)) {
      return false;
    }
    if (!rendered.isValid()) return QueryAccess::failInvalid(db, rendered);
    out = std::move(rendered);
    keyColumns = std::move(columns);
    return true;
  });
}

// MARK: Database

bool Database::fetch(const QueryRequest& request, std::vector<Row>* rows) noexcept {
  const FetchHold hold(QueryAccess::fetchHoldConnection(*this, QueryStatement::Select));
  SQL sql;
  return QueryAccess::render(*this, request, QueryStatement::Select, sql) && execute(sql, rows);
}

bool Database::fetchCount(const QueryRequest& request, std::int64_t& count) noexcept {
  const FetchHold hold(QueryAccess::fetchHoldConnection(*this, QueryStatement::Count));
  SQL sql;
  if (!QueryAccess::render(*this, request, QueryStatement::Count, sql)) return false;
  try {
    std::vector<Row> rows;
    if (!execute(sql, &rows)) return false;
    if (rows.size() != 1 || rows[0].size() != 1) {
      return connection_->fail(SQLITE_ERROR, "a count returned no single value", sql.text());
    }
    count = rows[0].values()[0].asInteger();
    return true;
  } catch (const std::bad_alloc&) {
    return connection_->fail(SQLITE_NOMEM, "out of memory while counting rows", sql.text());
  }
}

bool Database::deleteAll(const QueryRequest& request, std::int64_t* changed) noexcept {
  SQL sql;
  if (!QueryAccess::render(*this, request, QueryStatement::Delete, sql) || !execute(sql)) return false;
  if (changed != nullptr) *changed = changes();
  return true;
}

bool Database::updateAll(const QueryRequest& request, const std::vector<ColumnAssignment>& assignments,
                         std::int64_t* changed) noexcept {
  SQL sql;
  if (!QueryAccess::render(*this, request, QueryStatement::Update, sql, &assignments) || !execute(sql)) return false;
  if (changed != nullptr) *changed = changes();
  return true;
}

bool Database::fetchOne(const QueryRequest& request, Row& row, bool& found) noexcept {
  const FetchHold hold(QueryAccess::fetchHoldConnection(*this, QueryStatement::SelectOne));
  SQL sql;
  if (!QueryAccess::render(*this, request, QueryStatement::SelectOne, sql)) return false;
  try {
    std::vector<Row> rows;
    if (!execute(sql, &rows)) return false;
    found = !rows.empty();
    if (found) row = std::move(rows[0]);
    return true;
  } catch (const std::bad_alloc&) {
    return connection_->fail(SQLITE_NOMEM, "out of memory while fetching a row", sql.text());
  }
}

bool Database::lendRequest(const QueryRequest& request, Statement& out) noexcept {
  return QueryAccess::lend(*this, request, QueryStatement::Select, out);
}

}  // namespace sqlitebridge
