#!/usr/bin/env python3
"""Compiles the code samples of the documentation against the real API.

Usage: check_snippets.py WORK_DIR SWIFT_FLAGS_FILE MARKDOWN...

Swift: the ```swift blocks of one article are, in order, one program (a
later block may use what an earlier one declared, as a reader typing them
in would), type-checked as a main.swift with `swiftc -typecheck` and the
flags in SWIFT_FLAGS_FILE (one per line: the built module's search paths
and C++ interoperability). A block whose first line is `// Package.swift`
is a manifest excerpt, not program code, and is skipped.

C++: each ```cpp block is checked with `clang++ -std=c++17 -fsyntax-only`
against include/ (and the cluster library's
Sources/SQLiteBridgeClusterCore/include): a block with `int main` or made of
#include lines only as it is, any other inside `int main() { ... }` after
the umbrella header.

A page may declare what its samples take as given (the paths, a `db` it
opened, a search field) in HTML comments, which Markdown renderers hide:
`<!-- swift-prelude` ... `-->` is put before the page's Swift program,
`<!-- cpp-prelude` ... `-->` at the start of every wrapped C++ block's
`main` (after the umbrella header and `<thread>`, `<memory>`, `<optional>`).

Prints each failure with the article's name and the compiler's message and
exits 1 when any block fails; 0 when all compile.
"""
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
CXX_PRELUDE = (
    "#include <sqlitebridge/sqlitebridge.hpp>\n#include <iostream>\n#include <memory>\n#include <optional>\n"
    "#include <thread>\n#include <vector>\n"
)


PRELUDE = re.compile(r"^<!--\s*(swift|cpp)-prelude\s*\n(.*?)^-->\s*$", re.M | re.S)


def blocks(path):
    text = open(path, encoding="utf-8").read()
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def preludes(path):
    text = open(path, encoding="utf-8").read()
    found = {"swift": "", "cpp": ""}
    for m in PRELUDE.finditer(text):
        found[m.group(1)] += m.group(2)
    return found


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        print(f"error: a code sample in {what} does not compile:\n{result.stdout}{result.stderr}", file=sys.stderr)
        return False
    return True


def main():
    work, flags_file = sys.argv[1], sys.argv[2]
    swift_flags = [line for line in open(flags_file).read().splitlines() if line]
    os.makedirs(work, exist_ok=True)
    ok = True
    swift_count = cxx_count = 0
    for path in sys.argv[3:]:
        name = os.path.splitext(os.path.basename(path))[0]
        given = preludes(path)
        swift = [code for language, code in blocks(path) if language == "swift" and not code.startswith("// Package.swift")]
        if swift and given["swift"]:
            swift.insert(0, given["swift"])
        if swift:
            directory = os.path.join(work, "swift", name)
            os.makedirs(directory, exist_ok=True)
            main_swift = os.path.join(directory, "main.swift")
            with open(main_swift, "w", encoding="utf-8") as out:
                out.write("\n".join(swift))
            ok &= run(["swiftc", "-typecheck", *swift_flags, main_swift], f"{path} (as {main_swift})")
            swift_count += len(swift) - (1 if given["swift"] else 0)
        for index, code in enumerate(language_code for language, language_code in blocks(path) if language == "cpp"):
            source = os.path.join(work, "cpp", f"{name}-{index}.cpp")
            os.makedirs(os.path.dirname(source), exist_ok=True)
            only_includes = all(not line.strip() or line.startswith("#include") for line in code.splitlines())
            if "int main" in code or only_includes:
                program = code
            else:
                # The block in a scope of its own: it may declare again what the prelude did.
                program = CXX_PRELUDE + "int main() {\n" + given["cpp"] + "{\n" + code + "\n}\n}\n"
            with open(source, "w", encoding="utf-8") as out:
                out.write(program)
            # The core's headers and the cluster library's (<sqlitebridge/cluster/...>).
            includes = ["-Iinclude", "-ISources/SQLiteBridgeClusterCore/include"]
            ok &= run(["clang++", "-std=c++17", "-fsyntax-only", *includes, source], f"{path} (as {source})")
            cxx_count += 1
    print(f"code samples: {swift_count} Swift blocks, {cxx_count} C++ blocks " + ("compile" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
