#!/usr/bin/env python3
"""Fails when an HTML file under DIR links to or shows a local file that is not there.

    python3 .ci/html-links.py DIR

Every href and src of every .html file under DIR is checked: links to other sites
(http:, https:, mailto:, data:) are skipped (no network), a fragment or query is dropped,
and the rest must name a file or folder that exists, relative to the page (or to DIR
for a path that starts with /). Used on the built user guide (.ci/package.sh)."""
import html.parser
import os
import sys
import urllib.parse


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.found.append((tag, value))


def main(root):
    broken, pages = [], 0
    for folder, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".html"):
                continue
            pages += 1
            page = os.path.join(folder, f)
            parser = Links()
            with open(page, encoding="utf-8") as text:
                parser.feed(text.read())
            for tag, link in parser.found:
                parts = urllib.parse.urlsplit(link)
                if parts.scheme or link.startswith("//"):
                    continue
                path = urllib.parse.unquote(parts.path)
                if not path:
                    continue
                base = root if path.startswith("/") else folder
                target = os.path.normpath(os.path.join(base, path.lstrip("/")))
                if not os.path.exists(target):
                    broken.append(f"{os.path.relpath(page, root)}: <{tag}> {link}")
    if pages == 0:
        sys.exit(f"html-links: no HTML page under {root}")
    for b in broken:
        print(f"html-links: broken: {b}", file=sys.stderr)
    if broken:
        sys.exit(f"html-links: {len(broken)} broken local links or images in {pages} pages")
    print(f"html-links: every local link and image of {pages} pages exists")


if __name__ == "__main__":
    main(sys.argv[1])
