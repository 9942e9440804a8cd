#!/usr/bin/env python3
"""Checks the links of a rendered page (the DOM chromium dumped after the
page's scripts ran) against what the page must link to.

Usage: check_rendered_links.py DOM_FILE PAGE_URL REQUIRED_PATH...

Every link of the page is resolved against PAGE_URL, as the browser does.
Each REQUIRED_PATH (a URL path on the same server, such as
/cpp/index.html or /swift/documentation/sqlitebridge/gettingstarted) must be
the target of at least one link (a trailing slash aside), and that target
must answer 200. The page itself must not render as "can't be found"
(DocC's router says so for a path it has no page for, such as
.../index.html, although the server answers 200).
Prints what is missing and exits 1; exits 0 when every one is there.
"""
import html.parser
import sys
import urllib.error
import urllib.parse
import urllib.request


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def normalized(path):
    # A folder with or without its slash is the same page; "/index.html" is
    # not: DocC's router shows "can't be found" for it.
    return path.rstrip("/") or "/"


def answers(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def main():
    dom_file, page_url, required = sys.argv[1], sys.argv[2], sys.argv[3:]
    parser = Links()
    parser.feed(open(dom_file, encoding="utf-8", errors="replace").read())
    targets = {}
    for href in parser.hrefs:
        url = urllib.parse.urljoin(page_url, href)
        parts = urllib.parse.urlsplit(url)
        if parts.netloc == urllib.parse.urlsplit(page_url).netloc:
            targets.setdefault(normalized(parts.path), url)
    missing = []
    for path in required:
        url = targets.get(normalized(path))
        if url is None:
            missing.append(f"no link to {path}")
        elif not answers(url):
            missing.append(f"the link to {path} ({url}) does not answer 200")
    if not parser.hrefs:
        missing.append("the page has no links at all (did its scripts run?)")
    dom = open(dom_file, encoding="utf-8", errors="replace").read()
    if "can't be found" in dom or "can\u2019t be found" in dom:
        missing.append("the page renders as \"can't be found\"")
    for problem in missing:
        print(f"error: {page_url}: {problem}", file=sys.stderr)
    if missing:
        print(f"  links found: {sorted(targets)}", file=sys.stderr)
        return 1
    print(f"{page_url}: links to all {len(required)} required pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
