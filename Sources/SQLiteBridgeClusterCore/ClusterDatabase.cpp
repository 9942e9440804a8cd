// ClusterDatabase: a client of a dqlite 1.11 cluster. Finds the leader,
// keeps following it, and applies the retry rules (ClusterDatabase.hpp): a
// request is sent again only when the client knows it did not run (it left
// incomplete, or the node answered NOT_LEADER) or when running it twice
// changes nothing (a read outside a transaction); anything else whose
// outcome is unknown is reported in doubt.
#include "sqlitebridge/cluster/ClusterDatabase.hpp"

#include <algorithm>
#include <list>
#include <thread>
#include <unordered_map>

#include "ClusterConnection.hpp"
#include "ClusterGuards.hpp"
#include "ClusterShadowSchema.hpp"
#include "ClusterStatements.hpp"
#include "SqlText.hpp"
#include "sqlitebridge/SQLite.hpp"
#include "sqlitebridge/StatementText.hpp"

namespace sqlitebridge {

namespace {

// dqlite's own extended codes (SQLITE_IOERR | 40 << 8, | 41 << 8).
constexpr int kNotLeader = SQLITE_IOERR | (40 << 8);
constexpr int kLeadershipLost = SQLITE_IOERR | (41 << 8);
// Raft's number for "not leader" (raft.h), which dqlite 1.11 passes on as
// it is when raft_apply refuses a write at once.
constexpr std::uint64_t kRaftNotLeader = 7;
// Prepared statements kept per connection to the leader.
constexpr std::size_t kCachedStatements = 64;

Error makeError(int extendedCode, std::string message, std::string sql = std::string()) {
  return Error{primaryResultCode(extendedCode), extendedCode, std::move(message), std::move(sql)};
}

}  // namespace

struct ClusterDatabase::Impl {
  /// How one attempt at a request went.
  enum class Attempt { Done, Failed, NotSent, Lost, NotLeader, LeadershipLost, Busy };

  std::string name;
  /// Whether the database `name` is opened on the leader (not for a
  /// membership-only client).
  bool opensDatabase = true;
  bool isOpen = false;
  ClusterConfiguration configuration;
  /// Where to look for the leader: the configured servers, then the members
  /// learned from the cluster.
  std::vector<std::string> addresses;
  std::unique_ptr<ClusterConnection> connection;
  Error error;
  std::int64_t lastInsertRowId = 0;
  std::int64_t changes = 0;
  std::vector<std::string> columnNames;

  // The transaction, as the statements this client sent tell it.
  bool inTransaction = false;
  bool openedBySavepoint = false;
  std::vector<std::string> savepoints;
  /// The transaction went with its connection, or the node rolled it back
  /// by itself: every statement but COMMIT and ROLLBACK fails until one of
  /// them ends it here too.
  bool transactionLost = false;
  /// It went with the connection before COMMIT was sent (not after a
  /// statement failed): a write block may run again.
  bool lostWithConnection = false;
  Error lostError;
  bool inWriteBlock = false;

  // Guards (ClusterGuards.hpp) on the current connection: made again
  // before the next write after the schema may have changed.
  bool guardsStale = true;
  /// The local copy of the schema (reads are checked against it, the
  /// guards made from it), and whether it must be fetched again.
  ClusterShadowSchema shadow;
  bool schemaStale = true;
  /// Guards or the schema's copy were made inside the open transaction,
  /// which may still roll the schema back.
  bool madeInTransaction = false;
  std::vector<std::string> guardNames;
  /// The leader's `PRAGMA schema_version` when the copy was last found
  /// current (-1: not known), and whether it was checked in the open
  /// transaction (whose snapshot then holds it).
  std::int64_t shadowVersion = -1;
  bool versionChecked = false;

  // Prepared statements on the current connection: SQL -> id and
  // parameter count, oldest first.
  struct Prepared {
    std::uint32_t id;
    std::uint64_t parameters;
  };
  std::list<std::string> preparedOrder;
  std::unordered_map<std::string, std::pair<Prepared, std::list<std::string>::iterator>> prepared;

  bool fail(Error failure) {
    error = std::move(failure);
    return false;
  }

  Deadline requestDeadline(Deadline overall) const noexcept {
    return Deadline::earlier(overall, Deadline::in(configuration.retryTimeoutMilliseconds));
  }

  void dropConnection() noexcept {
    connection.reset();
    prepared.clear();
    preparedOrder.clear();
    guardNames.clear();
    guardsStale = true;
    schemaStale = true;
    versionChecked = false;
    if (inTransaction) {
      inTransaction = false;
      openedBySavepoint = false;
      savepoints.clear();
      transactionLost = true;
      lostWithConnection = true;
    }
  }

  // MARK: Finding the leader

