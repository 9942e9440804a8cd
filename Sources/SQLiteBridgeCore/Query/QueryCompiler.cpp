// The query compiler: a request's state becomes SQL text and arguments here,
// and nowhere else. Values go through SQL::value / SQL::list (bound, never
// spliced), names through SQL::identifier (quoteIdentifier), and operands are
// parenthesized by SQLite's precedence so that the text means the tree.
#include "QueryCompiler.hpp"

#include "JoinColumns.hpp"
#include "PrimaryKeyCache.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sqlitebridge/SQLite.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/Database.hpp"

namespace sqlitebridge {

namespace {

using NodePointer = std::shared_ptr<const ExpressionNode>;

// SQLite's precedence levels (lang_expr.html, "Operators"), highest first.
// An atom (column, value, function call) never needs parentheses.
constexpr int kAtom = 100;
constexpr int kNegate = 90;    // unary -
constexpr int kMultiply = 80;  // * /
constexpr int kAdd = 70;       // + -
constexpr int kCompare = 60;   // < <= > >=
constexpr int kEquality = 50;  // = <> IS IS NOT IN LIKE
constexpr int kNot = 40;       // NOT
constexpr int kAnd = 30;
constexpr int kOr = 20;
constexpr int kTop = 0;  // a whole term: nothing around it

// Where an expression stands: orderings, aliases and `*` only at the top of
// their own clause.
enum class Place { Expression, Selection, Ordering };

int operatorPrecedence(NodeOperator op) noexcept {
  switch (op) {
    case NodeOperator::Multiply:
    case NodeOperator::Divide:
      return kMultiply;
    case NodeOperator::Add:
    case NodeOperator::Subtract:
      return kAdd;
    case NodeOperator::Less:
    case NodeOperator::LessEqual:
    case NodeOperator::Greater:
    case NodeOperator::GreaterEqual:
      return kCompare;
    case NodeOperator::Equal:
    case NodeOperator::NotEqual:
    case NodeOperator::Like:
    case NodeOperator::IsNull:
    case NodeOperator::IsNotNull:
      return kEquality;
    case NodeOperator::Not:
      return kNot;
    case NodeOperator::Negate:
      return kNegate;
    case NodeOperator::And:
      return kAnd;
    case NodeOperator::Or:
      return kOr;
    default:
      return kTop;
  }
}

const char* operatorText(NodeOperator op) noexcept {
  switch (op) {
    case NodeOperator::Equal:
      return " = ";
    case NodeOperator::NotEqual:
      return " <> ";
    case NodeOperator::Less:
      return " < ";
    case NodeOperator::LessEqual:
      return " <= ";
    case NodeOperator::Greater:
      return " > ";
    case NodeOperator::GreaterEqual:
      return " >= ";
    case NodeOperator::And:
      return " AND ";
    case NodeOperator::Or:
      return " OR ";
    case NodeOperator::Add:
      return " + ";
    case NodeOperator::Subtract:
      return " - ";
    case NodeOperator::Multiply:
      return " * ";
    case NodeOperator::Divide:
      return " / ";
    case NodeOperator::Like:
      return " LIKE ";
    default:
      return " ";
  }
}

const char* functionName(NodeFunction function) noexcept {
  switch (function) {
    case NodeFunction::Count:
    case NodeFunction::CountDistinct:
    case NodeFunction::CountAll:
      return "COUNT";
    case NodeFunction::Sum:
      return "SUM";
    case NodeFunction::Total:
      return "TOTAL";
    case NodeFunction::Min:
      return "MIN";
    case NodeFunction::Max:
      return "MAX";
    case NodeFunction::Average:
      return "AVG";
    case NodeFunction::Length:
      return "LENGTH";
    case NodeFunction::Abs:
      return "ABS";
    default:
      return "";
  }
}

bool isNullValue(const NodePointer& node) noexcept {
  return node && node->kind == NodeKind::Value && node->value.isNull();
}

// `== NULL` and `!= NULL` (either side) render IS NULL / IS NOT NULL.
bool isNullComparison(const ExpressionNode& node) noexcept {
  return node.kind == NodeKind::Binary && (node.op == NodeOperator::Equal || node.op == NodeOperator::NotEqual) &&
         (isNullValue(node.left) || isNullValue(node.right));
}

int precedence(const ExpressionNode& node) noexcept {
  switch (node.kind) {
    case NodeKind::Column:
    case NodeKind::AllColumns:
    case NodeKind::Value:
    case NodeKind::Function:
      return kAtom;
    case NodeKind::Unary:
    case NodeKind::Binary:
    case NodeKind::Postfix:
      return operatorPrecedence(node.op);
    case NodeKind::In:
    case NodeKind::InList:
    case NodeKind::KeyIn:
    case NodeKind::Match:
      return kEquality;
    case NodeKind::AssociationCount:
      return kAtom;
    case NodeKind::AssociatedTo:
      return kEquality;
    case NodeKind::AssociationIsEmpty:
      return kNot;
    case NodeKind::Ordering:
    case NodeKind::Alias:
      return kTop;
    case NodeKind::Unsupported:
      return kAtom;
  }
  return kTop;
}

// One association of the request, as rendered: its include, the name its
// table takes in the SQL, and the columns that join it.
struct Scope {
  const IncludeSpec* include = nullptr;
  std::string alias;
  JoinColumns columns;
  /// The table it joins to, under its name in the SQL: the request's own,
  /// or the destination of the association it was included with.
  std::string parentTable;
  std::string parentAlias;
  /// That association's scope (an index into the scopes, which come parent
  /// first), -1 for the request's own.
  int parent = -1;

