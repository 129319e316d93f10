#!/usr/bin/env python3
"""Checks that every relative link in the project's markdown resolves
(ctest doc-links, label docs).

Documents: README.md, docs/**/*.md, examples/**/*.md, scripts/README.md,
tools/README.md, bench/**/*.md, tests/**/README.md. A link [text](path) or ![alt](path) that
is not a URL must name an existing file or folder, relative to the document;
a #fragment on a markdown file must name one of its headings (GitHub's
slugs). scripts/README.md must link every file under scripts/ (its folders
too), tools/README.md every file of tools/, and docs/ARCHITECTURE.md's
"Source map" every .cpp and .h under src/ and runtime/. Exit 0 when all resolve, 1 otherwise (each broken link printed as
file:line: target).

  tests/docs/doc-links.py [--source-dir SRC]
"""
import argparse
import glob
import os
import re
import sys

DOCS = ["README.md", "docs/**/*.md", "examples/**/*.md", "scripts/README.md",
        "tools/README.md", "bench/**/*.md", "tests/**/README.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, counts = set(), {}
        in_code = False
        for line in open(path, encoding="utf-8"):
            if line.lstrip().startswith("```"):
                in_code = not in_code
            m = None if in_code else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(1))
                n = counts.get(s, 0)
                counts[s] = n + 1
                found.add(s if n == 0 else f"{s}-{n}")
        cache[path] = found
    return cache[path]


def unindexed(src, folder):
    """Files under src/folder (any depth, but __pycache__) that folder/README.md
    does not link, each printed; returns how many."""
    top = os.path.join(src, folder)
    index = open(os.path.join(top, "README.md"), encoding="utf-8").read()
    missing = 0
    for d, subdirs, names in os.walk(top):
        subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(d, name), top)
            if rel != "README.md" and f"]({rel})" not in index:
                missing += 1
                print(f"{folder}/README.md: {folder}/{rel} is not in the index")
    return missing


def unmapped(src):
    """Sources under src/ and runtime/ that docs/ARCHITECTURE.md's "Source
    map" does not name (as `File.cpp`); each printed, their count returned."""
    text = open(os.path.join(src, "docs", "ARCHITECTURE.md"), encoding="utf-8").read()
    start = text.find("## Source map")
    end = text.find("\n## ", start + 1)
    section = "" if start < 0 else text[start:] if end < 0 else text[start:end]
    missing = 0
    for f in sorted(glob.glob(os.path.join(src, "src", "*", "*")) + glob.glob(os.path.join(src, "runtime", "*"))):
        if f.endswith((".cpp", ".h")) and f"`{os.path.basename(f)}`" not in section:
            missing += 1
            print(f"docs/ARCHITECTURE.md: Source map: {os.path.relpath(f, src)} not named")
    return missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    src = os.path.realpath(ap.parse_args().source_dir)
    docs = sorted({p for g in DOCS for p in glob.glob(os.path.join(src, g), recursive=True)
                   if "/build" not in os.path.relpath(p, src).split("/")[0]})
    broken = checked = 0
    for doc in docs:
        in_code = False
        for n, line in enumerate(open(doc, encoding="utf-8"), 1):
            if line.lstrip().startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                target = m.group(1)
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue
                path, _, frag = target.partition("#")
                full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
                checked += 1
                problem = None
                if not os.path.exists(full):
                    problem = "no such file"
                elif frag and full.endswith(".md") and frag not in anchors(full):
                    problem = f"no heading '#{frag}'"
                if problem:
                    broken += 1
                    print(f"{os.path.relpath(doc, src)}:{n}: {target}: {problem}")
    # scripts/README.md indexes every script, tools/README.md every tool:
    # one not named there is an error.
    for folder in ("scripts", "tools"):
        broken += unindexed(src, folder)
    broken += unmapped(src)
    print(f"doc-links: {checked} links in {len(docs)} documents, {broken} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