  /// One attempt at `address`: the leader it names, connected, the
  /// database open. Null (with `problem`) when that fails.
  std::unique_ptr<ClusterConnection> tryLeaderThrough(const std::string& address, Deadline overall,
                                                      std::string& problem) {
    const Deadline attempt = Deadline::earlier(overall, Deadline::in(configuration.connectTimeoutMilliseconds));
    std::unique_ptr<ClusterConnection> candidate = ClusterConnection::open(address, attempt, problem);
    if (!candidate) return nullptr;
    std::string leaderAddress;
    if (!askLeader(*candidate, overall, leaderAddress, problem)) return nullptr;
    if (leaderAddress.empty()) {
      problem = "knows of no leader";
      return nullptr;
    }
    if (leaderAddress != address) {
      const Deadline second = Deadline::earlier(overall, Deadline::in(configuration.connectTimeoutMilliseconds));
      std::string again;
      candidate = ClusterConnection::open(leaderAddress, second, problem);
      if (!candidate) {
        problem = "names " + leaderAddress + " as leader, which cannot be reached: " + problem;
        return nullptr;
      }
      if (!askLeader(*candidate, overall, again, problem)) return nullptr;
      if (again != leaderAddress) {
        problem = "names " + leaderAddress + " as leader, which names " + (again.empty() ? "none" : again);
        return nullptr;
      }
    }
    if (!opensDatabase) return candidate;
    wire::BodyWriter open;
    open.text(name);
    open.u64(0);  // flags: dqlite opens read-write, creating
    open.text("volatile");
    wire::Message answer;
    if (candidate->call(wire::Open, open.take(), requestDeadline(overall), answer, problem) !=
        ClusterConnection::Outcome::Answered) {
      return nullptr;
    }
    std::uint32_t id = 0;
    if (!expectAnswer(answer, problem) || !wire::decodeDb(answer, id, problem)) return nullptr;
    return candidate;
  }

  bool askLeader(ClusterConnection& node, Deadline overall, std::string& leaderAddress, std::string& problem) {
    wire::BodyWriter body;
    body.u64(0);
    wire::Message answer;
    if (node.call(wire::Leader, body.take(), requestDeadline(overall), answer, problem) !=
        ClusterConnection::Outcome::Answered) {
      return false;
    }
    std::uint64_t id = 0;
    return expectAnswer(answer, problem) && wire::decodeServer(answer, id, leaderAddress, problem);
  }

  /// False (with the node's message in `problem`) for a FAILURE answer.
  static bool expectAnswer(const wire::Message& answer, std::string& problem) {
    if (answer.type != wire::Failure) return true;
    std::uint64_t code = 0;
    std::string message;
    if (wire::decodeFailure(answer, code, message, problem)) {
      problem = message + " (" + std::to_string(code) + ")";
    }
    return false;
  }

  /// Connects to the leader before `overall`, trying every known address
  /// in turn, with a growing pause between rounds (never spinning).
  bool connect(Deadline overall) {
    int pause = 25;
    std::vector<std::string> tried;
    for (;;) {
      tried.clear();
      std::vector<std::string> candidates = addresses;
      for (const std::string& candidate : candidates) {
        std::string problem;
        std::unique_ptr<ClusterConnection> leader = tryLeaderThrough(candidate, overall, problem);
        if (leader) {
          connection = std::move(leader);
          learnMembers(overall);
          return true;
        }
        tried.push_back(candidate + ": " + problem);
        if (overall.passed()) break;
      }
      if (overall.passed() || Deadline::in(pause).at >= overall.at) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(pause));
      pause = std::min(pause * 2, 1000);
    }
    std::string message = "no leader of the dqlite cluster answered within " +
                          std::to_string(configuration.retryTimeoutMilliseconds) + " ms";
    for (std::size_t i = 0; i < tried.size(); ++i) message += (i == 0 ? ": " : "; ") + tried[i];
    return fail(makeError(SQLITE_CANTOPEN, message));
  }

  /// Adds the members' addresses to where the leader is looked for, so
  /// that the client finds a new leader when the configured servers die.
  void learnMembers(Deadline overall) {
    wire::BodyWriter body;
    body.u64(1);  // format 1: with roles
    wire::Message answer;
    std::string problem;
    std::vector<ClusterMember> members;
    if (connection->call(wire::Cluster, body.take(), requestDeadline(overall), answer, problem) !=
            ClusterConnection::Outcome::Answered ||
        !wire::decodeServers(answer, members, problem)) {
      return;  // only a help: the configured servers still work
    }
    for (const ClusterMember& member : members) {
      if (std::find(addresses.begin(), addresses.end(), member.address) == addresses.end()) {
        addresses.push_back(member.address);
      }
    }
  }

  // MARK: Guards

  /// Fetches the schema's copy again when it may be stale (or when
  /// `force`). An attempt's outcome, as `attempt` gives it; nothing of the
  /// caller's statement was sent yet.
  Attempt refreshSchema(Deadline overall, Error& failure, bool force = false) {
    if (!schemaStale && !force) return Attempt::Done;
    std::vector<Row> rows;
    const Attempt step =
        attempt(ClusterShadowSchema::query(), {}, ClusterStatementKind::Read, &rows, overall, failure, false);
    if (step != Attempt::Done) return step == Attempt::Lost ? Attempt::NotSent : step;
    shadow.rebuild(rows);
    schemaStale = false;
    guardsStale = true;  // made from the copy: made again from the new one
    madeInTransaction = madeInTransaction || inTransaction;
    return Attempt::Done;
  }

  /// Sends a request of `type` whose body is the database's id and `sql`
  /// (PREPARE, EXEC_SQL) and reads its answer.
  ClusterConnection::Outcome sendSql(std::uint8_t type, const std::string& sql, Deadline overall, wire::Message& answer,
                                     std::string& problem) {
    wire::BodyWriter body;
    body.u64(0);
    body.text(sql);
    return connection->call(type, body.take(), requestDeadline(overall), answer, problem);
  }

  /// Asks the leader for its `PRAGMA schema_version` and marks the copy
  /// stale when it changed (another client changed the schema: its new
  /// tables need guards before this client writes). Once per transaction.
  Attempt checkSchemaVersion(Deadline overall, Error& failure) {
    if (inTransaction && versionChecked) return Attempt::Done;
    std::vector<Row> rows;
    const std::vector<std::string> keptNames = columnNames;
    const Attempt step =
        attempt("PRAGMA schema_version", {}, ClusterStatementKind::Read, &rows, overall, failure, false);
    columnNames = keptNames;
    if (step != Attempt::Done) return step == Attempt::Lost ? Attempt::NotSent : step;
    const bool known = rows.size() == 1 && rows[0].size() == 1 && rows[0].value(0).type() == ValueType::Integer;
    const std::int64_t version = known ? rows[0].value(0).asInteger() : -1;
    if (!known || version != shadowVersion) schemaStale = true;
    shadowVersion = version;
    versionChecked = inTransaction;
    return Attempt::Done;
  }