  const AssociationState& association() const { return *include->association; }
  bool joined() const { return include->kind != IncludeKind::IncludingAll; }
  bool selected() const {
    return include->kind == IncludeKind::IncludingRequired || include->kind == IncludeKind::IncludingOptional;
  }
  bool required() const {
    return include->kind == IncludeKind::IncludingRequired || include->kind == IncludeKind::JoiningRequired;
  }
};

// The name of an origin key column a select adds (OriginKey), before its
// number.
constexpr const char* kAddedOriginKeyPrefix = "sqlitebridge_origin_";

bool containsAssociationAggregate(const ExpressionNode* node) noexcept {
  if (node == nullptr) return false;
  if (node->kind == NodeKind::AssociationCount || node->kind == NodeKind::AssociationIsEmpty) return true;
  if (containsAssociationAggregate(node->left.get()) || containsAssociationAggregate(node->right.get())) return true;
  for (const auto& operand : node->operands) {
    if (containsAssociationAggregate(operand.get())) return true;
  }
  return false;
}

class Renderer {
 public:
  Renderer(Database& db, const QueryState& state, SQL& out, Error& error)
      : db_(db),
        state_(state),
        out_(out),
        error_(error),
        qualify_(!state.includes.empty()),
        scopeTable_(state.table),
        scopeAlias_(state.table) {}

  // Names every association's table and resolves its columns; first.
  bool prepare() {
    std::vector<std::string> taken{state_.table};
    if (!prepareIncludes(state_.includes, state_.table, state_.table, -1, taken)) return false;
    // Columns are qualified once another table is in the FROM clause.
    qualify_ = false;
    for (const Scope& scope : scopes_) qualify_ = qualify_ || scope.joined();
    return true;
  }

  // The SELECT of `selection` (the request's own columns, annotations and
  // included scopes when null); at most one row when `one`.
  bool select(const std::vector<Expression>* selection, bool distinct, bool one = false) {
    out_.sql(distinct ? "SELECT DISTINCT " : "SELECT ");
    if (selection == nullptr) {
      if (state_.selection.empty()) {
        allColumns(std::string());
      } else if (!list(state_.selection, Place::Selection)) {
        return false;
      }
      for (const Expression& annotation : state_.annotations) {
        out_.sql(", ");
        if (!render(*QueryAccess::node(annotation), Place::Selection)) return false;
      }
      for (const Scope& scope : scopes_) {
        if (!scope.selected()) continue;
        out_.sql(", ");
        const bool ok = inScope(scope.association().table, scope.alias, [&] {
          if (scope.association().selection.empty()) {
            allColumns(std::string());
            return true;
          }
          return list(scope.association().selection, Place::Selection);
        });
        if (!ok) return false;
      }
      // Prefetch keys the selection lacks, as trailing hidden columns.
      for (const std::vector<OriginKey>& keys : originKeys()) {
        for (const OriginKey& key : keys) {
          if (!key.hidden) continue;
          out_.sql(", ");
          ownQualifier();
          out_.identifier(key.column).sql(" AS ").identifier(key.name);
        }
      }
    } else if (!list(*selection, Place::Selection)) {
      return false;
    }
    if (!from()) return false;
    if (!where()) return false;
    if (!groupBy()) return false;
    if (!state_.havings.empty()) {
      out_.sql(" HAVING ");
      if (!conjunction(state_.havings)) return false;
    }
    if (!orderBy()) return false;
    if (one) {
      const std::int64_t limit = state_.limit && *state_.limit >= 0 && *state_.limit < 1 ? *state_.limit : 1;
      out_.sql(" LIMIT ").value(Value(limit));
      if (state_.limit && state_.offset) out_.sql(" OFFSET ").value(Value(*state_.offset));
    } else if (state_.limit) {
      out_.sql(" LIMIT ").value(Value(*state_.limit));
      if (state_.offset) out_.sql(" OFFSET ").value(Value(*state_.offset));
    }
    return true;
  }

