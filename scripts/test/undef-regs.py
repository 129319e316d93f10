#!/usr/bin/env python3
# undef-regs.py: ptx-opt's own registers (%ptxopt_*) that an entry reads but
# never writes. ptxas accepts such a read (the value is undefined), so a
# clone can compile and still test a garbage value: the per-lane staged
# clone once compared T with a lane-0 copy it never made (h-tri2). A write
# is the destination of an instruction (its first operand, or each register
# of a first-operand vector `{a, b}`, or both predicates of `setp ... p|q`);
# this checks only that some write exists, not that it comes first.
#   undef-regs.py FILE.ptx    exit 1 and `FILE: entry: %reg read, never written`
import re
import sys

REG = re.compile(r"%ptxopt_[A-Za-z]+[0-9]+")


def main(path):
    bad = []
    entry, written, read = None, set(), set()

    def flush():
        for r in sorted(read - written):
            bad.append(f"{path}: {entry}: {r} read, never written")

    for line in open(path, encoding="utf-8"):
        s = line.strip()
        m = re.match(r"\.(visible|weak)?\s*\.?(entry|func)\s+(?:\([^)]*\)\s*)?(\w+)", s)
        if m:
            if entry: flush()
            entry, written, read = m.group(3), set(), set()
            continue
        if not entry or not s or s.startswith(("//", ".reg", ".shared", ".local", ".param", "$", "{", "}")):
            continue
        s = re.sub(r"^@!?%\w+\s+", "", s).rstrip(";")
        parts = s.split(None, 1)
        if len(parts) < 2:
            continue
        op, args = parts
        if op.startswith(("st.", "red.", "bra", "bar", "cp.async", "ret", "call", "prefetch")):
            dest = ""
        elif args.startswith("{"):
            dest = args[: args.index("}") + 1]
        else:
            dest = args.split(",", 1)[0]
        if "[" in dest:
            dest = ""
        written.update(REG.findall(dest))
        read.update(REG.findall(args[len(dest):] if dest and args.startswith(dest) else args))
    if entry: flush()
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(max(main(p) for p in sys.argv[1:]) if sys.argv[1:] else 2)