  /// Makes the guards when they may be stale; before a statement that
  /// writes rows (`writes`), first asks whether another client changed the
  /// schema. An attempt's outcome, as `attempt` gives it (nothing of the
  /// caller's statement was sent yet).
  Attempt installGuards(Deadline overall, Error& failure, bool writes) {
    Attempt step = writes ? checkSchemaVersion(overall, failure) : Attempt::Done;
    if (step != Attempt::Done) return step;
    step = refreshSchema(overall, failure);
    if (step != Attempt::Done) return step;
    if (!guardsStale) return Attempt::Done;
    const std::string script = clusterGuardScript(shadow.guardedColumns(), guardNames);
    if (!script.empty()) {
      wire::Message answer;
      std::string problem;
      const ClusterConnection::Outcome outcome = sendSql(wire::ExecSql, script, overall, answer, problem);
      if (outcome != ClusterConnection::Outcome::Answered) {
        // Guards are the connection's own: whatever happened to them went
        // with it, and the caller's statement was not sent.
        failure = makeError(SQLITE_IOERR, "making the client's guards on the leader failed: " + problem);
        return Attempt::NotSent;
      }
      if (answer.type == wire::Failure) {
        step = nodeFailure(answer, std::string(), failure);
        failure.message = "making the client's guards on the leader failed: " + failure.message;
        return step;
      }
    }
    guardsStale = false;
    madeInTransaction = madeInTransaction || inTransaction;
    return Attempt::Done;
  }

  /// Refuses a read whose result could hand the leader a value it aborts
  /// on (ClusterShadowSchema.hpp), before it is sent.
  Attempt checkRead(const std::string& sql, Deadline overall, Error& failure) {
    Attempt step = refreshSchema(overall, failure);
    if (step != Attempt::Done) return step;
    std::string problem;
    ClusterShadowSchema::Verdict verdict = shadow.check(sql, problem);
    if (verdict == ClusterShadowSchema::Verdict::Unknown) {
      // Perhaps made by another client since the copy was taken.
      step = refreshSchema(overall, failure, true);
      if (step != Attempt::Done) return step;
      verdict = shadow.check(sql, problem);
    }
    if (verdict != ClusterShadowSchema::Verdict::Refused) return Attempt::Done;
    failure = makeError(SQLITE_MISUSE, problem, sql);
    return Attempt::Failed;
  }

  // MARK: Statements

  /// One attempt at a statement on the current connection: prepared (or
  /// found prepared), run, its rows read whole. `failure` is set for
  /// Failed (the node's error) and holds the problem otherwise.
  Attempt attempt(const std::string& sql, const std::vector<Value>& arguments, ClusterStatementKind kind,
                  std::vector<Row>* rows, Deadline overall, Error& failure, bool caller = true,
                  bool mayCommit = false) {
    Prepared statement{};
    Attempt step = Attempt::Done;
    if (caller && kind != ClusterStatementKind::Read) {
      step =
          installGuards(overall, failure, kind == ClusterStatementKind::Write || kind == ClusterStatementKind::Schema);
    }
    if (caller && kind == ClusterStatementKind::Read) step = checkRead(sql, overall, failure);
    if (step != Attempt::Done) return step;
    if (caller && kind == ClusterStatementKind::Schema) {
      std::string problem;
      if (!shadow.checkSchemaChange(sql, problem)) {
        failure = makeError(SQLITE_MISUSE, problem, sql);
        return Attempt::Failed;
      }
    }
    step = prepare(sql, overall, statement, failure);
    if (step != Attempt::Done) return step;
    if (arguments.size() != statement.parameters) {
      failure = makeError(SQLITE_RANGE,
                          "wrong number of arguments: the statement has " + std::to_string(statement.parameters) +
                              " parameter(s) but " + std::to_string(arguments.size()) + " argument(s) were given",
                          sql);
      return Attempt::Failed;
    }
    wire::BodyWriter body;
    body.u32(0);
    body.u32(statement.id);
    body.parameters(arguments);
    const bool query = kind == ClusterStatementKind::Read;
    wire::Message answer;
    std::string problem;
    ClusterConnection::Outcome outcome =
        connection->call(query ? wire::Query : wire::Exec, body.take(), requestDeadline(overall), answer, problem);
    if (outcome != ClusterConnection::Outcome::Answered) {
      failure = makeError(SQLITE_IOERR, problem, sql);
      return outcome == ClusterConnection::Outcome::NotSent ? Attempt::NotSent : Attempt::Lost;
    }
    if (answer.type == wire::Failure) return nodeFailure(answer, sql, failure, mayCommit);
    if (!query) {
      std::uint64_t lastId = 0;
      std::uint64_t affected = 0;
      if (!wire::decodeResult(answer, lastId, affected, problem)) return garbled(problem, sql, failure);
      lastInsertRowId = static_cast<std::int64_t>(lastId);
      changes = static_cast<std::int64_t>(affected);
      columnNames.clear();
      if (rows != nullptr) rows->clear();
      return Attempt::Done;
    }
    std::vector<Row> collected;
    std::shared_ptr<const std::vector<std::string>> names;
    for (;;) {
      wire::RowsBatch batch;
      if (answer.type == wire::Failure) return nodeFailure(answer, sql, failure);
      if (!wire::decodeRows(answer, batch, problem)) return garbled(problem, sql, failure);
      if (!names) {
        names = std::make_shared<const std::vector<std::string>>(batch.columns);
      } else if (batch.columns.size() != names->size()) {
        return garbled("a later message of a result has another number of columns", sql, failure);
      }
      if (rows != nullptr) {
        for (std::vector<Value>& values : batch.rows) collected.emplace_back(names, std::move(values));
      }
      if (!batch.more) break;
      outcome = connection->next(requestDeadline(overall), answer, problem);
      if (outcome != ClusterConnection::Outcome::Answered) {
        failure = makeError(SQLITE_IOERR, problem, sql);
        return Attempt::Lost;
      }
    }
    if (rows != nullptr) *rows = std::move(collected);
    columnNames = *names;
    return Attempt::Done;
  }

