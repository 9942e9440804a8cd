#!/usr/bin/env python3
"""Writes the Clang VFS overlay the Swift compiler uses on Linux, so that
swift-symbolgraph-extract sees the C++ and C standard libraries as modules
the way the compiler does.

Usage: swiftc -typecheck -cxx-interoperability-mode=default FILE \
         -Xfrontend -dump-clang-diagnostics 2>&1 | clang_vfs_overlay.py DIR

The compiler maps module maps of its own into the system include folders
(libstdc++ and glibc have none) and prints what it maps with
-dump-clang-diagnostics: "mapping real file 'R' to virtual file 'V'" and
"overriding file 'V' with the following contents: ...". Swift 6.3's
swift-symbolgraph-extract does not, and fails on a module built with C++
interoperability ("cannot load underlying module for 'CxxStdlib'"). This
writes DIR/overlay.yaml (give it to Clang with -ivfsoverlay) and the
overridden files next to it, and prints the overlay's path. Exits 1 when the
dump holds no mapping.
"""
import json
import os
import re
import sys

MAPPING = re.compile(r"^\s*mapping real file '([^']+)' to virtual file '([^']+)'")
OVERRIDE = re.compile(r"^clang importer overriding file '([^']+)' with the following contents:")


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    files = {}  # virtual path -> real path
    lines = sys.stdin.read().splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        mapping = MAPPING.match(line)
        override = OVERRIDE.match(line)
        if mapping:
            files[mapping.group(2)] = mapping.group(1)
        elif override:
            virtual = override.group(1)
            body = []
            index += 1
            while index < len(lines) and not lines[index].startswith("clang importer "):
                body.append(lines[index])
                index += 1
            real = os.path.join(directory, f"override-{len(files)}-{os.path.basename(virtual)}")
            with open(real, "w", encoding="utf-8") as out:
                out.write("\n".join(body).rstrip() + "\n")
            files[virtual] = os.path.abspath(real)
            continue
        index += 1
    if not files:
        print("error: the compiler reported no file mappings (not Linux, or its output changed)", file=sys.stderr)
        return 1
    roots = {}
    for virtual, real in files.items():
        roots.setdefault(os.path.dirname(virtual), []).append(
            {"name": os.path.basename(virtual), "type": "file", "external-contents": real})
    overlay = {"version": 0, "case-sensitive": "false",
               "roots": [{"name": name, "type": "directory", "contents": contents} for name, contents in roots.items()]}
    path = os.path.join(directory, "overlay.yaml")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(overlay, out, indent=1)
    print(os.path.abspath(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
