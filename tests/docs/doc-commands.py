#!/usr/bin/env python3
"""Runs the commands that README.md, docs/*.md and examples/**/README.md give
a user, verbatim, and checks what they print (ctest doc-commands, label docs).

What counts as a command block (fenced with three backticks):
  - a block labelled sh, bash, shell or console: every line is run, as one
    bash script with `set -e` (comments and blank lines as bash sees them);
  - an unlabelled block whose first line starts with "$ ": each "$ " line is
    a command (a trailing backslash continues it); the lines up to the next
    "$ " line are the output the doc shows, which must appear in what the
    command prints (stdout and stderr together), whitespace-normalised,
    where "..." stands for anything (an elision).
An unlabelled block whose first line looks like a command (build/, scripts/, tools/,
ptx-opt, cmake, ...) without a "$ " prompt is an error: label it sh (run) or
text (not commands), so that no command escapes the test by accident.

A comment on the line before a block (blank lines between are allowed)
changes what is done with it:
  <!-- doc-test: skip (REASON) -->    not run; REASON must start with one of
                                      SKIP_REASONS below (printed as skipped)
  <!-- doc-test: exit N -->           each command must exit with N (default 0)
  <!-- doc-test: file NAME from PATH -->  copies the repository file PATH to
                                      NAME in the scratch folder first
Directives are separated by ";".

Where: a fresh scratch folder holding a symbolic link to each top-level
entry of the source tree (but build*/ and .git) and `build` linking to the
build tree under test, so that `build/ptx-opt` and `examples/...` work as
after the README's set-up and what a command writes to the current folder
lands in the scratch folder. Blocks run in document order; one folder per
document (a later block may use what an earlier one wrote, as a reader
would). PTXOPT_BUILD names the build tree (what ptx-nvcc finds by itself
when the build tree is the source tree's build/).

  tests/docs/doc-commands.py --source-dir SRC --build-dir BUILD [-v] [--list]

Exit 0 when every block that runs passes, 1 otherwise.
"""
import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# Why a block may be skipped. A skip is not a pass: each one prints, with
# its reason, and the list here is the whole set of reasons allowed.
SKIP_REASONS = {
    "needs a GPU": "runs a CUDA program or the GPU suite; this runs where there is none (CI)",
    "needs root and the network": "installs Debian packages (scripts/setup.sh)",
    "runs the test suite": "would run this test inside itself (scripts/test.sh)",
    "slow": "nvcc builds of whole programs, over CI's time budget; the ctest labels nvcc and examples build them",
    "placeholder": "names the reader's own files (app.cu, a CMake project, `make`)",
    "delivery change pending": "ptx-nvcc's output changes with the clone delivery change in progress",
}

DOC_GLOBS = ["README.md", "docs/*.md", "examples/**/README.md"]
RUN_LANGS = {"sh", "bash", "shell", "console"}
COMMAND_START = re.compile(r"^(build/|scripts/|tools/|tests/|examples/|\./|ptx-opt\b|ptx-nvcc\b|cmake\b|ctest\b|"
                           r"nvcc\b|python3?\b|bash\b|sh\b|sudo\b|apt(-get)?\b|git\b|PTXOPT_\w+=|export\b|cd\b)")
MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)\s*$")
TIMEOUT_S = 60


class Block:
    def __init__(self, doc, line, lang, lines, directives):
        self.doc, self.line, self.lang, self.lines = doc, line, lang, lines
        self.directives = directives

    @property
    def where(self):
        return f"{self.doc}:{self.line}"


def parse_directives(text, where):
    out = {"skip": None, "exit": 0, "files": []}
    parts, depth, cur = [], 0, ""
    for ch in text:  # split at ";" outside parentheses (a reason may hold one)
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    for part in filter(None, (p.strip() for p in parts + [cur])):
        m = re.fullmatch(r"skip \((.*)\)", part)
        if m:
            reason = m.group(1)
            if not any(reason.startswith(r) for r in SKIP_REASONS):
                raise ValueError(f"{where}: skip reason '{reason}' is not one of: " + ", ".join(SKIP_REASONS))
            out["skip"] = reason
            continue
        m = re.fullmatch(r"exit (\d+)", part)
        if m:
            out["exit"] = int(m.group(1))
            continue
        m = re.fullmatch(r"file (\S+) from (\S+)", part)
        if m:
            out["files"].append((m.group(1), m.group(2)))
            continue
        raise ValueError(f"{where}: unknown doc-test directive '{part}'")
    return out