  Attempt prepare(const std::string& sql, Deadline overall, Prepared& statement, Error& failure) {
    auto found = prepared.find(sql);
    if (found != prepared.end()) {
      statement = found->second.first;
      return Attempt::Done;
    }
    wire::Message answer;
    std::string problem;
    const ClusterConnection::Outcome outcome = sendSql(wire::Prepare, sql, overall, answer, problem);
    if (outcome != ClusterConnection::Outcome::Answered) {
      // Preparing changes nothing: whatever happened, it can be sent again.
      failure = makeError(SQLITE_IOERR, problem, sql);
      return Attempt::NotSent;
    }
    if (answer.type == wire::Failure) return nodeFailure(answer, sql, failure);
    if (answer.type != wire::Stmt || answer.body.size() < 16) {
      return garbled("expected a STMT response, got type " + std::to_string(answer.type), sql, failure);
    }
    wire::BodyReader reader(answer.body.data(), answer.body.size());
    std::uint32_t database = 0;
    reader.u32(database) && reader.u32(statement.id) && reader.u64(statement.parameters);
    if (prepared.size() >= kCachedStatements) evictOldest(overall);
    preparedOrder.push_back(sql);
    prepared.emplace(sql, std::make_pair(statement, std::prev(preparedOrder.end())));
    return Attempt::Done;
  }

  void evictOldest(Deadline overall) {
    const std::string oldest = preparedOrder.front();
    auto found = prepared.find(oldest);
    if (found != prepared.end()) {
      wire::BodyWriter body;
      body.u32(0);
      body.u32(found->second.first.id);
      wire::Message answer;
      std::string problem;
      connection->call(wire::Finalize, body.take(), requestDeadline(overall), answer, problem);
      prepared.erase(found);
    }
    preparedOrder.pop_front();
  }

  Attempt garbled(const std::string& problem, const std::string& sql, Error& failure) {
    // A peer that sends what dqlite never sends cannot be trusted with the
    // rest of the session.
    failure = makeError(SQLITE_PROTOCOL, "the node's answer is not dqlite's protocol: " + problem, sql);
    connection.reset();
    return Attempt::Lost;
  }

  /// The node's FAILURE answer as an attempt's outcome. `mayCommit`: the
  /// request was an EXEC that commits when it succeeds (a write outside a
  /// transaction, COMMIT, the RELEASE that ends the transaction).
  Attempt nodeFailure(const wire::Message& answer, const std::string& sql, Error& failure, bool mayCommit = false) {
    std::uint64_t code = 0;
    std::string message;
    std::string problem;
    if (!wire::decodeFailure(answer, code, message, problem)) return garbled(problem, sql, failure);
    if (message == "no more rows available" || message == "not an error") {
      // SQLite ran the statement to its end (its message for SQLITE_DONE or
      // SQLITE_OK): the number is Raft's, from a raft_apply that failed at
      // once (dqlite 1.11's leader.c passes it on), not an SQLite code.
      if (code == kRaftNotLeader) {
        failure = makeError(kNotLeader, "the node is no longer the leader (Raft error 7, RAFT_NOTLEADER)", sql);
        return Attempt::NotLeader;
      }
      failure = makeError(SQLITE_IOERR,
                          "the node's Raft log refused the write (Raft error " + std::to_string(code) + ")", sql);
      // Raft may have sent the entry to followers before failing.
      return mayCommit ? Attempt::LeadershipLost : Attempt::Failed;
    }
    // A code SQLite does not give (its low byte 0, or beyond an int) is no
    // code: an error all the same.
    int extended = code <= 0x7fffffff ? static_cast<int>(code) : 0;
    if (primaryResultCode(extended) == 0) extended = SQLITE_ERROR;
    if (message.empty()) message = "the node failed the request with code " + std::to_string(code);
    if (isClusterGuardMessage(message)) extended = SQLITE_MISUSE;
    if (extended == SQLITE_ROW) {
      // A write that returns rows: dqlite 1.11 runs writes to their end
      // only when they return none, and rolls this one back.
      extended = SQLITE_MISUSE;
      message = "dqlite 1.11 cannot return rows from a write (RETURNING); nothing was applied";
    }
    failure = makeError(extended, message, sql);
    if (extended == kNotLeader) return Attempt::NotLeader;
    if (extended == kLeadershipLost) return Attempt::LeadershipLost;
    if (mayCommit && (extended == SQLITE_IOERR || extended == SQLITE_IOERR_WRITE || extended == SQLITE_ABORT)) {
      // dqlite 1.11 (leader.c) answers these when Raft's apply of the
      // commit's frames failed after the entry was taken: followers may
      // hold it, and a new leader may commit it.
      return Attempt::LeadershipLost;
    }
    if (extended == SQLITE_BUSY && message == "checkpoint in progress") return Attempt::Busy;
    return Attempt::Failed;
  }