  bool count() {
    const bool plain = !state_.distinct && state_.groups.empty() && state_.havings.empty() && !state_.limit &&
                       state_.selection.empty();
    if (plain) {
      out_.sql("SELECT COUNT(*)");
      return from() && where();
    }
    out_.sql("SELECT COUNT(*) FROM (");
    if (!select(nullptr, state_.distinct)) return false;
    out_.sql(")");
    return true;
  }

  bool remove() {
    out_.sql("DELETE FROM ").identifier(state_.table);
    return targetRows();
  }

  bool update(const std::vector<ColumnAssignment>* assignments) {
    if (assignments == nullptr || assignments->empty()) {
      return fail(SQLITE_MISUSE, "an update of " + quoteIdentifier(state_.table) + " sets no column");
    }
    out_.sql("UPDATE ").identifier(state_.table).sql(" SET ");
    // The SET terms name columns of the table itself, never qualified.
    const bool qualify = qualify_;
    qualify_ = false;
    for (std::size_t i = 0; i < assignments->size(); ++i) {
      if (i > 0) out_.sql(", ");
      out_.identifier((*assignments)[i].column).sql(" = ");
      if (!render(*QueryAccess::node((*assignments)[i].value), Place::Expression)) return false;
    }
    qualify_ = qualify;
    return targetRows();
  }

  // Where each selected scope's columns are in the select's rows.
  bool spans(std::vector<ScopeSpan>& out) {
    int column = 0;
    int own = 0;
    if (!selectionWidth(state_.selection, state_.table, own)) return false;
    column = own + static_cast<int>(state_.annotations.size());
    // Each scope's span, or -1 when it is not selected.
    std::vector<int> spanOf(scopes_.size(), -1);
    for (std::size_t i = 0; i < scopes_.size(); ++i) {
      const Scope& scope = scopes_[i];
      if (!scope.selected()) continue;
      int width = 0;
      if (!selectionWidth(scope.association().selection, scope.association().table, width)) return false;
      // The nearest selected scope it was included under.
      int parent = -1;
      for (int p = scope.parent; p >= 0 && parent < 0; p = scopes_[static_cast<std::size_t>(p)].parent) {
        parent = spanOf[static_cast<std::size_t>(p)];
      }
      spanOf[i] = static_cast<int>(out.size());
      out.push_back(ScopeSpan{scope.association().key ? *scope.association().key : scope.association().table, column,
                              width, parent});
      column += width;
    }
    return true;
  }

  // The prefetch query of the `index`th IncludingAll scope.
  bool prefetch(std::size_t index, bool firstRow, std::vector<std::string>& keyColumns) {
    const Scope* found = nullptr;
    const std::size_t prefetchIndex = index;
    for (const Scope& scope : scopes_) {
      if (scope.include->kind != IncludeKind::IncludingAll) continue;
      if (index-- == 0) {
        found = &scope;
        break;
      }
    }
    if (found == nullptr) return fail(SQLITE_RANGE, "the request has no such including(all:) association");
    const Scope& scope = *found;
    const AssociationState& a = scope.association();
    keyColumns.clear();
    const std::vector<std::vector<OriginKey>> originKeysByPrefetch = originKeys();
    for (const OriginKey& key : originKeysByPrefetch[prefetchIndex]) keyColumns.push_back(key.name);
    // The destination under its own name (or its alias): its columns, then
    // the key columns again, named for the caller.
    const std::string alias = a.alias ? *a.alias : a.table;
    const bool ok = inScope(a.table, alias, [&] {
      const bool qualify = qualify_;
      qualify_ = true;
      out_.sql("SELECT ");
      if (a.selection.empty()) {
        allColumns(std::string());
      } else if (!list(a.selection, Place::Selection)) {
        return false;
      }
      for (std::size_t k = 0; k < scope.columns.destination.size(); ++k) {
        out_.sql(", ").identifier(alias).sql(".").identifier(scope.columns.destination[k]);
        out_.sql(" AS ").identifier("sqlitebridge_key_" + std::to_string(k));
      }
      out_.sql(" FROM ").identifier(a.table);
      if (alias != a.table) out_.sql(" AS ").identifier(alias);
      out_.sql(" WHERE ");
      if (scope.columns.destination.size() > 1) out_.sql("(");
      for (std::size_t k = 0; k < scope.columns.destination.size(); ++k) {
        if (k > 0) out_.sql(", ");
        out_.identifier(alias).sql(".").identifier(scope.columns.destination[k]);
      }
      if (scope.columns.destination.size() > 1) out_.sql(")");
      out_.sql(" IN (");
      qualify_ = qualify;
      return true;
    });
    if (!ok) return false;
    // The origin rows (all, or the first as fetchOne's): this request,
    // selecting its key columns.
    std::vector<Expression> originKey;
    for (const std::string& name : scope.columns.origin) originKey.push_back(column(state_.table, name));
    if (!select(&originKey, false, firstRow)) return false;
    out_.sql(")");
    return inScope(a.table, alias, [&] {
      const bool qualify = qualify_;
      qualify_ = true;
      for (const Expression& filter : a.filters) {
        out_.sql(" AND ");
        if (!operand(*QueryAccess::node(filter), kAnd)) return false;
      }
      if (!a.orderings.empty()) {
        out_.sql(" ORDER BY ");
        if (!list(a.orderings, Place::Ordering)) return false;
      }
      qualify_ = qualify;
      return true;
    });
  }

