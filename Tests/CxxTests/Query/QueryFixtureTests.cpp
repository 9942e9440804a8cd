// The shared fixture Tests/Fixtures/query-interface.json (issue 40): query
// requests described neutrally, each with the SQL text and arguments the
// core renders for it. The core owns the rendering; this suite builds every
// case through Query.hpp, checks the text and arguments against the
// committed file and runs each case on the fixture's schema; the Swift suite
// builds the same cases through the Swift face and must get the same text.
//
// Format (documented for both suites; also in Tests/Fixtures/README.md):
//   {"about", "generatedBy", "schema": SQL script the cases run on,
//    "cases": [{"name", "request": REQUEST, "sql": text, "arguments": [VALUE]}]}
//   VALUE: null | {"integer": n} | {"real": x} | {"text": "s"} | {"blob": "hex"}
//   EXPR:  {"column": "c"} | {"column": "c", "table": "t"} | {"value": VALUE}
//        | {"op": "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "+" | "-" | "*" | "/", "args": [EXPR, EXPR]}
//        | {"op": "!" | "negate", "args": [EXPR]}
//        | {"isNull": EXPR} | {"isNotNull": EXPR} | {"like": [EXPR, EXPR]} | {"in": EXPR, "values": [VALUE]}
//        | {"function": "count" | "countDistinct" | "sum" | "total" | "min" | "max" | "average" | "length" | "abs",
//           "args": [EXPR]} | {"function": "countAll", "args": []}
//        | {"asc": EXPR} | {"desc": EXPR} (in "order" only) | {"alias": "name", "of": EXPR} | {"allColumns": true}
//          (both in "select" only)
//   REQUEST: {"table": "t", and any of: "joins": [{"table", "association": "belongsTo" | "hasOne" | "hasMany",
//             "key": k (when not the table's name), "kind": "joiningRequired" | "joiningOptional" |
//             "includingRequired" | "includingOptional", "origin": [c], "destination": [c]}
//             (the column lists only when given explicitly; origin: the child's columns)],
//             "filters": [EXPR] (one filter call each), "select": [EXPR], "distinct": true, "group": [EXPR],
//             "having": [EXPR] (one having call each), "order": [EXPR], "limit": n, "offset": n}
//   EXPR also {"associationCount": JOIN} (the association's count for the row);
//   and (issue 40, second part): "keys": [VALUE] (filterKeys), "matching": "pattern" | null,
//             "annotated": [EXPR], "reversed": true; EXPR also {"ascNullsLast": EXPR} | {"descNullsFirst": EXPR}.
//   A case may add "statement": "selectOne" | "count" | "delete" | "update" (default: the select) and, for
//   an update, "assignments": [{"column": c, "value": EXPR}].
//   Built in that key order: table, joins, keys, filters, matching, select, annotated, distinct, group,
//   having, order, reversed, limit/offset.
//
// Regenerate after a deliberate change of the rendering:
//   SQLITEBRIDGE_WRITE_FIXTURES=1 build/default/Tests/CxxTests/sqlitebridge-cxx-tests \
//     --gtest_filter='QueryInterfaceFixture*'
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "FixtureSupport.hpp"
#include "sqlitebridge/interop/Query.hpp"
#include "HostileSupport.hpp"
#include "QueryTestSupport.hpp"

using namespace sqlitebridge;
using namespace sqlitebridge_test;

namespace {

// A fixture expression: its neutral JSON and the same expression built
// through Query.hpp, made together by the functions below.
struct Node {
  std::string json;
  Expression expression;
};

std::string valueJSON(const Value& v) {
  switch (v.type()) {
    case ValueType::Null:
      return "null";
    case ValueType::Integer:
      return "{\"integer\": " + std::to_string(v.asInteger()) + "}";
    case ValueType::Real: {
      char text[40];
      std::snprintf(text, sizeof text, "%.17g", v.asReal());
      return std::string("{\"real\": ") + text + "}";
    }
    case ValueType::Text:
      return "{\"text\": " + jsonString(v.asText()) + "}";
    case ValueType::Blob: {
      std::string hex;
      char byte[3];
      for (std::uint8_t b : v.asBlob()) {
        std::snprintf(byte, sizeof byte, "%02x", b);
        hex += byte;
      }
      return "{\"blob\": \"" + hex + "\"}";
    }
  }
  return "null";
}

template <typename Items, typename Render>
std::string jsonList(const Items& items, Render render) {
  std::string out = "[";
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    out += render(item);
  }
  return out + "]";
}

