#!/usr/bin/env python3
"""A scripted stand-in for a dqlite 1.11 node, for the cluster client's retry
rules where only a scripted node can force the moment: answer "not leader"
exactly once, close the connection after a request arrived, go silent,
answer garbage. It speaks dqlite's wire protocol (version 1) with an encoder
of its own, independent of the core's (as Tests/CxxTests/Cluster/
FakeDqliteServer.hpp does for the C++ tests).

  python3 fake-dqlite-node.py SCENARIO COUNTS_FILE

Listens on 127.0.0.1, port 0; prints the port on stdout (one line), then
serves until it is killed or its standard input closes (so that it never
outlives the test that started it). Before it acts on a request it rewrites
COUNTS_FILE (atomically, JSON): how many requests of each type it received,
by type number, and the SQL of every EXEC in order. A client that got the
answer to a request (or saw the connection close instead) finds that request
counted.

The scenarios (see SCENARIOS below): a healthy one-node leader answers
LEADER with itself, OPEN, PREPARE (parameters counted as the '?' in the SQL),
EXEC with rowid 1 and 1 row changed, QUERY with one row (column n = 1),
FINALIZE, CLUSTER with itself as the one voter; each scenario changes one
answer.
"""
import json
import os
import socket
import struct
import sys
import threading

# Request types.
LEADER, OPEN, PREPARE, EXEC, QUERY, FINALIZE, EXEC_SQL, QUERY_SQL, CLUSTER = 0, 3, 4, 5, 6, 7, 8, 9, 16
# The client's own QUERYs of the schema and of its version (before each
# write), counted apart.
SCHEMA_QUERY, SCHEMA_VERSION = 1000, 1001
NAMES = {SCHEMA_QUERY: "SCHEMA_QUERY", SCHEMA_VERSION: "SCHEMA_VERSION", LEADER: "LEADER", OPEN: "OPEN", PREPARE: "PREPARE", EXEC: "EXEC", QUERY: "QUERY", FINALIZE: "FINALIZE",
         EXEC_SQL: "EXEC_SQL", QUERY_SQL: "QUERY_SQL", CLUSTER: "CLUSTER"}
# Response types.
FAILURE, SERVER, SERVERS, DB, STMT, RESULT, ROWS, EMPTY = 0, 1, 3, 4, 5, 6, 7, 8
# dqlite's extended codes.
NOT_LEADER, LEADERSHIP_LOST = 10250, 10506
# SQLite's codes the scenarios answer with.
SQLITE_IOERR, SQLITE_ABORT, SQLITE_FULL, SQLITE_IOERR_WRITE, SQLITE_CONSTRAINT_PRIMARYKEY = 10, 4, 13, 778, 1555
# What SQLite says after a statement ran to its end: dqlite 1.11 sends it
# with a raw Raft number when raft_apply fails at once.
DONE_MESSAGE = "no more rows available"
# The scenarios that answer one statement's EXEC (by its SQL) with a
# failure, every time or only the first time: (sql, code, message, first only).
FAILING_EXEC = {
    "ioerr-on-insert": ("INSERT INTO t VALUES (1)", SQLITE_IOERR, DONE_MESSAGE, False),
    "ioerr-write-on-insert": ("INSERT INTO t VALUES (1)", SQLITE_IOERR_WRITE, "disk I/O error", False),
    "abort-on-insert": ("INSERT INTO t VALUES (1)", SQLITE_ABORT, "abort", False),
    "ioerr-write-on-commit": ("COMMIT", SQLITE_IOERR_WRITE, "disk I/O error", False),
    "raft-not-leader-once": ("INSERT INTO t VALUES (1)", 7, DONE_MESSAGE, True),
    "raft-ioerr-on-insert": ("INSERT INTO t VALUES (1)", 18, DONE_MESSAGE, False),
    "full-on-insert": ("INSERT INTO t VALUES (1)", SQLITE_FULL, "database or disk is full", False),
    "or-rollback-conflict": ("INSERT OR ROLLBACK INTO t VALUES (1)", SQLITE_CONSTRAINT_PRIMARYKEY,
                             "UNIQUE constraint failed: t.n", False),
}
# The scenarios whose schema (the rows of sqlite_master the client asks
# for: schema, type, name, sql) is not empty: "schema-other-client" shows a
# table another client created (and a new schema version) once the first
# EXEC arrived.
SCHEMAS = {
    "schema-other-client": [("main", "table", "u", "CREATE TABLE u(n INTEGER)")],
    "schema-alter": [("main", "table", "t", "CREATE TABLE t(a INTEGER)")],
    "schema-generated": [("main", "table", "g",
                          "CREATE TABLE g(a, b BOOLEAN AS (a) STORED, c BOOLEAN GENERATED ALWAYS AS (a) VIRTUAL)")],
}
OTHER_CLIENT_TABLE = ("main", "table", "t", "CREATE TABLE t(flag BOOLEAN)")
# The scenarios that close the connection when one statement's EXEC arrives.
CLOSING_EXEC = {"close-on-release-a": "RELEASE a", "close-on-release-b": "RELEASE b",
                "close-on-pragma-write": "PRAGMA user_version(7)"}