 private:
  // An origin key column of an IncludingAll association, as the rows of the
  // request's select carry it: under its own name when the selection has
  // it, else as a trailing hidden column (GRDB's rule: the caller's
  // selection need not name the keys a prefetch matches on).
  struct OriginKey {
    std::string column;
    std::string name;
    bool hidden = false;
  };

  // Whether the request's own selection has `column` under its name: every
  // column (no selection, or the table's `*`), or the plain column.
  bool selects(const std::string& column) const {
    if (state_.selection.empty()) return true;
    for (const Expression& e : state_.selection) {
      const ExpressionNode& node = *QueryAccess::node(e);
      const bool own = node.table.empty() || sameIdentifier(node.table, state_.table);
      if (node.kind == NodeKind::AllColumns && own) return true;
      if (node.kind == NodeKind::Column && own && sameIdentifier(node.name, column)) return true;
    }
    return false;
  }

  // The origin keys of each IncludingAll association, in include order;
  // hidden ones named "sqlitebridge_origin_0", "…_1", … across them all.
  std::vector<std::vector<OriginKey>> originKeys() const {
    std::vector<std::vector<OriginKey>> all;
    std::size_t hidden = 0;
    for (const Scope& scope : scopes_) {
      if (scope.include->kind != IncludeKind::IncludingAll) continue;
      std::vector<OriginKey> keys;
      for (const std::string& column : scope.columns.origin) {
        OriginKey key;
        key.column = column;
        key.hidden = !selects(column);
        key.name = key.hidden ? kAddedOriginKeyPrefix + std::to_string(hidden++) : column;
        keys.push_back(std::move(key));
      }
      all.push_back(std::move(keys));
    }
    return all;
  }

  // The scopes of `includes`, joined to `parentTable` (called
  // `parentAlias`; `parent`: its scope, -1 for the request), each followed
  // by its own includes'; names taken by a table of the request in `taken`.
  bool prepareIncludes(const std::vector<IncludeSpec>& includes, const std::string& parentTable,
                       const std::string& parentAlias, int parent, std::vector<std::string>& taken) {
    std::vector<std::string> keys;
    const auto isTaken = [&](const std::string& name) {
      for (const std::string& used : taken) {
        if (sameIdentifier(used, name)) return true;
      }
      return false;
    };
    for (const IncludeSpec& include : includes) {
      const AssociationState& a = *include.association;
      if (!a.hasTable)
        return fail(SQLITE_MISUSE, "an association of " + quoteIdentifier(parentTable) + " has no table");
      const std::string key = a.key ? *a.key : a.table;
      for (const std::string& used : keys) {
        if (sameIdentifier(used, key)) {
          return fail(SQLITE_MISUSE,
                      a.eitherWay ? quoteIdentifier(a.table) + " is joined twice to " + quoteIdentifier(parentTable)
                                  : "two associations of " + quoteIdentifier(parentTable) + " have the key " +
                                        quoteIdentifier(key));
        }
      }
      keys.push_back(key);
      if (a.eitherWay && sameIdentifier(a.table, parentTable)) {
        return fail(SQLITE_MISUSE, "cannot join " + quoteIdentifier(a.table) +
                                       " to itself with joining(): use an association with a key");
      }
      if (include.kind == IncludeKind::IncludingAll && (a.eitherWay || a.kind != AssociationKind::HasMany)) {
        return fail(SQLITE_MISUSE, "including(all:) of " + quoteIdentifier(a.table) + " from " +
                                       quoteIdentifier(parentTable) + " needs a hasMany association");
      }
      if (include.kind == IncludeKind::IncludingAll && parent >= 0) {
        return fail(SQLITE_MISUSE, "including(all:) of " + quoteIdentifier(a.table) + " inside the association of " +
                                       quoteIdentifier(parentTable) + " is not supported (only a request's own)");
      }
      if (include.kind == IncludeKind::IncludingAll && !a.includes.empty()) {
        return fail(SQLITE_MISUSE,
                    "an association included with the prefetched " + quoteIdentifier(a.table) + " is not supported");
      }
      Scope scope;
      scope.include = &include;
      scope.parentTable = parentTable;
      scope.parentAlias = parentAlias;
      scope.parent = parent;
      if (a.alias) {
        if (isTaken(*a.alias)) {
          return fail(SQLITE_MISUSE, "the alias " + quoteIdentifier(*a.alias) + " names two tables of the request");
        }
        scope.alias = *a.alias;
      } else if (!isTaken(a.table)) {
        scope.alias = a.table;
      } else {
        scope.alias = key;
        for (int n = 2; isTaken(scope.alias); ++n) scope.alias = key + std::to_string(n);
      }
      if (include.kind != IncludeKind::IncludingAll) taken.push_back(scope.alias);
      if (!resolve(a, parentTable, scope.columns)) return false;
      const std::string alias = scope.alias;
      scopes_.push_back(std::move(scope));
      const int index = static_cast<int>(scopes_.size()) - 1;
      if (!prepareIncludes(a.includes, a.table, alias, index, taken)) return false;
    }
    return true;
  }

