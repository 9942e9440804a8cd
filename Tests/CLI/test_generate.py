"""Tests of `sqlite-bridge generate swift|cxx`, run against a built binary.

Run by test_cli.py (which sets CLI), or alone:
    python3 Tests/CLI/test_generate.py PATH/TO/sqlite-bridge

The Swift output is type-checked against the SQLiteBridge module built beside
the CLI (swift build) when swiftc is on PATH; the C++ output is
compiled with every C++ compiler found (clang++, g++) at -std=c++17 -Wall
-Wextra -Werror. Its round trip is the C++ suite's (GeneratedRecords).
"""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

CLI = None
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "generate")


def run(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)


def make_database(path, script):
    con = sqlite3.connect(path)
    con.executescript(script)
    con.close()
    return path


def read_fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as file:
        return file.read()


def swift_compiler():
    return shutil.which("swiftc")


def cxx_compilers():
    return [path for path in (shutil.which("clang++"), shutil.which("g++")) if path]


class GenerateTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name

    def database(self, script, name="test.db"):
        return make_database(os.path.join(self.dir, name), script)

    def generate(self, language, db, *options):
        result = run("generate", language, db, *options)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        return result.stdout

    def assertLines(self, text, *lines):
        """Each of `lines` is a line of `text` (leading spaces ignored)."""
        present = {line.strip() for line in text.split("\n")}
        for line in lines:
            self.assertIn(line, present, f"missing line: {line}\n--- in ---\n{text}")

    def assertFails(self, result, *parts):
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertEqual(result.stdout, "")
        for part in parts:
            self.assertIn(part, result.stderr)

    def typecheck_swift(self, source):
        """Type-checks `source` (Swift 6) against the SQLiteBridge module the CLI was built with (the
        Modules folder beside it), with C++ interop on, as an app that imports SQLiteBridge compiles."""
        swiftc = swift_compiler()
        modules = os.path.join(os.path.dirname(CLI), "Modules")
        self.assertTrue(os.path.exists(os.path.join(modules, "SQLiteBridge.swiftmodule")),
                        f"no SQLiteBridge module beside the CLI in {modules}: build it with swift build")
        path = os.path.join(self.dir, "Records.swift")
        with open(path, "w", encoding="utf-8") as file:
            file.write(source)
        return subprocess.run([swiftc, "-typecheck", "-swift-version", "6", "-I", modules,
                               "-cxx-interoperability-mode=default", "-Xcc", "-I" + os.path.join(ROOT, "include"),
                               path], capture_output=True, text=True, timeout=300)

    def compile_cxx(self, header):
        """Compiles a file including `header` with each compiler; returns (compiler, result) pairs."""
        path = os.path.join(self.dir, "Records.hpp")
        with open(path, "w", encoding="utf-8") as file:
            file.write(header)
        main = os.path.join(self.dir, "main.cpp")
        with open(main, "w", encoding="utf-8") as file:
            file.write('#include "Records.hpp"\n#include "Records.hpp"\nint main() { return 0; }\n')
        return [(compiler, subprocess.run(
            [compiler, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
             "-I", os.path.join(ROOT, "include"), main], capture_output=True, text=True, timeout=300))
            for compiler in cxx_compilers()]