std::string nodesJSON(const std::vector<Node>& nodes) {
  return jsonList(nodes, [](const Node& n) { return n.json; });
}

std::vector<Expression> expressions(const std::vector<Node>& nodes) {
  std::vector<Expression> out;
  for (const Node& n : nodes) out.push_back(n.expression);
  return out;
}

Node col(const std::string& name) { return {"{\"column\": " + jsonString(name) + "}", column(name)}; }
Node col(const std::string& table, const std::string& name) {
  return {"{\"column\": " + jsonString(name) + ", \"table\": " + jsonString(table) + "}", column(table, name)};
}
Node val(const Value& v) { return {"{\"value\": " + valueJSON(v) + "}", value(v)}; }

Node op(const std::string& symbol, const Node& a, const Node& b) {
  Expression e;
  if (symbol == "==") e = a.expression == b.expression;
  if (symbol == "!=") e = a.expression != b.expression;
  if (symbol == "<") e = a.expression < b.expression;
  if (symbol == "<=") e = a.expression <= b.expression;
  if (symbol == ">") e = a.expression > b.expression;
  if (symbol == ">=") e = a.expression >= b.expression;
  if (symbol == "&&") e = a.expression && b.expression;
  if (symbol == "||") e = a.expression || b.expression;
  if (symbol == "+") e = a.expression + b.expression;
  if (symbol == "-") e = a.expression - b.expression;
  if (symbol == "*") e = a.expression * b.expression;
  if (symbol == "/") e = a.expression / b.expression;
  return {"{\"op\": " + jsonString(symbol) + ", \"args\": [" + a.json + ", " + b.json + "]}", e};
}
Node notOf(const Node& a) { return {"{\"op\": \"!\", \"args\": [" + a.json + "]}", !a.expression}; }
Node negate(const Node& a) { return {"{\"op\": \"negate\", \"args\": [" + a.json + "]}", -a.expression}; }
Node isNullOf(const Node& a) { return {"{\"isNull\": " + a.json + "}", a.expression.isNull()}; }
Node isNotNullOf(const Node& a) { return {"{\"isNotNull\": " + a.json + "}", a.expression.isNotNull()}; }
Node likeOf(const Node& a, const Node& pattern) {
  return {"{\"like\": [" + a.json + ", " + pattern.json + "]}", a.expression.like(pattern.expression)};
}
Node inOf(const Node& a, const std::vector<Value>& values) {
  return {"{\"in\": " + a.json + ", \"values\": " + jsonList(values, valueJSON) + "}", a.expression.in(values)};
}
Node fn(const std::string& name, const Node& a) {
  Expression e;
  if (name == "count") e = count(a.expression);
  if (name == "countDistinct") e = countDistinct(a.expression);
  if (name == "sum") e = sum(a.expression);
  if (name == "total") e = total(a.expression);
  if (name == "min") e = min(a.expression);
  if (name == "max") e = max(a.expression);
  if (name == "average") e = average(a.expression);
  if (name == "length") e = length(a.expression);
  if (name == "abs") e = abs(a.expression);
  return {"{\"function\": " + jsonString(name) + ", \"args\": [" + a.json + "]}", e};
}
Node countStar() { return {"{\"function\": \"countAll\", \"args\": []}", countAll()}; }
Node asc(const Node& a) { return {"{\"asc\": " + a.json + "}", a.expression.asc()}; }
Node desc(const Node& a) { return {"{\"desc\": " + a.json + "}", a.expression.desc()}; }
Node ascNullsLast(const Node& a) { return {"{\"ascNullsLast\": " + a.json + "}", a.expression.ascNullsLast()}; }
Node descNullsFirst(const Node& a) { return {"{\"descNullsFirst\": " + a.json + "}", a.expression.descNullsFirst()}; }
Node alias(const Node& a, const std::string& name) {
  return {"{\"alias\": " + jsonString(name) + ", \"of\": " + a.json + "}", a.expression.aliased(name)};
}
Node everyColumn() { return {"{\"allColumns\": true}", allColumns()}; }