  // Runs `body` with columns referring to `table` under `alias`.
  template <typename Body>
  bool inScope(const std::string& table, const std::string& alias, Body&& body) {
    const std::string savedTable = scopeTable_;
    const std::string savedAlias = scopeAlias_;
    scopeTable_ = table;
    scopeAlias_ = alias;
    const bool ok = body();
    scopeTable_ = savedTable;
    scopeAlias_ = savedAlias;
    return ok;
  }

  // The number of columns `selection` selects from `table` (every column
  // of the table when empty; `*` counted from the table's statement).
  bool selectionWidth(const std::vector<Expression>& selection, const std::string& table, int& width) {
    width = 0;
    if (selection.empty()) return tableWidth(table, width);
    for (const Expression& e : selection) {
      const ExpressionNode& node = *QueryAccess::node(e);
      if (node.kind == NodeKind::AllColumns) {
        int all = 0;
        if (!tableWidth(node.table.empty() ? table : node.table, all)) return false;
        width += all;
      } else {
        ++width;
      }
    }
    return true;
  }

  // The number of columns `SELECT *` gives for `table`.
  bool tableWidth(const std::string& table, int& width) {
    Statement statement = db_.cachedStatement("SELECT * FROM " + quoteIdentifier(table));
    if (!statement.isValid()) return schemaFailure();
    width = statement.columnCount();
    return true;
  }

  // The WHERE of a DELETE or UPDATE: the request's filters, or, for a
  // request that joins, groups or limits, the rows whose primary key (rowid
  // for a table without a declared one; the key columns of a WITHOUT ROWID
  // table) the request selects.
  bool targetRows() {
    const bool plain = state_.includes.empty() && !state_.limit && state_.groups.empty() && state_.havings.empty();
    if (plain) {
      const bool qualify = qualify_;
      qualify_ = false;
      const bool rendered = where();
      qualify_ = qualify;
      return rendered;
    }
    std::vector<std::string> key;
    if (!cachedPrimaryKey(db_, state_.table, key)) return schemaFailure();
    std::vector<Expression> keyColumns;
    for (const std::string& name : key) keyColumns.push_back(column(state_.table, name));
    out_.sql(" WHERE ");
    if (key.size() > 1) out_.sql("(");
    for (std::size_t i = 0; i < key.size(); ++i) {
      if (i > 0) out_.sql(", ");
      out_.identifier(key[i]);
    }
    if (key.size() > 1) out_.sql(")");
    out_.sql(" IN (");
    if (!select(&keyColumns, false)) return false;
    out_.sql(")");
    return true;
  }

  // GROUP BY the request's grouping; by its primary key when it has none
  // but a HAVING counts an association's rows (SQLite before 3.39 refuses
  // HAVING without GROUP BY).
  bool groupBy() {
    if (!state_.groups.empty()) {
      out_.sql(" GROUP BY ");
      return list(state_.groups, Place::Expression);
    }
    bool counts = false;
    for (const Expression& having : state_.havings) {
      counts = counts || containsAssociationAggregate(QueryAccess::node(having).get());
    }
    if (!counts) return true;
    std::vector<std::string> key;
    if (!cachedPrimaryKey(db_, state_.table, key)) return schemaFailure();
    out_.sql(" GROUP BY ");
    for (std::size_t i = 0; i < key.size(); ++i) {
      if (i > 0) out_.sql(", ");
      ownQualifier();
      out_.identifier(key[i]);
    }
    return true;
  }