class HostileSchemaTests(GenerateTestCase):
    def setUp(self):
        super().setUp()
        self.db = self.database(read_fixture("hostile-schema.sql"))

    def test_swift_names_types_keys_and_nullability(self):
        out = self.generate("swift", self.db)
        self.assertLines(
            out,
            # Type names: words joined, quotes and spaces dropped, a leading
            # digit prefixed, unicode kept.
            "public struct Folder: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {",
            "public struct PersonSNote: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {",
            "public struct Table2ndTable: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {",
            "public struct Café: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {",
            'public static let databaseTableName: String = "person\'s note"',
            # The rowid alias and NOT NULL columns: not optional.
            "public var id: Int64",
            "public var `class`: String",
            "public var errno: Int64",
            # Each affinity; optional where NULL is allowed.
            "public var myColumn: String?",
            "public var _2fa: Int64?",
            "public var quoteD: String?",
            "public var straße: Double?",
            "public var this: Bool",
            "public var idURL: Date?",
            "public var anything: DatabaseValue",
            "public var price: Double?",
            "public var photo: Data?",
            "public var typedClob: String",
            "public var `default`: Double?",
            "public var stamp: Date",
            "public var created: Date?",
            # Keys: composite in key order; WITHOUT ROWID keys NOT NULL; a
            # rowid table's composite key may be NULL.
            'public static let primaryKey: [String] = ["namespace", "name"]',
            "public var namespace: String",
            'public static let primaryKey: [String] = ["b", "a"]',
            "public var a: Int64?",
            'public static let primaryKey: [String] = ["名前"]',
            "public var 名前: String?",
            # Coding keys map changed names back to the columns, exactly.
            'case myColumn = "my column"',
            'case _2fa = "2fa"',
            'case quoteD = "quote\\"d"',
            'case idURL = "ID_URL"',
            'case mood = "🙂 mood"',
            "case `class`",
            # Columns name the columns as they are.
            'public static var quoteD: Column { Column("quote\\"d") }',
            'public static var `default`: Column { Column("default") }',
        )
        # A table whose names all map to themselves has no CodingKeys.
        tag = out[out.index("public struct Tag"):]
        self.assertNotIn("CodingKeys", tag)
        # The view is left out unless named.
        self.assertNotIn("folder names", out)

    def test_swift_associations_pass_their_columns_and_have_distinct_names(self):
        out = self.generate("swift", self.db)
        self.assertLines(
            out,
            # Two keys to one table: named after their columns.
            "public static var author: BelongsToAssociation<PersonSNote, Folder> {",
            'belongsTo(Folder.self, using: ForeignKey(["author_id"], to: ["id"]))',
            "public static var editor: BelongsToAssociation<PersonSNote, Folder> {",
            'belongsTo(Folder.self, using: ForeignKey(["editor_id"], to: ["id"]))',
            "public static var authorPersonSNotes: HasManyAssociation<Folder, PersonSNote> {",
            'hasMany(PersonSNote.self, using: ForeignKey(["author_id"], to: ["id"]))',
            "public static var editorPersonSNotes: HasManyAssociation<Folder, PersonSNote> {",
            # A self-reference: both sides on the one type.
            "public static var parent: BelongsToAssociation<PersonSNote, PersonSNote> {",
            'belongsTo(PersonSNote.self, using: ForeignKey(["parent_id"], to: ["note id"]))',
            "public static var parentPersonSNotes: HasManyAssociation<PersonSNote, PersonSNote> {",
            # The only key between two tables: named after the other type;
            # an implicit reference gets the parent's primary key.
            "public static var folder: BelongsToAssociation<Tag, Folder> {",
            'belongsTo(Folder.self, using: ForeignKey(["folder"], to: ["id"]))',
            "public static var tags: HasManyAssociation<Folder, Tag> {",
        )

    @unittest.skipUnless(swift_compiler(), "swiftc is not on PATH")
    def test_swift_output_type_checks_against_the_contract(self):
        result = self.typecheck_swift(self.generate("swift", self.db))
        self.assertEqual(result.returncode, 0, result.stderr)

    @unittest.skipUnless(swift_compiler(), "swiftc is not on PATH")
    def test_the_swift_type_check_fails_for_broken_output(self):
        out = self.generate("swift", self.db).replace("public var `class`: String", "public var class: String")
        self.assertNotEqual(self.typecheck_swift(out).returncode, 0)

    @unittest.skipUnless(swift_compiler(), "swiftc is not on PATH")
    def test_tables_named_like_the_types_the_output_uses_still_type_check(self):
        db = self.database(
            "CREATE TABLE date(id INTEGER PRIMARY KEY, d DATE, x); CREATE TABLE string(s TEXT PRIMARY KEY, b BOOL);"
            "CREATE TABLE column(c INTEGER REFERENCES date, n NUMERIC, p BLOB);", name="shadowing.db")
        out = self.generate("swift", db)
        self.assertLines(out, "public var d: Foundation.Date?", "public var s: Swift.String?",
                         'public static var c: SQLiteBridge.Column { SQLiteBridge.Column("c") }',
                         "public struct Column: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {")
        result = self.typecheck_swift(out)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_cxx_names_types_and_traits(self):
        out = self.generate("cxx", self.db)
        self.assertLines(
            out,
            "// clang-format off",
            "struct Folder {",
            'static constexpr const char* databaseTableName = "folder";',
            "std::int64_t id{};",
            "std::string class_;",
            "std::optional<std::int64_t> _2fa;",
            "bool this_{};",
            "std::optional<std::chrono::system_clock::time_point> idURL;",
            "sqlitebridge::Value anything;",
            "std::optional<std::vector<std::uint8_t>> photo;",
            "std::optional<double> default_;",
            "std::int64_t errno_{};",
            'static sqlitebridge::Expression quoteD() { return sqlitebridge::column("quote\\"d"); }',
            'static constexpr const char* databaseTableName = "person\'s note";',
            'static std::vector<std::string> primaryKey() { return {"namespace", "name"}; }',
            "std::string namespace_;",
            "struct sqlitebridge::RecordTraits<Folder> {",
            'out.add("photo", in.photo ? sqlitebridge::Value::fromBlob(*in.photo) : sqlitebridge::Value());',
            'out.add("this", sqlitebridge::Value(static_cast<std::int64_t>(in.this_)));',
            'return request.joining("person\'s note", kind, sqlitebridge::ForeignKeyColumns{{"id"}, {"editor_id"}});',
            'return request.joining("folder", kind, sqlitebridge::ForeignKeyColumns{{"editor_id"}, {"id"}});',
            # Non-ASCII bytes of names as octal escapes; identifiers as UTF-8.
            'static constexpr const char* databaseTableName = "caf\\303\\251";',
            "std::optional<std::string> 名前;",
        )

    @unittest.skipUnless(cxx_compilers(), "no C++ compiler on PATH")
    def test_cxx_output_compiles_without_warnings_with_each_compiler(self):
        for compiler, result in self.compile_cxx(self.generate("cxx", self.db)):
            self.assertEqual(result.returncode, 0, f"{compiler}: {result.stderr}")

    def test_output_file(self):
        path = os.path.join(self.dir, "Records.swift")
        result = run("generate", "swift", self.db, "--output", path)
        self.assertEqual((result.returncode, result.stdout, result.stderr), (0, "", ""))
        with open(path, encoding="utf-8") as file:
            self.assertEqual(file.read(), self.generate("swift", self.db))