// One association of a request: its destination, direction, key (empty:
// the default), how it is used, and explicit columns (origin: the child's).
struct Join {
  std::string table;
  JoinKind kind = JoinKind::Required;
  std::optional<ForeignKeyColumns> columns;
  AssociationKind association = AssociationKind::BelongsTo;
  bool selected = false;
  std::string key;

  Association built() const {
    Association a = association == AssociationKind::BelongsTo ? Association::belongsTo(table, columns)
                    : association == AssociationKind::HasOne  ? Association::hasOne(table, columns)
                                                              : Association::hasMany(table, columns);
    return key.empty() ? a : a.forKey(key);
  }

  IncludeKind include() const {
    if (selected) return kind == JoinKind::Required ? IncludeKind::IncludingRequired : IncludeKind::IncludingOptional;
    return kind == JoinKind::Required ? IncludeKind::JoiningRequired : IncludeKind::JoiningOptional;
  }

  std::string json() const {
    const auto names = [](const std::vector<std::string>& list) { return jsonList(list, jsonString); };
    std::string j = "{\"table\": " + jsonString(table) + ", \"association\": \"" +
                    (association == AssociationKind::BelongsTo ? "belongsTo"
                     : association == AssociationKind::HasOne  ? "hasOne"
                                                               : "hasMany") +
                    "\"";
    if (!key.empty()) j += ", \"key\": " + jsonString(key);
    j += std::string(", \"kind\": \"") + (selected ? "including" : "joining") +
         (kind == JoinKind::Required ? "Required" : "Optional") + "\"";
    if (columns) {
      j += ", \"origin\": " + names(columns->origin) + ", \"destination\": " + names(columns->destination);
    }
    return j + "}";
  }
};

Node associationCount(const Join& join) {
  return {"{\"associationCount\": " + join.json() + "}", join.built().count()};
}

// A neutral request, built in the documented key order.
struct Request {
  std::string table;
  std::vector<Join> joins;
  std::vector<Node> filters;
  std::vector<Node> select;
  bool distinct = false;
  std::vector<Node> group;
  std::vector<Node> having;
  std::vector<Node> order;
  std::optional<std::int64_t> limit;
  std::optional<std::int64_t> offset;
  std::optional<std::vector<Value>> keys;
  std::optional<std::optional<std::string>> matching;
  std::vector<Node> annotated;
  bool reversed = false;

  std::string json() const {
    const auto names = [](const std::vector<std::string>& list) { return jsonList(list, jsonString); };
    std::string out = "{\"table\": " + jsonString(table);
    if (!joins.empty()) out += ", \"joins\": " + jsonList(joins, [](const Join& join) { return join.json(); });
    if (keys) out += ", \"keys\": " + jsonList(*keys, valueJSON);
    if (!filters.empty()) out += ", \"filters\": " + nodesJSON(filters);
    if (matching) out += ", \"matching\": " + (*matching ? jsonString(**matching) : std::string("null"));
    if (!select.empty()) out += ", \"select\": " + nodesJSON(select);
    if (!annotated.empty()) out += ", \"annotated\": " + nodesJSON(annotated);
    if (distinct) out += ", \"distinct\": true";
    if (!group.empty()) out += ", \"group\": " + nodesJSON(group);
    if (!having.empty()) out += ", \"having\": " + nodesJSON(having);
    if (!order.empty()) out += ", \"order\": " + nodesJSON(order);
    if (reversed) out += ", \"reversed\": true";
    if (limit) out += ", \"limit\": " + std::to_string(*limit);
    if (offset) out += ", \"offset\": " + std::to_string(*offset);
    return out + "}";
  }

  QueryRequest build() const {
    QueryRequest request = QueryRequest::table(table);
    for (const Join& join : joins) request = request.including(join.built(), join.include());
    if (keys) request = request.filterKeys(*keys);
    for (const Node& filter : filters) request = request.filter(filter.expression);
    if (matching) request = request.matching(*matching);
    if (!select.empty()) request = request.select(expressions(select));
    if (!annotated.empty()) request = request.annotated(expressions(annotated));
    if (distinct) request = request.distinct();
    if (!group.empty()) request = request.group(expressions(group));
    for (const Node& predicate : having) request = request.having(predicate.expression);
    if (!order.empty()) request = request.order(expressions(order));
    if (reversed) request = request.reversed();
    if (limit) request = request.limit(*limit, offset);
    return request;
  }
};