# Answers to QUERY no dqlite node sends (the C++ tests' list): ROWS announcing
# 2^40 columns; a text column name that never ends; a row value of type 15; a
# blob longer than its message; a message announcing 2^32 words, then
# nothing; an answer of unknown type.
GARBAGE = [
    bytes([3, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]) + b"n" + bytes(7) + b"\xff" * 8,
    bytes([2, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) + b"n" * 8,
    bytes([4, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) + b"n" + bytes(7) + bytes([0x0F]) + bytes(7)
    + bytes([1]) + bytes(7),
    bytes([4, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) + b"n" + bytes(7) + bytes([4]) + bytes(7)
    + bytes([0xFF, 0xFF]) + bytes(6),
    bytes([0xFF, 0xFF, 0xFF, 0xFF, 7, 0, 0, 0]),
    bytes([1, 0, 0, 0, 99, 0, 0, 0]) + bytes(8),
]


def u32(value):
    return struct.pack("<I", value)


def u64(value):
    return struct.pack("<Q", value & 0xFFFFFFFFFFFFFFFF)


def text(value):
    encoded = value.encode() + b"\0"
    return encoded + b"\0" * (-len(encoded) % 8)


def message(kind, body):
    return u32(len(body) // 8) + bytes([kind, 0, 0, 0]) + body


def failure(code, why):
    return message(FAILURE, u64(code) + text(why))


def text_rows(columns, rows):
    """ROWS whose values are all text."""
    body = u64(len(columns)) + b"".join(text(column) for column in columns)
    for row in rows:
        header = bytearray((len(columns) + 1) // 2)
        for i in range(len(columns)):
            header[i // 2] |= 3 << (4 * (i % 2))  # text
        body += bytes(header) + bytes(-len(header) % 8) + b"".join(text(value) for value in row)
    return message(ROWS, body + u64(0xFFFFFFFFFFFFFFFF))


def integer_rows(values):
    body = u64(1) + text("n")
    for value in values:
        body += bytes([1]) + bytes(7) + u64(value)  # a header of 4-bit type codes: integer
    return message(ROWS, body + u64(0xFFFFFFFFFFFFFFFF))


class Fake:
    def __init__(self, scenario, counts_path):
        self.scenario = scenario
        self.counts_path = counts_path
        self.lock = threading.Lock()
        self.counts = {}
        self.executed = []
        # "EXEC <sql>" and "EXEC_SQL <sql>", in the order they arrived.
        self.log = []
        self.statements = {}
        self.address = ""

    def own_query(self, kind, body):
        """Which of the client's own QUERYs this is, if any: "schema" (it
        prepares every read against a copy of the schema) or "version" (the
        schema's version, asked before each write); the scenarios and the
        counts leave them apart from the caller's queries."""
        if kind != QUERY or len(body) < 8:
            return None
        with self.lock:
            sql = self.statements.get(struct.unpack_from("<I", body, 4)[0], "")
        if sql.startswith("SELECT 'main', type, name, sql FROM main.sqlite_master"):
            return "schema"
        return "version" if sql == "PRAGMA schema_version" else None

    def schema(self):
        """The scenario's schema rows and version now."""
        rows = list(SCHEMAS.get(self.scenario, []))
        with self.lock:
            changed = self.scenario == "schema-other-client" and len(self.executed) > 0
        return (rows + [OTHER_CLIENT_TABLE], 2) if changed else (rows, 1)

    def exec_sql(self, kind, body):
        """The SQL of the statement an EXEC runs ("" for another request)."""
        if kind != EXEC or len(body) < 8:
            return ""
        with self.lock:
            return self.statements.get(struct.unpack_from("<I", body, 4)[0], "")

    def executions(self, sql):
        """How many EXECs of `sql` arrived (this one included)."""
        with self.lock:
            return self.executed.count(sql)

    def record(self, kind, body):
        """Counts the request, writes the counts file; returns this type's count."""
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if kind == EXEC and len(body) >= 8:
                statement = struct.unpack_from("<I", body, 4)[0]
                self.executed.append(self.statements.get(statement, "?"))
                self.log.append("EXEC " + self.executed[-1])
            if kind == EXEC_SQL:
                self.log.append("EXEC_SQL " + body[8:].split(b"\0", 1)[0].decode(errors="replace"))
            self.write_counts()
            return self.counts[kind]

    def write_counts(self):
        """Replaces the counts file whole (a reader never sees half of it)."""
        state = {"counts": {NAMES.get(k, str(k)): v for k, v in self.counts.items()}, "executed": self.executed,
                 "log": self.log}
        temporary = self.counts_path + ".tmp"
        with open(temporary, "w") as file:
            json.dump(state, file)
        os.replace(temporary, self.counts_path)

    def healthy(self, kind, body):
        if kind == LEADER:
            return message(SERVER, u64(1) + text(self.address))
        if kind == OPEN:
            return message(DB, bytes(8))
        if kind == PREPARE:
            sql = body[8:].split(b"\0", 1)[0].decode(errors="replace")
            with self.lock:
                statement = len(self.statements) + 1
                self.statements[statement] = sql
            return message(STMT, u32(0) + u32(statement) + u64(sql.count("?")))
        if kind in (EXEC, EXEC_SQL):
            return message(RESULT, u64(1) + u64(1))
        if kind in (QUERY, QUERY_SQL):
            return integer_rows([1])
        if kind == FINALIZE:
            return message(EMPTY, bytes(8))
        if kind == CLUSTER:
            return message(SERVERS, u64(1) + u64(1) + text(self.address) + u64(0))
        return failure(1, "the fake does not know request %d" % kind)

    def act(self, kind, nth, body):
        """What to do with the nth request of its type: ("answer", bytes) or
        ("raw", bytes) (sent, the connection goes on), ("close",) or ("silent",)."""
        scenario = self.scenario
        if scenario == "silent":
            return ("silent",)
        sql = self.exec_sql(kind, body)
        if scenario in FAILING_EXEC and sql == FAILING_EXEC[scenario][0]:
            _, code, why, first_only = FAILING_EXEC[scenario]
            if not first_only or self.executions(sql) == 1:
                return ("answer", failure(code, why))
        if scenario in CLOSING_EXEC and sql == CLOSING_EXEC[scenario]:
            return ("close",)
        if scenario == "not-leader-once" and kind == EXEC and nth == 1:
            return ("answer", failure(NOT_LEADER, "not leader"))
        if scenario == "close-after-exec" and kind == EXEC and nth == 1:
            return ("close",)
        if scenario == "leadership-lost-on-exec" and kind == EXEC:
            return ("answer", failure(LEADERSHIP_LOST, "disk I/O error"))
        if scenario == "close-after-query-once" and kind == QUERY and nth == 1:
            return ("close",)
        if scenario == "not-leader-on-second-exec" and kind == EXEC and nth == 2:
            return ("answer", failure(NOT_LEADER, "not leader"))
        if scenario == "close-on-second-exec" and kind == EXEC and nth == 2:
            return ("close",)
        if scenario == "close-on-commit" and kind == EXEC and nth == 3:
            return ("close",)
        if scenario.startswith("garbage-query-") and kind == QUERY and nth == 1:
            return ("raw", GARBAGE[int(scenario[len("garbage-query-"):])])
        if scenario == "no-leader":
            return ("answer", message(SERVER, u64(0) + text("")) if kind == LEADER else failure(1, "no"))
        if scenario == "leaderless-after-open" and kind == LEADER and nth > 1:
            return ("answer", message(SERVER, u64(0) + text("")))
        return ("answer", self.healthy(kind, body))

    def serve(self, connection):
        with connection:
            try:
                if read_exactly(connection, 8) is None:  # the protocol version
                    return
                while True:
                    header = read_exactly(connection, 8)
                    if header is None:
                        return
                    words, kind = struct.unpack_from("<IB", header)
                    body = read_exactly(connection, words * 8)
                    if body is None:
                        return
                    own = self.own_query(kind, body)
                    if own == "schema":
                        nth = self.record(SCHEMA_QUERY, body)
                        action = ("answer", text_rows(["a", "b", "c", "d"], self.schema()[0]))
                    elif own == "version":
                        nth = self.record(SCHEMA_VERSION, body)
                        action = ("answer", integer_rows([self.schema()[1]]))
                    else:
                        nth = self.record(kind, body)
                        action = self.act(kind, nth, body)
                    if action[0] == "close":
                        return
                    if action[0] == "silent":
                        # Never answers; holds the connection until the client leaves.
                        while connection.recv(4096):
                            pass
                        return
                    connection.sendall(action[1])
            except OSError:
                return


def read_exactly(connection, size):
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


SCENARIOS = ["healthy", "not-leader-once", "close-after-exec", "leadership-lost-on-exec", "close-after-query-once",
             "not-leader-on-second-exec", "close-on-second-exec", "close-on-commit", "silent", "no-leader",
             "leaderless-after-open"] + ["garbage-query-%d" % i for i in range(len(GARBAGE))] \
    + sorted(FAILING_EXEC) + sorted(CLOSING_EXEC) + sorted(SCHEMAS)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        print("usage: fake-dqlite-node.py SCENARIO COUNTS_FILE\nscenarios: " + ", ".join(SCENARIOS), file=sys.stderr)
        return 2
    fake = Fake(sys.argv[1], sys.argv[2])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    fake.address = "127.0.0.1:%d" % port
    fake.write_counts()  # an empty count before the first request
    print(port, flush=True)

    def accept():
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=fake.serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    # Ends when the test closes its end of standard input (or dies).
    while sys.stdin.buffer.read(4096):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
