// The query compiler: a request's state becomes SQL text and arguments here,
// and nowhere else. Values go through SQL::value / SQL::list (bound, never
// spliced), names through SQL::identifier (quoteIdentifier), and operands are
// parenthesized by SQLite's precedence so that the text means the tree.
#include "QueryCompiler.hpp"

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
    case NodeKind::Ordering:
    case NodeKind::Alias:
      return kTop;
  }
  return kTop;
}

// The columns a join matches, origin (the request's table) with destination.
struct JoinColumns {
  std::vector<std::string> origin;
  std::vector<std::string> destination;
};

class Renderer {
 public:
  Renderer(Database& db, const QueryState& state, SQL& out, Error& error)
      : db_(db), state_(state), out_(out), error_(error), qualify_(!state.joins.empty()) {}

  // The SELECT of `selection` (the request's own columns and annotations
  // when null); at most one row when `one`.
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
    } else if (!list(*selection, Place::Selection)) {
      return false;
    }
    if (!from()) return false;
    if (!where()) return false;
    if (!state_.groups.empty()) {
      out_.sql(" GROUP BY ");
      if (!list(state_.groups, Place::Expression)) return false;
    }
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

 private:
  // The WHERE of a DELETE or UPDATE: the request's filters, or, for a
  // request that joins, groups or limits, the rows whose primary key (rowid
  // for a table without a declared one; the key columns of a WITHOUT ROWID
  // table) the request selects.
  bool targetRows() {
    const bool plain = state_.joins.empty() && !state_.limit && state_.groups.empty() && state_.havings.empty();
    if (plain) {
      const bool qualify = qualify_;
      qualify_ = false;
      const bool rendered = where();
      qualify_ = qualify;
      return rendered;
    }
    std::vector<std::string> key;
    if (!db_.primaryKey(state_.table, key)) return schemaFailure();
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

  // ORDER BY the request's orderings, each flipped when it is reversed (by
  // its primary key, descending, when reversed without an order).
  bool orderBy() {
    if (state_.orderings.empty()) {
      if (!state_.reversed) return true;
      std::vector<std::string> key;
      if (!db_.primaryKey(state_.table, key)) return schemaFailure();
      out_.sql(" ORDER BY ");
      for (std::size_t i = 0; i < key.size(); ++i) {
        if (i > 0) out_.sql(", ");
        if (qualify_) out_.identifier(state_.table).sql(".");
        out_.identifier(key[i]).sql(" DESC");
      }
      return true;
    }
    out_.sql(" ORDER BY ");
    for (std::size_t i = 0; i < state_.orderings.size(); ++i) {
      if (i > 0) out_.sql(", ");
      const ExpressionNode& node = *QueryAccess::node(state_.orderings[i]);
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

  // The request's own table, as a qualifier where columns are qualified.
  void ownQualifier() {
    if (qualify_) out_.identifier(state_.table).sql(".");
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
      out_.identifier(state_.table).sql(".*");
    } else {
      out_.sql("*");
    }
  }

  bool from() {
    out_.sql(" FROM ").identifier(state_.table);
    for (std::size_t i = 0; i < state_.joins.size(); ++i) {
      const JoinSpec& join = state_.joins[i];
      if (sameIdentifier(join.table, state_.table)) {
        return fail(SQLITE_MISUSE, "cannot join " + quoteIdentifier(join.table) + " to itself");
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (sameIdentifier(state_.joins[j].table, join.table)) {
          return fail(SQLITE_MISUSE,
                      quoteIdentifier(join.table) + " is joined twice to " + quoteIdentifier(state_.table));
        }
      }
      JoinColumns columns;
      if (!resolve(join, columns)) return false;
      out_.sql(join.kind == JoinKind::Required ? " JOIN " : " LEFT JOIN ").identifier(join.table).sql(" ON ");
      for (std::size_t k = 0; k < columns.origin.size(); ++k) {
        if (k > 0) out_.sql(" AND ");
        out_.identifier(join.table).sql(".").identifier(columns.destination[k]);
        out_.sql(" = ").identifier(state_.table).sql(".").identifier(columns.origin[k]);
      }
    }
    return true;
  }

  // The columns of `join`: the caller's, or the one foreign key the schema
  // declares between the two tables, in either direction.
  bool resolve(const JoinSpec& join, JoinColumns& columns) {
    const std::string between = quoteIdentifier(state_.table) + " and " + quoteIdentifier(join.table);
    if (join.columns) {
      columns.origin = join.columns->origin;
      columns.destination = join.columns->destination;
      if (columns.origin.empty()) {
        return fail(SQLITE_MISUSE, "the join of " + between + " names no column of " + quoteIdentifier(state_.table));
      }
      if (columns.destination.empty() && !db_.primaryKey(join.table, columns.destination)) return schemaFailure();
      if (columns.origin.size() != columns.destination.size()) {
        return fail(SQLITE_MISUSE, "the join of " + between + " pairs " + std::to_string(columns.origin.size()) +
                                       " column(s) of " + quoteIdentifier(state_.table) + " with " +
                                       std::to_string(columns.destination.size()) + " of " +
                                       quoteIdentifier(join.table));
      }
      return true;
    }
    std::vector<ForeignKeyInfo> outgoing;
    std::vector<ForeignKeyInfo> incoming;
    if (!db_.foreignKeys(state_.table, outgoing)) return schemaFailure();
    if (!db_.foreignKeys(join.table, incoming)) return schemaFailure();
    std::vector<JoinColumns> found;
    for (const ForeignKeyInfo& key : outgoing) {
      if (!sameIdentifier(key.destinationTable, join.table)) continue;
      JoinColumns candidate{key.columns, key.destinationColumns};
      if (candidate.destination.empty() && !db_.primaryKey(join.table, candidate.destination)) return schemaFailure();
      found.push_back(std::move(candidate));
    }
    for (const ForeignKeyInfo& key : incoming) {
      if (!sameIdentifier(key.destinationTable, state_.table)) continue;
      JoinColumns candidate{key.destinationColumns, key.columns};
      if (candidate.origin.empty() && !db_.primaryKey(state_.table, candidate.origin)) return schemaFailure();
      found.push_back(std::move(candidate));
    }
    if (found.empty()) {
      return fail(SQLITE_ERROR, "no foreign key joins " + between + ": declare one, or give the columns");
    }
    if (found.size() > 1) {
      return fail(SQLITE_ERROR, std::to_string(found.size()) + " foreign keys join " + between +
                                    ": give the columns of the one to use");
    }
    if (found[0].origin.size() != found[0].destination.size()) {
      return fail(SQLITE_ERROR, "the foreign key between " + between + " does not pair its columns");
    }
    columns = std::move(found[0]);
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
        if (!db_.primaryKey(state_.table, key)) return schemaFailure();
        if (key.size() != 1) {
          std::string names;
          for (const std::string& name : key) names += (names.empty() ? "" : ", ") + quoteIdentifier(name);
          return fail(SQLITE_MISUSE, "the primary key of " + quoteIdentifier(state_.table) + " has " +
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
        out_.identifier(state_.table).sql(" MATCH ").value(node.value);
        return true;
      case NodeKind::Alias:
        if (place != Place::Selection) return fail(SQLITE_MISUSE, "aliased(...) stands only in a selection");
        if (!render(*node.left, Place::Expression)) return false;
        out_.sql(" AS ").identifier(node.name);
        return true;
    }
    return fail(SQLITE_MISUSE, "unknown expression");
  }

  Database& db_;
  const QueryState& state_;
  SQL& out_;
  Error& error_;
  bool qualify_;
};

}  // namespace

bool renderQuery(Database& db, const QueryState& state, QueryStatement statement, SQL& out, Error& error,
                 const std::vector<ColumnAssignment>* assignments) {
  out = SQL();
  if (!state.hasTable) {
    error = Error{SQLITE_MISUSE, SQLITE_MISUSE, "the query request has no table (make it with QueryRequest::table)",
                  std::string()};
    return false;
  }
  Renderer renderer(db, state, out, error);
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

}  // namespace sqlitebridge