class AffinityTests(GenerateTestCase):
    # Declared type -> (Swift type, C++ type), as SQLite's rules give the
    # affinity (datatype3.html 3.1), with dates and booleans first.
    CASES = [
        ("INT", "Int64", "std::int64_t"),
        ("INTEGER", "Int64", "std::int64_t"),
        ("TINYINT", "Int64", "std::int64_t"),
        ("UNSIGNED BIG INT", "Int64", "std::int64_t"),
        ("FLOATING POINT", "Int64", "std::int64_t"),  # "INT" wins, as in SQLite
        ("CHARACTER(20)", "String", "std::string"),
        ("VARCHAR(255)", "String", "std::string"),
        ("NCHAR(55)", "String", "std::string"),
        ("TEXT", "String", "std::string"),
        ("CLOB", "String", "std::string"),
        ("BLOB", "Data", "std::vector<std::uint8_t>"),
        ("REAL", "Double", "double"),
        ("DOUBLE", "Double", "double"),
        ("DOUBLE PRECISION", "Double", "double"),
        ("FLOAT", "Double", "double"),
        ("NUMERIC", "Double", "double"),
        ("DECIMAL(10,5)", "Double", "double"),
        ("STRING", "Double", "double"),  # NUMERIC affinity
        ("BOOLEAN", "Bool", "bool"),
        ("bool", "Bool", "bool"),
        ("DATE", "Date", "std::chrono::system_clock::time_point"),
        ("datetime", "Date", "std::chrono::system_clock::time_point"),
        ("TIMESTAMP", "Date", "std::chrono::system_clock::time_point"),
        ("", "DatabaseValue", "sqlitebridge::Value"),
    ]

    def test_each_declared_type(self):
        columns = ", ".join(f'"c{i}" {declared}' for i, (declared, _, _) in enumerate(self.CASES))
        not_null = ", ".join(f'"m{i}" {declared} NOT NULL' for i, (declared, _, _) in enumerate(self.CASES))
        db = self.database(f"CREATE TABLE t(id INTEGER PRIMARY KEY, {columns}, {not_null});")
        swift = self.generate("swift", db)
        cxx = self.generate("cxx", db)
        for i, (declared, swift_type, cxx_type) in enumerate(self.CASES):
            with self.subTest(declared=declared):
                optional = "" if swift_type == "DatabaseValue" else "?"
                self.assertLines(swift, f"public var c{i}: {swift_type}{optional}", f"public var m{i}: {swift_type}")
                cxx_optional = cxx_type if cxx_type == "sqlitebridge::Value" else f"std::optional<{cxx_type}>"
                self.assertIn(f"  {cxx_optional} c{i};", cxx)
                self.assertRegex(cxx, rf"\n  {cxx_type} m{i}(\{{\}})?;")

    def test_integer_primary_key_is_the_rowid_only_when_declared_integer(self):
        db = self.database("CREATE TABLE a(id INTEGER PRIMARY KEY); CREATE TABLE b(id INT PRIMARY KEY);"
                           "CREATE TABLE c(id INTEGER, PRIMARY KEY (id)); CREATE TABLE d(id TEXT PRIMARY KEY);"
                           "CREATE TABLE e(id INTEGER PRIMARY KEY, x) WITHOUT ROWID;")
        out = self.generate("swift", db)
        blocks = {block.split(" ")[0]: block for block in out.split("public struct ")[1:]}
        self.assertIn("public var id: Int64\n", blocks["A:"])
        self.assertIn("public var id: Int64?\n", blocks["B:"])  # INT PRIMARY KEY is not the rowid
        self.assertIn("public var id: Int64\n", blocks["C:"])
        self.assertIn("public var id: String?\n", blocks["D:"])  # SQLite lets it be NULL
        self.assertIn("public var id: Int64\n", blocks["E:"])
        self.assertIn("public var x: DatabaseValue\n", blocks["E:"])