  // ORDER BY the request's orderings, each flipped when it is reversed (by
  // its primary key, descending, when reversed without an order), then the
  // joined associations' own orderings.
  bool orderBy() {
    bool any = !state_.orderings.empty() || state_.reversed;
    for (const Scope& scope : scopes_) any = any || (scope.joined() && !scope.association().orderings.empty());
    if (!any) return true;
    out_.sql(" ORDER BY ");
    bool first = true;
    const auto separate = [&] {
      if (!first) out_.sql(", ");
      first = false;
    };
    if (state_.orderings.empty() && state_.reversed) {
      std::vector<std::string> key;
      if (!cachedPrimaryKey(db_, state_.table, key)) return schemaFailure();
      for (const std::string& name : key) {
        separate();
        ownQualifier();
        out_.identifier(name).sql(" DESC");
      }
    }
    for (const Expression& ordering : state_.orderings) {
      separate();
      const ExpressionNode& node = *QueryAccess::node(ordering);
      if (!state_.reversed) {
        if (!render(node, Place::Ordering)) return false;
      } else if (node.kind == NodeKind::Ordering) {
        if (!render(*node.left, Place::Expression)) return false;
        out_.sql(orderingText(flipped(node.op)));
      } else {
        if (!render(node, Place::Expression)) return false;
        out_.sql(" DESC");
      }
    }
    for (const Scope& scope : scopes_) {
      if (!scope.joined()) continue;
      for (const Expression& ordering : scope.association().orderings) {
        separate();
        if (!inScope(scope.association().table, scope.alias,
                     [&] { return render(*QueryAccess::node(ordering), Place::Ordering); })) {
          return false;
        }
      }
    }
    return true;
  }

  static NodeOperator flipped(NodeOperator op) noexcept {
    switch (op) {
      case NodeOperator::Asc:
        return NodeOperator::Desc;
      case NodeOperator::Desc:
        return NodeOperator::Asc;
      case NodeOperator::AscNullsLast:
        return NodeOperator::DescNullsFirst;
      default:
        return NodeOperator::AscNullsLast;
    }
  }

  static const char* orderingText(NodeOperator op) noexcept {
    switch (op) {
      case NodeOperator::Asc:
        return " ASC";
      case NodeOperator::Desc:
        return " DESC";
      case NodeOperator::AscNullsLast:
        return " ASC NULLS LAST";
      default:
        return " DESC NULLS FIRST";
    }
  }

  // The current scope's table, as a qualifier where columns are qualified.
  void ownQualifier() {
    if (qualify_) out_.identifier(scopeAlias_).sql(".");
  }

  bool fail(int code, std::string message) {
    error_ = Error{code, code, std::move(message), std::string()};
    return false;
  }

  // A schema call failed: its error, already on the connection, is the one.
  bool schemaFailure() {
    error_ = db_.lastError();
    return false;
  }

  void allColumns(const std::string& table) {
    if (!table.empty()) {
      out_.identifier(table).sql(".*");
    } else if (qualify_) {
      out_.identifier(scopeAlias_).sql(".*");
    } else {
      out_.sql("*");
    }
  }

  bool from() {
    out_.sql(" FROM ").identifier(state_.table);
    for (const Scope& scope : scopes_) {
      if (!scope.joined()) continue;
      const AssociationState& a = scope.association();
      out_.sql(scope.required() ? " JOIN " : " LEFT JOIN ").identifier(a.table);
      if (scope.alias != a.table) out_.sql(" AS ").identifier(scope.alias);
      out_.sql(" ON ");
      for (std::size_t k = 0; k < scope.columns.origin.size(); ++k) {
        if (k > 0) out_.sql(" AND ");
        out_.identifier(scope.alias).sql(".").identifier(scope.columns.destination[k]);
        out_.sql(" = ").identifier(scope.parentAlias).sql(".").identifier(scope.columns.origin[k]);
      }
      for (const Expression& filter : a.filters) {
        out_.sql(" AND ");
        if (!inScope(a.table, scope.alias, [&] { return operand(*QueryAccess::node(filter), kAnd); })) return false;
      }
    }
    return true;
  }

  // The columns that join `a` to `originTable` (JoinColumns.hpp).
  bool resolve(const AssociationState& a, const std::string& originTable, JoinColumns& columns) {
    return resolveJoinColumns(db_, a, originTable, columns, error_);
  }

  // `(SELECT COUNT(*) …)` or `NOT EXISTS (SELECT 1 …)` of an association's
  // rows for the current scope's row.
  bool associationAggregate(const ExpressionNode& node) {
    const AssociationState& a = *node.association;
    if (!a.hasTable) return fail(SQLITE_MISUSE, "an association of " + quoteIdentifier(scopeTable_) + " has no table");
    JoinColumns columns;
    if (!resolve(a, scopeTable_, columns)) return false;
    const std::string origin = scopeAlias_;
    // Inside the subquery the destination needs a name of its own when it
    // is the origin's table.
    std::string alias = a.alias ? *a.alias : a.table;
    if (sameIdentifier(alias, origin)) alias = (a.key ? *a.key : a.table) + "_";
    out_.sql(node.kind == NodeKind::AssociationCount ? "(SELECT COUNT(*) FROM " : "NOT EXISTS (SELECT 1 FROM ");
    out_.identifier(a.table);
    if (alias != a.table) out_.sql(" AS ").identifier(alias);
    out_.sql(" WHERE ");
    for (std::size_t k = 0; k < columns.origin.size(); ++k) {
      if (k > 0) out_.sql(" AND ");
      out_.identifier(alias).sql(".").identifier(columns.destination[k]);
      out_.sql(" = ").identifier(origin).sql(".").identifier(columns.origin[k]);
    }
    const bool ok = inScope(a.table, alias, [&] {
      const bool qualify = qualify_;
      qualify_ = true;
      for (const Expression& filter : a.filters) {
        out_.sql(" AND ");
        if (!operand(*QueryAccess::node(filter), kAnd)) return false;
      }
      qualify_ = qualify;
      return true;
    });
    out_.sql(")");
    return ok;
  }

