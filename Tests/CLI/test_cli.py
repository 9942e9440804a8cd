"""Tests of the sqlite-bridge command-line tool, run against a built binary.

Usage: python3 Tests/CLI/test_cli.py PATH/TO/sqlite-bridge
"""

import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import unittest

CLI = None


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


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


class CLITests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.db = os.path.join(self.dir.name, "test.db")
        con = sqlite3.connect(self.db)
        con.executescript(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB);"
            "INSERT INTO t VALUES (1, 'a\"b', 1.5, x'00ff'), (2, NULL, -2.0, NULL);"
        )
        con.close()

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


if __name__ == "__main__":
    CLI = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