  /// Runs `once` (one attempt at a request on the current connection)
  /// until it is done, by the retry rules: a request is attempted again only
  /// when it certainly did not run, or when it changes nothing
  /// (`kind` Read, Begin or Savepoint) and no transaction is open.
  /// `commits`: the request commits when it succeeds (a write outside a
  /// transaction, COMMIT, the RELEASE that ends the transaction), so an
  /// unknown outcome is in doubt, never "nothing committed".
  template <typename Once>
  bool retrying(ClusterStatementKind kind, const std::string& sql, Once once, bool commits = false) {
    const Deadline overall = Deadline::in(configuration.retryTimeoutMilliseconds);
    const bool harmless = kind == ClusterStatementKind::Read || kind == ClusterStatementKind::Begin ||
                          kind == ClusterStatementKind::Savepoint;
    for (;;) {
      const bool wasInTransaction = inTransaction;
      if (!connection && !connect(overall)) return false;
      Error failure;
      const Attempt result = once(overall, failure);
      switch (result) {
        case Attempt::Done:
          return true;
        case Attempt::Failed:
          if (failure.message.find("no transaction is active") != std::string::npos) endTransaction();
          if (wasInTransaction && inTransaction) followTransaction(overall, failure, sql);
          return fail(std::move(failure));
        case Attempt::Busy:
          break;  // nothing ran: try again after a pause
        case Attempt::NotSent:
        case Attempt::NotLeader:
          // Certainly not run here.
          dropConnection();
          if (wasInTransaction && kind == ClusterStatementKind::Rollback) return rolledBackWithConnection();
          if (wasInTransaction) return loseTransaction(failure, sql);
          break;
        case Attempt::Lost:
        case Attempt::LeadershipLost:
          dropConnection();
          if (wasInTransaction && kind == ClusterStatementKind::Rollback) return rolledBackWithConnection();
          if (wasInTransaction && !commits) return loseTransaction(failure, sql);
          if (!harmless || commits) {
            // A commit in doubt ended the transaction one way or the other.
            transactionLost = false;
            lostWithConnection = false;
            return inDoubt(failure, sql);
          }
          break;
      }
      if (overall.passed()) {
        failure.message = "gave up after " + std::to_string(configuration.retryTimeoutMilliseconds) +
                          " ms without a leader that could run it: " + failure.message;
        return fail(std::move(failure));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(result == Attempt::Busy ? 5 : 25));
    }
  }

  /// Whether `statement` commits when it succeeds, as the transaction this
  /// client follows tells: a write outside a transaction, COMMIT, and the
  /// RELEASE of the outermost savepoint of a transaction SAVEPOINT opened.
  bool commitsWhenRun(const ClusterStatement& statement) const {
    switch (statement.kind) {
      case ClusterStatementKind::Write:
      case ClusterStatementKind::Schema:
        return !inTransaction;
      case ClusterStatementKind::Commit:
        return true;
      case ClusterStatementKind::Release:
        for (std::size_t i = savepoints.size(); i-- > 0;) {
          if (sameIdentifier(savepoints[i], statement.savepoint)) return i == 0 && openedBySavepoint;
        }
        return false;  // no such savepoint: the node refuses it
      default:
        return false;
    }
  }

  /// After a statement of the open transaction failed on the node: SQLite
  /// rolls the whole transaction back after some errors (SQLITE_FULL, an
  /// I/O error, OR ROLLBACK, RAISE(ROLLBACK), …), and dqlite 1.11 does not
  /// say so. Asks the node with a BEGIN, which fails while a transaction is
  /// open and begins one (ended at once) when none is. When the node's
  /// transaction is gone, `failure` says so and the rest of the caller's
  /// transaction fails with SQLITE_ABORT_ROLLBACK until COMMIT or ROLLBACK.
  void followTransaction(Deadline overall, Error& failure, const std::string& sql) {
    const int code = primaryResultCode(failure.extendedCode);
    if (code == SQLITE_MISUSE || code == SQLITE_RANGE || !connection) return;  // refused here, nothing sent
    const std::int64_t keptRowId = lastInsertRowId;
    const std::int64_t keptChanges = changes;
    Error probe;
    const Attempt step = attempt("BEGIN", {}, ClusterStatementKind::Begin, nullptr, overall, probe, false);
    bool rolledBack = false;
    if (step == Attempt::Done) {
      // None was open: the node rolled it back. End the probe's own.
      Error ignored;
      if (attempt("ROLLBACK", {}, ClusterStatementKind::Rollback, nullptr, overall, ignored, false) != Attempt::Done) {
        dropConnection();
      }
      rolledBack = true;
    } else if (step != Attempt::Failed ||
               probe.message.find("cannot start a transaction within a transaction") == std::string::npos) {
      // Unknown: leave the connection, and the transaction with it.
      dropConnection();
      rolledBack = true;
    }
    lastInsertRowId = keptRowId;
    changes = keptChanges;
    if (!rolledBack) return;
    failure.message += " (the node rolled the transaction back: nothing of it was committed)";
    endTransaction();
    transactionLost = true;
    lostWithConnection = false;
    lostError = makeError(SQLITE_ABORT_ROLLBACK,
                          "the transaction was rolled back by the node when an earlier statement failed (" +
                              failure.message + "); nothing of it was committed: end it with ROLLBACK",
                          sql);
  }