def blocks_of(src, doc):
    """The fenced blocks of one markdown file that are command blocks."""
    lines = open(os.path.join(src, doc), encoding="utf-8").read().split("\n")
    blocks, errors = [], []
    pending, i = None, 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            try:
                pending = parse_directives(m.group(1), f"{doc}:{i + 1}")
            except ValueError as e:
                errors.append(str(e))
            i += 1
            continue
        f = FENCE.match(lines[i])
        if not f:
            if lines[i].strip():
                pending = None
            i += 1
            continue
        indent, lang, start = f.group(1), f.group(2), i + 1
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        directives, pending = pending, None
        first = next((l for l in body if l.strip()), "")
        if lang in RUN_LANGS or (lang == "" and first.startswith("$ ")):
            blocks.append(Block(doc, start, lang, body, directives or parse_directives("", doc)))
        elif lang == "" and COMMAND_START.match(first.strip()):
            errors.append(f"{doc}:{start}: an unlabelled block that looks like commands "
                          f"('{first.strip()[:40]}'): label it sh (run by this test) or text")
    return blocks, errors


def normalise(text):
    return " ".join(text.split())


def shown_matches(shown, actual):
    """Whether the shown output (with ... elisions) appears in the actual."""
    parts = [re.escape(normalise(p)) for p in normalise("\n".join(shown)).split("...")]
    pattern = r"\s*.*?\s*".join(parts)
    return re.search(pattern, normalise(actual), re.S) is not None


def prompt_commands(body):
    """[(command, shown output lines)] of a block with $ prompts."""
    cmds = []
    for line in body:
        if line.startswith("$ "):
            cmds.append([line[2:], []])
        elif cmds and cmds[-1][0].endswith("\\") and not cmds[-1][1]:
            cmds[-1][0] += "\n" + line
        elif cmds:
            cmds[-1][1].append(line)
    return cmds


def run(cmd, cwd, env):
    """(exit status, output) of one command; over TIMEOUT_S its whole process
    group is killed (a build it started included) and TimeoutExpired raised."""
    p = subprocess.Popen(["bash", "-e", "-o", "pipefail", "-c", cmd], cwd=cwd, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise
    return p.returncode, out.decode("utf-8", "replace")


def run_block(b, src, cwd, env, verbose):
    """None when the block passes, else what went wrong."""
    for name, path in b.directives["files"]:
        shutil.copyfile(os.path.join(src, path), os.path.join(cwd, name))
    want = b.directives["exit"]
    if b.lang in RUN_LANGS:
        steps = [("\n".join(b.lines), [])]
    else:
        steps = prompt_commands(b.lines)
    for cmd, shown in steps:
        try:
            rc, out = run(cmd, cwd, env)
        except subprocess.TimeoutExpired:
            return f"'{cmd}' ran over {TIMEOUT_S} s"
        if verbose:
            print(f"--- {b.where}: $ {cmd}\n{out}--- exit {rc}")
        if rc != want:
            return f"'{cmd}' exited {rc} (expected {want}); it printed:\n{out}"
        if shown and not shown_matches(shown, out):
            return (f"'{cmd}': the shown output does not appear in what it prints.\n"
                    f"shown:\n" + "\n".join(shown) + f"\nprinted:\n{out}")
    return None


def scratch(src, build):
    d = tempfile.mkdtemp(prefix="doc-commands.")
    for e in os.listdir(src):
        if e.startswith("build") or e == ".git":
            continue
        os.symlink(os.path.join(src, e), os.path.join(d, e))
    os.symlink(build, os.path.join(d, "build"))
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--list", action="store_true", help="list the blocks and what would be done")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("only", nargs="*", help="documents to test (paths relative to the source)")
    a = ap.parse_args()
    src, build = os.path.realpath(a.source_dir), os.path.realpath(a.build_dir)
    docs = sorted({os.path.relpath(p, src) for g in DOC_GLOBS
                   for p in glob.glob(os.path.join(src, g), recursive=True)})
    if a.only:
        docs = [d for d in docs if d in a.only]
    env = dict(os.environ, PTXOPT_BUILD=build)
    env.pop("PTXOPT_NVCC_FLAGS", None)
    ran = failed = skipped = 0
    errors = []
    for doc in docs:
        blocks, errs = blocks_of(src, doc)
        errors += errs
        cwd = None
        for b in blocks:
            if b.directives["skip"]:
                skipped += 1
                print(f"skipped {b.where}: {b.directives['skip']}")
                continue
            if a.list:
                print(f"run     {b.where}")
                continue
            cwd = cwd or scratch(src, build)
            t = time.time()
            problem = run_block(b, src, cwd, env, a.verbose)
            ran += 1
            if problem:
                failed += 1
                print(f"FAIL    {b.where}: {problem}")
            else:
                print(f"pass    {b.where} ({time.time() - t:.1f} s)")
        if cwd:
            shutil.rmtree(cwd, ignore_errors=True)
    for e in errors:
        print(f"error   {e}")
    print(f"doc-commands: {ran} blocks run, {failed} failed, {skipped} skipped, {len(errors)} errors "
          f"in {len(docs)} documents")
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
