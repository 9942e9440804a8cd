#!/usr/bin/env python3
"""Checks the relative links of README.md and docs/*.md.

Usage: check_markdown_links.py [MARKDOWN...]   (default: README.md docs/*.md)

Every link or image `[text](target)` whose target is not a URL (http:,
https:, mailto:) must name a file or directory that exists, relative to the
page; a `#fragment` must be a heading of the target page (or of the page
itself for `(#fragment)`), by GitHub's rule: lower case, punctuation other
than `-` and `_` dropped, spaces made `-`, a repeated heading numbered
`-1`, `-2`, ... Code blocks and inline code are skipped.

Prints each broken link with its page and line and exits 1 when there is
one; 0 when all resolve.
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text):
    """The lines outside fenced code blocks, with inline code removed: (number, line)."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, re.sub(r"`[^`]*`", "", line)


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        found = set()
        fenced = False
        for line in open(path, encoding="utf-8").read().splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            match = None if fenced else HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


def check(page):
    problems = []
    for number, line in prose_lines(open(page, encoding="utf-8").read()):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^(https?|mailto):", target):
                continue
            path, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = f"{os.path.relpath(page, ROOT)}:{number}: {target}"
            if not os.path.exists(resolved):
                problems.append(f"{where}: no such file {os.path.relpath(resolved, ROOT)}")
            elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                problems.append(f"{where}: no heading #{fragment} in {os.path.relpath(resolved, ROOT)}")
    return problems


def main():
    pages = sys.argv[1:] or [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    problems = []
    links = 0
    for page in pages:
        page = os.path.abspath(page)
        links += sum(
            1
            for _, line in prose_lines(open(page, encoding="utf-8").read())
            for m in LINK.finditer(line)
            if not re.match(r"^(https?|mailto):", m.group(1))
        )
        problems += check(page)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"links: {links} relative links in {len(pages)} pages, " + (f"{len(problems)} BROKEN" if problems else "all resolve"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