// Which statement of the request a case renders ("select" unless said).
enum class Statement { Select, SelectOne, Count, Delete, Update };

struct Case {
  std::string name;
  Request request;
  Statement statement = Statement::Select;
  std::vector<std::pair<std::string, Node>> assignments;

  std::string statementName() const {
    switch (statement) {
      case Statement::SelectOne:
        return "selectOne";
      case Statement::Count:
        return "count";
      case Statement::Delete:
        return "delete";
      case Statement::Update:
        return "update";
      default:
        return "select";
    }
  }

  std::vector<ColumnAssignment> built() const {
    std::vector<ColumnAssignment> result;
    for (const auto& [name, node] : assignments) result.push_back(assign(name, node.expression));
    return result;
  }

  std::string assignmentsJSON() const {
    return jsonList(assignments, [](const std::pair<std::string, Node>& a) {
      return "{\"column\": " + jsonString(a.first) + ", \"value\": " + a.second.json + "}";
    });
  }

  // Renders the case's statement.
  bool render(Database& db, SQL& sql) const {
    const QueryRequest built = request.build();
    switch (statement) {
      case Statement::Select:
        return built.makeSQL(db, sql);
      case Statement::SelectOne:
        // What Database::fetchOne and the Swift face's fetchOne run.
        return interop::QueryBuilding::render(db, built, interop::RequestStatement::SelectOne, {}, sql);
      case Statement::Count:
        return built.makeCountSQL(db, sql);
      case Statement::Delete:
        return built.makeDeleteSQL(db, sql);
      case Statement::Update:
        return built.makeUpdateSQL(db, this->built(), sql);
    }
    return false;
  }
};

const char* kHostileTable = "odd\"; DROP TABLE books; --";
const char* kHostileColumn = "col'); DELETE FROM books; --";

std::string fixtureSchema() {
  return std::string(librarySchema()) + "CREATE TABLE " + quoted(kHostileTable) + " (id INTEGER PRIMARY KEY, " +
         quoted(kHostileColumn) + " TEXT, bookId INTEGER REFERENCES books(id));" + "INSERT INTO " +
         quoted(kHostileTable) + " VALUES (1, 'x'' OR 1=1 --', 1);" +
         "CREATE VIRTUAL TABLE docs USING fts5(body);INSERT INTO docs VALUES ('red apple'), ('green pear');";
}