class SelectionTests(GenerateTestCase):
    def setUp(self):
        super().setUp()
        self.db = self.database(
            "CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT);"
            "INSERT INTO counted(v) VALUES ('x');"
            "CREATE VIRTUAL TABLE docs USING fts5(body);"
            "CREATE VIEW shown AS SELECT v FROM counted;")

    def test_views_internal_and_shadow_tables_are_left_out(self):
        out = self.generate("swift", self.db)
        self.assertEqual(
            [line.split(":")[0] for line in out.split("\n") if line.startswith("public struct ")],
            ["public struct Counted", "public struct Docs"])

    def test_named_tables_only_in_the_order_given_views_and_internal_ones_included(self):
        out = self.generate("swift", self.db, "--table", "shown", "--table", "docs_data", "--table",
                            "sqlite_sequence", "--table", "COUNTED", "--table", "counted")
        self.assertEqual(
            [line.split(":")[0] for line in out.split("\n") if line.startswith("public struct ")],
            ["public struct Shown", "public struct DocsData", "public struct SqliteSequence",
             "public struct Counted"])
        self.assertLines(out, 'public static let databaseTableName: String = "counted"',
                         "public static let primaryKey: [String] = []")

    def test_an_unknown_table_is_an_error_naming_it(self):
        path = os.path.join(self.dir, "out.swift")
        result = run("generate", "swift", self.db, "--table", "counted", "--table", "no such", "--output", path)
        self.assertFails(result, "error: no such table or view: no such")
        self.assertFalse(os.path.exists(path))

    def test_a_missing_database_fails_and_is_not_created(self):
        missing = os.path.join(self.dir, "missing.db")
        result = run("generate", "cxx", missing)
        self.assertEqual(result.returncode, 1)
        self.assertIn("SQLite error", result.stderr)
        self.assertFalse(os.path.exists(missing))

    def test_usage_errors(self):
        for args in (["generate"], ["generate", "swift"], ["generate", "rust", self.db],
                     ["generate", "swift", self.db, "--tables", "x"]):
            with self.subTest(args=args):
                self.assertEqual(run(*args).returncode, 2)


class CollisionTests(GenerateTestCase):
    def test_two_columns_with_one_property_name(self):
        db = self.database('CREATE TABLE t("a b" TEXT, "a_b" TEXT);')
        path = os.path.join(self.dir, "out.hpp")
        result = run("generate", "cxx", db, "--output", path)
        self.assertFails(result, 'error: columns "a b" and "a_b" of table "t" both map to the property aB')
        self.assertFalse(os.path.exists(path))

    def test_two_tables_with_one_type_name(self):
        db = self.database('CREATE TABLE "my table"(x); CREATE TABLE my_table(y);')
        self.assertFails(run("generate", "swift", db),
                         'error: tables "my table" and "my_table" both map to the type name MyTable')

    def test_names_the_generated_code_reserves(self):
        for script, message in [
            ("CREATE TABLE columns(x);", 'table "columns" maps to the type name Columns'),
            ("CREATE TABLE t(hash_value INT);", 'column "hash_value" of table "t" maps to the property hashValue'),
            ('CREATE TABLE t("primary key" INT);', "maps to the property primaryKey"),
        ]:
            with self.subTest(script=script):
                db = self.database(script, name=f"{abs(hash(script))}.db")
                self.assertFails(run("generate", "swift", db), message, "which the generated code reserves")

    def test_two_associations_with_one_name(self):
        db = self.database("CREATE TABLE person(id INTEGER PRIMARY KEY);"
                           "CREATE TABLE note(id INTEGER PRIMARY KEY, owner_id REFERENCES person,"
                           " owner REFERENCES person);")
        self.assertFails(run("generate", "swift", db),
                         'table "note": the associations belongsTo "person" (owner) and belongsTo "person" '
                         "(owner_id) both map to the name owner")

    def test_a_name_with_no_word_is_numbered_not_dropped(self):
        db = self.database('CREATE TABLE "!!"("?" INT, "-" TEXT);')
        out = self.generate("swift", db)
        self.assertLines(out, "public struct Table: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {",
                         "public var column1: Int64?", "public var column2: String?",
                         'case column1 = "?"', 'case column2 = "-"')


if __name__ == "__main__":
    CLI = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