  // `("dest") IN (SELECT "origin" FROM <origin request>)`: the current
  // scope's rows the association reaches from the origin request's rows.
  bool associatedTo(const ExpressionNode& node) {
    const AssociationState& a = *node.association;
    const QueryState& origin = *node.origin;
    if (!origin.hasTable)
      return fail(SQLITE_MISUSE, "the query request has no table (make it with QueryRequest::table)");
    JoinColumns columns;
    if (!resolve(a, origin.table, columns)) return false;
    if (columns.destination.size() > 1) out_.sql("(");
    for (std::size_t k = 0; k < columns.destination.size(); ++k) {
      if (k > 0) out_.sql(", ");
      ownQualifier();
      out_.identifier(columns.destination[k]);
    }
    if (columns.destination.size() > 1) out_.sql(")");
    out_.sql(" IN (");
    std::vector<Expression> key;
    for (const std::string& name : columns.origin) key.push_back(column(origin.table, name));
    Renderer nested(db_, origin, out_, error_);
    if (!nested.prepare() || !nested.select(&key, false)) return false;
    out_.sql(")");
    return true;
  }

  bool where() {
    if (state_.filters.empty()) return true;
    out_.sql(" WHERE ");
    return conjunction(state_.filters);
  }

  // Terms joined with AND, each parenthesized as an operand of AND when
  // there are several.
  bool conjunction(const std::vector<Expression>& terms) {
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (i > 0) out_.sql(" AND ");
      if (!operand(*QueryAccess::node(terms[i]), terms.size() > 1 ? kAnd : kTop)) return false;
    }
    return true;
  }

  bool list(const std::vector<Expression>& terms, Place place) {
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (i > 0) out_.sql(", ");
      if (!render(*QueryAccess::node(terms[i]), place)) return false;
    }
    return true;
  }

  // `node` where an operand of precedence at least `minimum` may stand.
  bool operand(const ExpressionNode& node, int minimum) {
    if (precedence(node) >= minimum) return render(node, Place::Expression);
    out_.sql("(");
    if (!render(node, Place::Expression)) return false;
    out_.sql(")");
    return true;
  }