std::vector<Case> cases() {
  const Node id = col("id"), year = col("year"), title = col("title"), authorId = col("authorId");
  std::vector<Case> all;
  const auto add = [&](std::string name, Request request, Statement statement = Statement::Select,
                       std::vector<std::pair<std::string, Node>> assignments = {}) {
    all.push_back({std::move(name), std::move(request), statement, std::move(assignments)});
  };
  Request r;
  r.table = "books";
  add("every row", r);
  for (const char* symbol : {"==", "!=", "<", "<=", ">", ">="}) {
    Request c = r;
    c.filters = {op(symbol, year, val(2000))};
    add(std::string("comparison ") + symbol, c);
  }
  {
    Request c = r;
    c.filters = {op("==", year, val(Value())), op("!=", val(Value()), authorId)};
    add("== NULL and != NULL render IS NULL and IS NOT NULL", c);
  }
  {
    Request c = r;
    c.filters = {isNullOf(year), isNotNullOf(authorId)};
    add("isNull and isNotNull", c);
  }
  {
    Request c = r;
    c.filters = {likeOf(title, val("A%")), inOf(id, {1, 2, 3})};
    add("like and in", c);
  }
  {
    Request c = r;
    c.filters = {inOf(id, {})};
    add("in an empty list", c);
  }
  {
    Request c = r;
    c.filters = {op("&&", op("||", op("==", id, val(1)), op("==", id, val(2))), notOf(op(">", year, val(2000))))};
    add("and, or, not and their parentheses", c);
  }
  {
    Request c = r;
    c.filters = {op("||", op("==", id, val(1)), op("&&", op("==", id, val(2)), op("==", id, val(3))))};
    add("and binds tighter than or: no parentheses", c);
  }
  {
    Request c = r;
    c.select = {op("*", op("+", id, val(1)), val(2)), op("-", id, op("-", year, val(1))),
                op("/", year, op("*", id, val(2))), negate(op("+", id, year)), negate(negate(id))};
    add("arithmetic and its parentheses", c);
  }
  {
    Request c = r;
    c.select = {fn("count", id),     fn("countDistinct", authorId),
                countStar(),         fn("sum", year),
                fn("total", year),   fn("min", year),
                fn("max", year),     fn("average", year),
                fn("length", title), fn("abs", op("-", val(0), year))};
    add("every function", c);
  }
  {
    Request c = r;
    c.select = {authorId, alias(fn("count", id), "n")};
    c.filters = {isNotNullOf(authorId)};
    c.group = {authorId};
    c.having = {op(">", fn("count", id), val(0)), op("<", fn("max", year), val(3000))};
    c.order = {desc(col("n")), authorId};
    add("group, having, alias", c);
  }
  {
    Request c;
    c.table = "authors";
    c.select = {col("country")};
    c.distinct = true;
    c.order = {asc(col("country"))};
    add("distinct", c);
  }
  {
    Request c = r;
    c.order = {desc(year), asc(title)};
    c.limit = 2;
    c.offset = 1;
    add("order, limit and offset", c);
  }
  {
    Request c = r;
    c.limit = 3;
    add("limit without offset", c);
  }
  {
    Request c = r;
    c.select = {everyColumn(), alias(op("+", year, val(1)), "next")};
    add("all columns beside an expression", c);
  }
  {
    Request c = r;
    c.filters = {op("==", title, val("it's")), op("==", year, val(1.5)),
                 op("!=", title, val(Value::fromBlob(std::vector<std::uint8_t>{0x00, 0xff})))};
    add("text, real and blob values are bound", c);
  }
  {
    Request c = r;
    c.joins = {{"authors", JoinKind::Required, std::nullopt, AssociationKind::BelongsTo}};
    add("required join on the child's foreign key", c);
  }
  {
    Request c;
    c.table = "authors";
    c.joins = {{"books", JoinKind::Optional, std::nullopt, AssociationKind::HasMany}};
    c.filters = {op(">", col("books", "year"), val(2000))};
    add("optional join on the parent's side, filtered on the joined table", c);
  }
  {
    Request c;
    c.table = "reviews";
    c.joins = {{"books", JoinKind::Required, std::nullopt, AssociationKind::BelongsTo}};
    c.select = {col("stars"), col("books", "title")};
    c.order = {desc(col("stars"))};
    add("join on an implicit primary key reference", c);
  }
  {
    Request c;
    c.table = "translations";
    c.joins = {
        {"authors", JoinKind::Optional, ForeignKeyColumns{{"translatorId"}, {"id"}}, AssociationKind::BelongsTo}};
    add("join on explicit columns", c);
  }
  {
    Request c;
    c.table = kHostileTable;
    c.joins = {{"books", JoinKind::Required, std::nullopt, AssociationKind::BelongsTo}};
    c.select = {alias(col(kHostileColumn), kHostileColumn)};
    c.filters = {op("==", col(kHostileColumn), val("x' OR 1=1 --")),
                 op("!=", col("books", "title"), val("'); DROP TABLE books; --"))};
    c.order = {asc(col(kHostileColumn))};
    add("hostile names are quoted, hostile values bound", c);
  }
  {
    Request c;
    c.table = "translations";
    c.joins = {{"authors", JoinKind::Required, ForeignKeyColumns{{"authorId"}, {}}, AssociationKind::BelongsTo, true,
                "author"},
               {"authors", JoinKind::Optional, ForeignKeyColumns{{"translatorId"}, {}}, AssociationKind::BelongsTo,
                true, "translator"}};
    add("two associations to one table, selected under their keys", c);
  }
  {
    Request c;
    c.table = "authors";
    c.annotated = {alias(associationCount({"books", JoinKind::Required, std::nullopt, AssociationKind::HasMany}), "n")};
    c.order = {desc(col("n"))};
    add("an association's count as an annotation", c);
  }
  {
    Request c = r;
    c.keys = std::vector<Value>{Value(std::int64_t{2})};
    add("filter by primary key", c);
    c.keys = std::vector<Value>{Value(std::int64_t{1}), Value(std::int64_t{3})};
    c.filters = {op(">", year, val(1000))};
    add("filter by primary keys, then a filter", c);
    c.keys = std::vector<Value>{};
    c.filters = {};
    add("filter by no key", c);
  }
  {
    Request c = r;
    c.reversed = true;
    add("reversed without an order: the primary key descending", c);
    c.order = {ascNullsLast(year), title, descNullsFirst(authorId), desc(id)};
    add("reversed flips every ordering", c);
    c.reversed = false;
    add("nulls first and last", c);
  }
  {
    Request c = r;
    c.annotated = {alias(op("+", year, val(1)), "next")};
    add("annotated after every column", c);
    c.select = {title};
    add("annotated after a selection", c);
  }
  {
    Request c;
    c.table = "docs";
    c.matching = std::optional<std::string>("red OR pear");
    add("matching binds the pattern", c);
    c.matching = std::optional<std::string>();
    add("matching no pattern matches nothing", c);
  }
  {
    // On reviews, which no foreign key references (a delete stays legal).
    Request c;
    c.table = "reviews";
    const Node stars = col("stars");
    c.filters = {op(">", stars, val(3))};
    add("count of a plain request", c, Statement::Count);
    add("delete of a plain request", c, Statement::Delete);
    add("update of a plain request", c, Statement::Update, {{"stars", op("+", stars, val(1))}, {"bookId", val(3)}});
    c.order = {desc(stars)};
    c.limit = 1;
    add("count of a limited request", c, Statement::Count);
    add("delete of a limited request, by primary key", c, Statement::Delete);
    add("update of a limited request, by primary key", c, Statement::Update, {{"stars", val(Value())}});
    c.filters = {};
    c.limit = 2;
    c.offset = 1;
    add("first row within the limit and offset", c, Statement::SelectOne);
  }
  return all;
}