  /// A PRAGMA without `=` writes when SQLite, preparing it against the
  /// local copy of the schema (fetched first when stale), says so: then it
  /// goes by EXEC (replicated, and never sent twice).
  bool classifyPragma(const std::string& sql, ClusterStatement& statement) {
    if (!retrying(ClusterStatementKind::Read, sql,
                  [&](Deadline overall, Error& failure) { return refreshSchema(overall, failure); })) {
      return false;
    }
    bool known = false;
    if (shadow.pragmaWrites(sql, known)) statement.kind = ClusterStatementKind::Write;
    return true;
  }

  /// Runs a statement by the retry rules, and follows the transaction.
  bool run(const std::string& sql, const std::vector<Value>& arguments, const ClusterStatement& statement,
           std::vector<Row>* rows) {
    const bool commits = commitsWhenRun(statement);
    if (!retrying(
            statement.kind, sql,
            [&](Deadline overall, Error& failure) {
              return attempt(sql, arguments, statement.kind, rows, overall, failure, true, commits);
            },
            commits)) {
      return false;
    }
    track(statement);
    return true;
  }

  /// A request that is not a statement (membership), by the same rules.
  bool request(std::uint8_t type, const std::vector<std::uint8_t>& body, ClusterStatementKind kind,
               const std::string& what, wire::Message& answer) {
    return retrying(kind, what, [&](Deadline overall, Error& failure) {
      std::string problem;
      const ClusterConnection::Outcome outcome =
          connection->call(type, body, requestDeadline(overall), answer, problem);
      failure = makeError(SQLITE_IOERR, problem);
      if (outcome == ClusterConnection::Outcome::NotSent) return Attempt::NotSent;
      if (outcome == ClusterConnection::Outcome::Lost) return Attempt::Lost;
      if (answer.type == wire::Failure) return nodeFailure(answer, std::string(), failure);
      return Attempt::Done;
    });
  }

  /// A membership change (it answers EMPTY), by the rules for writes.
  bool changeMembership(std::uint8_t type, const std::vector<std::uint8_t>& body, const std::string& what) {
    wire::Message answer;
    if (!request(type, body, ClusterStatementKind::Write, what, answer)) return false;
    std::string problem;
    if (!wire::decodeEmpty(answer, problem)) return garbledAnswer(what, problem);
    return true;
  }

  /// A decoding problem of an answer to `what`: the peer is not speaking
  /// dqlite's protocol.
  bool garbledAnswer(const std::string& what, const std::string& problem) {
    connection.reset();
    return fail(makeError(SQLITE_PROTOCOL, "the answer to " + what + " is not dqlite's protocol: " + problem));
  }

  bool loseTransaction(const Error& cause, const std::string& sql) {
    lostError = makeError(SQLITE_ABORT_ROLLBACK,
                          "the transaction was rolled back: its connection to the leader went away before COMMIT (" +
                              cause.message + "); nothing of it was committed",
                          sql);
    transactionLost = true;
    lostWithConnection = true;
    return fail(lostError);
  }

  /// A ROLLBACK whose connection went away: the transaction went with it
  /// (a node rolls back what a closed connection left open, and a new
  /// leader never saw what was not committed), which is what ROLLBACK asks.
  bool rolledBackWithConnection() noexcept {
    transactionLost = false;
    lostWithConnection = false;
    return true;
  }

  bool inDoubt(const Error& cause, const std::string& sql) {
    return fail(makeError(kLeadershipLost,
                          "outcome in doubt: the write was sent and no answer says whether the cluster applied it (" +
                              cause.message + "); it may or may not have been applied",
                          sql));
  }

  void endTransaction() noexcept {
    inTransaction = false;
    versionChecked = false;
    openedBySavepoint = false;
    savepoints.clear();
    if (madeInTransaction) {
      // A rollback may have taken back the schema (and the guards) they saw.
      guardsStale = true;
      schemaStale = true;
    }
    madeInTransaction = false;
  }

  /// Follows the transaction from a statement that succeeded.
  void track(const ClusterStatement& statement) {
    switch (statement.kind) {
      case ClusterStatementKind::Begin:
        inTransaction = true;
        openedBySavepoint = false;
        break;
      case ClusterStatementKind::Commit:
      case ClusterStatementKind::Rollback:
        endTransaction();
        break;
      case ClusterStatementKind::Savepoint:
        if (!inTransaction) {
          inTransaction = true;
          openedBySavepoint = true;
        }
        savepoints.push_back(statement.savepoint);
        break;
      case ClusterStatementKind::Release: {
        // Releases the named savepoint and every one inside it; releasing
        // the outermost of a transaction SAVEPOINT started commits it.
        for (std::size_t i = savepoints.size(); i-- > 0;) {
          if (sameIdentifier(savepoints[i], statement.savepoint)) {
            savepoints.resize(i);
            break;
          }
        }
        if (savepoints.empty() && openedBySavepoint) endTransaction();
        break;
      }
      case ClusterStatementKind::Schema:
        schemaStale = true;
        guardsStale = true;
        break;
      default:
        break;
    }
  }
};

// MARK: ClusterDatabase

