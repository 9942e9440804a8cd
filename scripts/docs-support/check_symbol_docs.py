#!/usr/bin/env python3
"""Fails when a public symbol of the Swift module has no doc comment.

Usage: check_symbol_docs.py SYMBOL_GRAPH_DIR MODULE

Reads every <MODULE>*.symbols.json in SYMBOL_GRAPH_DIR (the module's own
symbols, and its extensions of other modules' types) and lists each symbol
without a doc comment, with its file and line, then exits 1; exits 0 when
there is none.

Exempt, because there is no declaration of ours to write a comment on:
- members the symbol graph marks as synthesized (::SYNTHESIZED:: in the
  identifier): default implementations inherited from a protocol, such as
  `!=` from Equatable or `contains(_:)` from OptionSet, which DocC shows
  with the protocol's own documentation;
- symbols without a source location: those the compiler writes, such as
  the `init(rawValue:)` of an enum with raw values.
Nothing else is exempt: enum cases, protocol witnesses written in the
source (`description`, `init(integerLiteral:)`) and static constants need
their own comment.
"""
import glob
import json
import os
import sys


def main():
    directory, module = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(directory, f"{module}.symbols.json")) +
                   glob.glob(os.path.join(directory, f"{module}@*.symbols.json")))
    if not files:
        print(f"error: no symbol graph for {module} in {directory}", file=sys.stderr)
        return 1
    checked = 0
    missing = []
    for path in files:
        for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            location = symbol.get("location")
            if not location:
                continue
            checked += 1
            if symbol.get("docComment", {}).get("lines"):
                continue
            uri = location["uri"].removeprefix("file://")
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing.append(f"{os.path.relpath(uri)}:{line}: {symbol['kind']['displayName'].lower()} {name}")
    for entry in sorted(missing):
        print(f"error: missing documentation for a public symbol: {entry}", file=sys.stderr)
    if missing:
        print(f"{len(missing)} of {checked} public symbols have no doc comment", file=sys.stderr)
        return 1
    print(f"all {checked} public symbols of {module} have a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