  bool render(const ExpressionNode& node, Place place) {
    switch (node.kind) {
      case NodeKind::Column:
        if (!node.table.empty()) {
          out_.identifier(node.table).sql(".");
        } else {
          ownQualifier();
        }
        out_.identifier(node.name);
        return true;
      case NodeKind::AllColumns:
        if (place != Place::Selection) return fail(SQLITE_MISUSE, "allColumns() stands only in a selection");
        allColumns(node.table);
        return true;
      case NodeKind::Value:
        if (node.value.isNull()) {
          out_.sql("NULL");
        } else {
          out_.value(node.value);
        }
        return true;
      case NodeKind::Unary:
        if (node.op == NodeOperator::Not) {
          out_.sql("NOT ");
          return operand(*node.left, kNot);
        }
        // Anything but an atom in parentheses: "-(-x)", never "--x" (a comment).
        out_.sql("-");
        return operand(*node.left, kAtom);
      case NodeKind::Binary: {
        if (isNullComparison(node)) {
          const ExpressionNode& subject = isNullValue(node.right) ? *node.left : *node.right;
          if (!operand(subject, kEquality)) return false;
          out_.sql(node.op == NodeOperator::Equal ? " IS NULL" : " IS NOT NULL");
          return true;
        }
        // Left-associative: an equal-precedence right operand keeps its
        // parentheses (a - (b - c)), except for AND and OR, which associate.
        const int level = operatorPrecedence(node.op);
        if (!operand(*node.left, level)) return false;
        out_.sql(operatorText(node.op));
        const bool associative = node.op == NodeOperator::And || node.op == NodeOperator::Or;
        return operand(*node.right, associative ? level : level + 1);
      }
      case NodeKind::Postfix:
        if (!operand(*node.left, kEquality)) return false;
        out_.sql(node.op == NodeOperator::IsNull ? " IS NULL" : " IS NOT NULL");
        return true;
      case NodeKind::In:
        if (!operand(*node.left, kEquality)) return false;
        out_.sql(" IN ").list(node.values);
        return true;
      case NodeKind::InList:
        if (!operand(*node.left, kEquality)) return false;
        out_.sql(" IN (");
        for (std::size_t i = 0; i < node.operands.size(); ++i) {
          if (i > 0) out_.sql(", ");
          if (!render(*node.operands[i], Place::Expression)) return false;
        }
        out_.sql(")");
        return true;
      case NodeKind::Function:
        out_.sql(functionName(node.function)).sql("(");
        if (node.function == NodeFunction::CountAll) {
          out_.sql("*");
        } else {
          if (node.function == NodeFunction::CountDistinct) out_.sql("DISTINCT ");
          if (!render(*node.left, Place::Expression)) return false;
        }
        out_.sql(")");
        return true;
      case NodeKind::Ordering:
        if (place != Place::Ordering) return fail(SQLITE_MISUSE, "asc() and desc() stand only in order(...)");
        if (!render(*node.left, Place::Expression)) return false;
        out_.sql(orderingText(node.op));
        return true;
      case NodeKind::KeyIn: {
        std::vector<std::string> key;
        if (!cachedPrimaryKey(db_, scopeTable_, key)) return schemaFailure();
        if (key.size() != 1) {
          std::string names;
          for (const std::string& name : key) names += (names.empty() ? "" : ", ") + quoteIdentifier(name);
          return fail(SQLITE_MISUSE, "the primary key of " + quoteIdentifier(scopeTable_) + " has " +
                                         std::to_string(key.size()) + " columns (" + names +
                                         "): filter on them, not by key");
        }
        ownQualifier();
        out_.identifier(key[0]);
        if (node.values.size() == 1) {
          out_.sql(" = ").value(node.values[0]);
        } else {
          out_.sql(" IN ").list(node.values);
        }
        return true;
      }
      case NodeKind::Match:
        out_.identifier(scopeAlias_).sql(" MATCH ").value(node.value);
        return true;
      case NodeKind::AssociationCount:
      case NodeKind::AssociationIsEmpty:
        return associationAggregate(node);
      case NodeKind::AssociatedTo:
        return associatedTo(node);
      case NodeKind::Alias:
        if (place != Place::Selection) return fail(SQLITE_MISUSE, "aliased(...) stands only in a selection");
        if (!render(*node.left, Place::Expression)) return false;
        out_.sql(" AS ").identifier(node.name);
        return true;
      case NodeKind::Unsupported:
        return fail(SQLITE_MISUSE, node.name);
    }
    return fail(SQLITE_MISUSE, "unknown expression");
  }

  Database& db_;
  const QueryState& state_;
  SQL& out_;
  Error& error_;
  bool qualify_;
  // The table plain column names refer to, and what it is called.
  std::string scopeTable_;
  std::string scopeAlias_;
  std::vector<Scope> scopes_;
};

}  // namespace

namespace {
bool checkTable(const QueryState& state, Error& error);
}  // namespace

bool renderQuery(Database& db, const QueryState& state, QueryStatement statement, SQL& out, Error& error,
                 const std::vector<ColumnAssignment>* assignments) {
  out = SQL();
  if (!checkTable(state, error)) return false;
  Renderer renderer(db, state, out, error);
  if (!renderer.prepare()) return false;
  switch (statement) {
    case QueryStatement::Select:
      return renderer.select(nullptr, state.distinct);
    case QueryStatement::SelectOne:
      return renderer.select(nullptr, state.distinct, true);
    case QueryStatement::Update:
      return renderer.update(assignments);
    case QueryStatement::Count:
      return renderer.count();
    case QueryStatement::Delete:
      return renderer.remove();
  }
  return false;
}

namespace {

bool checkTable(const QueryState& state, Error& error) {
  if (state.hasTable) return true;
  error = Error{SQLITE_MISUSE, SQLITE_MISUSE, "the query request has no table (make it with QueryRequest::table)",
                std::string()};
  return false;
}

}  // namespace

bool renderScopes(Database& db, const QueryState& state, std::vector<ScopeSpan>& out, Error& error) {
  out.clear();
  if (!checkTable(state, error)) return false;
  SQL unused;
  Renderer renderer(db, state, unused, error);
  return renderer.prepare() && renderer.spans(out);
}

bool isAddedOriginKey(const std::string& name) noexcept { return name.rfind(kAddedOriginKeyPrefix, 0) == 0; }

bool renderPrefetch(Database& db, const QueryState& state, std::size_t index, bool firstRow, SQL& out,
                    std::vector<std::string>& keyColumns, Error& error) {
  out = SQL();
  if (!checkTable(state, error)) return false;
  Renderer renderer(db, state, out, error);
  return renderer.prepare() && renderer.prefetch(index, firstRow, keyColumns);
}

}  // namespace sqlitebridge