ClusterDatabase::ClusterDatabase() noexcept = default;
ClusterDatabase::ClusterDatabase(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
ClusterDatabase::ClusterDatabase(ClusterDatabase&&) noexcept = default;
ClusterDatabase& ClusterDatabase::operator=(ClusterDatabase&&) noexcept = default;
ClusterDatabase::~ClusterDatabase() = default;

ClusterDatabase ClusterDatabase::open(const std::string& name, const ClusterConfiguration& configuration) noexcept {
  return connectTo(name, configuration, true);
}

ClusterDatabase ClusterDatabase::openMembership(const ClusterConfiguration& configuration) noexcept {
  return connectTo(std::string(), configuration, false);
}

ClusterDatabase ClusterDatabase::connectTo(const std::string& name, const ClusterConfiguration& configuration,
                                           bool openDatabase) noexcept {
  try {
    auto impl = std::make_unique<Impl>();
    impl->name = name;
    impl->opensDatabase = openDatabase;
    impl->configuration = configuration;
    impl->addresses = configuration.servers;
    if (configuration.servers.empty()) {
      impl->fail(makeError(SQLITE_MISUSE, "no dqlite server is configured (ClusterConfiguration::servers is empty)"));
    } else if (openDatabase && name.empty()) {
      impl->fail(makeError(SQLITE_MISUSE, "a cluster database needs a name"));
    } else if (!wire::textProblem(name, "the database name").empty()) {
      impl->fail(makeError(SQLITE_MISUSE, wire::textProblem(name, "the database name")));
    } else if (impl->connect(Deadline::in(configuration.retryTimeoutMilliseconds))) {
      impl->error = Error();
      impl->isOpen = true;
    }
    return ClusterDatabase(std::move(impl));
  } catch (...) {
    return ClusterDatabase();
  }
}

bool ClusterDatabase::isOpen() const noexcept { return impl_ && impl_->isOpen; }

Error ClusterDatabase::lastError() const {
  if (!impl_) return makeError(SQLITE_MISUSE, "the cluster database is not open");
  return impl_->error;
}

bool ClusterDatabase::execute(const SQL& literal, std::vector<Row>* rows) noexcept {
  if (literal.isValid()) return execute(literal.text(), literal.arguments(), rows);
  if (impl_) impl_->error = makeError(literal.failure().code, literal.failure().message, literal.text());
  return false;
}

bool ClusterDatabase::execute(const std::string& sql, const std::vector<Value>& arguments,
                              std::vector<Row>* rows) noexcept {
  if (!isOpen()) {
    if (impl_) impl_->error = makeError(SQLITE_MISUSE, "the cluster database is not open", sql);
    return false;
  }
  Impl& state = *impl_;
  try {
    state.error = Error();
    std::string problem = wire::textProblem(sql, "the SQL");
    if (!problem.empty()) return state.fail(makeError(SQLITE_MISUSE, problem, sql));
    if (skipIgnorable(sql, 0) >= sql.size()) {
      return state.fail(makeError(SQLITE_MISUSE, "no SQL statement to run", sql));
    }
    const std::size_t end = firstStatementEnd(sql);
    if (end != std::string::npos && skipIgnorable(sql, end) < sql.size()) {
      return state.fail(makeError(SQLITE_MISUSE,
                                  "execute runs exactly one statement; more SQL follows the first: \"" +
                                      excerpt(sql, skipIgnorable(sql, end)) + "\"",
                                  sql));
    }
    int code = 0;
    problem = wire::parametersProblem(arguments, code);
    if (!problem.empty()) return state.fail(makeError(code, problem, sql));
    ClusterStatement statement = classifyClusterStatement(sql);
    if (statement.returnsRows) {
      return state.fail(makeError(
          SQLITE_MISUSE, "dqlite 1.11 cannot return rows from a write: RETURNING is refused before it is sent", sql));
    }
    if (statement.attaches) {
      return state.fail(
          makeError(SQLITE_MISUSE, "dqlite 1.11 replicates no attached database: ATTACH and DETACH are refused", sql));
    }
    if (state.transactionLost) {
      // The node rolled the transaction back with the connection: say so
      // until the caller ends it too.
      if (statement.kind == ClusterStatementKind::Rollback) {
        state.transactionLost = false;
        return true;
      }
      if (statement.kind == ClusterStatementKind::Commit) state.transactionLost = false;
      return state.fail(state.lostError);
    }
    if (statement.pragma && !state.classifyPragma(sql, statement)) return false;
    return state.run(sql, arguments, statement, rows);
  } catch (...) {
    return state.fail(makeError(SQLITE_NOMEM, "out of memory", sql));
  }
}

bool ClusterDatabase::runWriteBlock(bool (*body)(void* context, ClusterDatabase& database), void* context,
                                    Error* error) {
  const auto report = [&](bool ok) {
    if (!ok && error != nullptr) *error = lastError();
    return ok;
  };
  if (!isOpen()) return report(execute("BEGIN"));  // fails: not open
  Impl& state = *impl_;
  if (state.inTransaction || state.inWriteBlock || state.transactionLost) {
    state.error = makeError(SQLITE_MISUSE, "write cannot start inside a transaction");
    return report(false);
  }
  const Deadline overall = Deadline::in(state.configuration.retryTimeoutMilliseconds);
  for (;;) {
    if (!execute("BEGIN")) return report(false);
    state.inWriteBlock = true;
    bool ok = false;
    try {
      ok = body(context, *this);
    } catch (...) {
      state.inWriteBlock = false;
      abandonWriteBlock();
      throw;
    }
    state.inWriteBlock = false;
    if (state.transactionLost && state.lostWithConnection) {
      // The leader went away before COMMIT was sent: nothing committed, so
      // the block runs again on the new leader.
      state.transactionLost = false;
      if (overall.passed()) return report(false);
      continue;
    }
    if (state.transactionLost) {
      // The node rolled the transaction back when a statement failed:
      // nothing committed, and running the block again would meet the
      // same failure. The block's own error, or the rollback's.
      state.transactionLost = false;
      if (ok || !state.error.isError()) state.error = state.lostError;
      return report(false);
    }
    if (!ok) {
      const Error kept = state.error;
      abandonWriteBlock();
      state.error = kept.isError() ? kept : makeError(SQLITE_ABORT, "the write block returned false");
      return report(false);
    }
    if (!state.inTransaction) {
      state.error = makeError(SQLITE_MISUSE, "the write block ended its transaction itself");
      return report(false);
    }
    if (execute("COMMIT")) return report(true);
    if (state.transactionLost && !state.lostWithConnection) {
      // COMMIT failed and the node rolled the transaction back.
      state.transactionLost = false;
      return report(false);
    }
    if (state.transactionLost) {
      // COMMIT was refused by a node that is no longer leader: not run.
      state.transactionLost = false;
      if (overall.passed()) return report(false);
      continue;
    }
    abandonWriteBlock();
    return report(false);
  }
}

void ClusterDatabase::abandonWriteBlock() noexcept {
  Impl& state = *impl_;
  const Error kept = state.error;
  if (state.inTransaction) execute("ROLLBACK");
  if (state.inTransaction) {
    // The node refused the rollback: closing the connection ends the
    // transaction there, so the next block starts clean.
    state.dropConnection();
  }
  state.transactionLost = false;
  state.lostWithConnection = false;
  state.error = kept;
}

bool ClusterDatabase::members(std::vector<ClusterMember>& out) noexcept {
  if (!isOpen()) return execute("SELECT 1");  // fails: not open
  Impl& state = *impl_;
  try {
    state.error = Error();
    wire::BodyWriter body;
    body.u64(1);  // format 1: with roles
    wire::Message answer;
    if (!state.request(wire::Cluster, body.take(), ClusterStatementKind::Read, "CLUSTER", answer)) return false;
    std::string problem;
    std::vector<ClusterMember> members;
    if (!wire::decodeServers(answer, members, problem)) return state.garbledAnswer("CLUSTER", problem);
    out = std::move(members);
    return true;
  } catch (...) {
    return state.fail(makeError(SQLITE_NOMEM, "out of memory"));
  }
}

bool ClusterDatabase::leader(ClusterMember& out) noexcept {
  if (!isOpen()) return execute("SELECT 1");  // fails: not open
  Impl& state = *impl_;
  try {
    state.error = Error();
    wire::BodyWriter body;
    body.u64(0);
    wire::Message answer;
    if (!state.request(wire::Leader, body.take(), ClusterStatementKind::Read, "LEADER", answer)) return false;
    std::string problem;
    ClusterMember leader;
    if (!wire::decodeServer(answer, leader.id, leader.address, problem)) return state.garbledAnswer("LEADER", problem);
    if (leader.address.empty()) {
      return state.fail(makeError(kNotLeader, "the node " + state.connection->address() + " knows of no leader"));
    }
    leader.role = ClusterRole::Voter;  // only a voter leads
    out = std::move(leader);
    return true;
  } catch (...) {
    return state.fail(makeError(SQLITE_NOMEM, "out of memory"));
  }
}

bool ClusterDatabase::add(const ClusterMember& member) noexcept {
  if (!isOpen()) return execute("SELECT 1");  // fails: not open
  Impl& state = *impl_;
  try {
    state.error = Error();
    const std::string problem = wire::textProblem(member.address, "the member's address");
    if (!problem.empty()) return state.fail(makeError(SQLITE_MISUSE, problem));
    if (member.id == 0) return state.fail(makeError(SQLITE_MISUSE, "a member's id cannot be 0"));
    wire::BodyWriter body;
    body.u64(member.id);
    body.text(member.address);
    if (!state.changeMembership(wire::Add, body.take(), "ADD " + std::to_string(member.id))) return false;
    return member.role == ClusterRole::Spare || assign(member.id, member.role);
  } catch (...) {
    return state.fail(makeError(SQLITE_NOMEM, "out of memory"));
  }
}

bool ClusterDatabase::assign(std::uint64_t id, ClusterRole role) noexcept {
  if (!isOpen()) return execute("SELECT 1");  // fails: not open
  Impl& state = *impl_;
  try {
    state.error = Error();
    wire::BodyWriter body;
    body.u64(id);
    body.u64(wire::roleCode(role));
    return state.changeMembership(wire::Assign, body.take(), "ASSIGN " + std::to_string(id));
  } catch (...) {
    return state.fail(makeError(SQLITE_NOMEM, "out of memory"));
  }
}

bool ClusterDatabase::remove(std::uint64_t id) noexcept {
  if (!isOpen()) return execute("SELECT 1");  // fails: not open
  Impl& state = *impl_;
  try {
    state.error = Error();
    wire::BodyWriter body;
    body.u64(id);
    return state.changeMembership(wire::Remove, body.take(), "REMOVE " + std::to_string(id));
  } catch (...) {
    return state.fail(makeError(SQLITE_NOMEM, "out of memory"));
  }
}

std::int64_t ClusterDatabase::lastInsertRowId() const noexcept { return impl_ ? impl_->lastInsertRowId : 0; }
std::int64_t ClusterDatabase::changes() const noexcept { return impl_ ? impl_->changes : 0; }

std::vector<std::string> ClusterDatabase::lastColumnNames() const {
  return impl_ ? impl_->columnNames : std::vector<std::string>();
}

bool ClusterDatabase::isInTransaction() const noexcept { return impl_ && impl_->inTransaction; }

std::string ClusterDatabase::leaderAddress() const {
  return impl_ && impl_->connection ? impl_->connection->address() : std::string();
}

void ClusterDatabase::close() noexcept {
  if (!impl_) return;
  impl_->connection.reset();
  impl_->isOpen = false;
  impl_->inTransaction = false;
  impl_->transactionLost = false;
}

}  // namespace sqlitebridge