std::string fixtureText() {
  Database db = Database::open(":memory:");
  EXPECT_TRUE(db.executeScript(fixtureSchema())) << db.error();
  std::ostringstream text;
  text << "{\n"
       << R"(  "about": "Query requests described neutrally (format: Tests/Fixtures/README.md), each with the SQL )"
       << R"(text and arguments the core renders for it on the schema below. Both suites build every case through )"
       << R"(their face of the query interface and must render exactly this.",)" << "\n"
       << R"(  "generatedBy": "SQLITEBRIDGE_WRITE_FIXTURES=1 build/default/Tests/CxxTests/sqlitebridge-cxx-tests )"
       << R"(--gtest_filter='QueryInterfaceFixture*'",)" << "\n"
       << "  \"schema\": " << jsonString(fixtureSchema()) << ",\n"
       << "  \"cases\": [\n";
  const std::vector<Case> all = cases();
  for (std::size_t k = 0; k < all.size(); ++k) {
    const QueryRequest request = all[k].request.build();
    SQL sql;
    EXPECT_TRUE(all[k].render(db, sql)) << all[k].name << ": " << db.error();
    // Every case runs on the schema (in a transaction rolled back after).
    EXPECT_TRUE(db.executeScript("SAVEPOINT fixture")) << db.error();
    EXPECT_TRUE(db.execute(sql)) << all[k].name << ": " << db.error();
    EXPECT_TRUE(db.executeScript("ROLLBACK TO fixture; RELEASE fixture")) << db.error();
    text << "    {\"name\": " << jsonString(all[k].name) << ",\n"
         << "     \"request\": " << all[k].request.json() << ",\n";
    if (all[k].statement != Statement::Select) text << "     \"statement\": \"" << all[k].statementName() << "\",\n";
    if (!all[k].assignments.empty()) text << "     \"assignments\": " << all[k].assignmentsJSON() << ",\n";
    text << "     \"sql\": " << jsonString(sql.text()) << ",\n"
         << "     \"arguments\": " << jsonList(sql.arguments(), valueJSON) << "}"
         << (k + 1 < all.size() ? ",\n" : "\n");
  }
  text << "  ]\n}\n";
  // The hostile case left the tables it aims at as they were.
  EXPECT_EQ(scalarInteger(db, "SELECT COUNT(*) FROM books"), 4);
  return text.str();
}

}  // namespace

TEST(QueryInterfaceFixture, EveryCaseRendersAsTheCommittedFixture) {
  expectCommittedFixture("query-interface.json", fixtureText());
}
