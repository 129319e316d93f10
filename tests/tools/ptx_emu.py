#!/usr/bin/env python3
"""A small PTX interpreter for the transpose and rowwalk passes' clones
(tests/lit/transpose/*-emu.test, tests/lit/rowwalk/*-emu.test).

It runs a kernel of a PTX file on the CPU, block by block, every thread of a
block up to each bar.sync in turn, with global memory in Python byte arrays
and a shared array per block (and a local frame per thread), and prints a
digest of the output buffer. Its parts: parse_kernel (the kernel's
statements), alu (alu_bits, alu_arith: the value an instruction writes),
run's run_thread (a thread as a generator: memory, branches, warp
operations), warp_step and run_blocks (the block's scheduling).
Warp-synchronous instructions (activemask, vote.sync all/any/ballot,
shfl.sync idx/bfly over the whole warp, bar.warp.sync; %laneid) make a
thread wait until every lane its member mask names waits at the same
instruction (activemask: the lanes waiting there); a mask naming a lane that
has ended or waits elsewhere with nothing able to move is an error, so a
clone whose warps diverge at those points cannot pass silently. It knows the
instructions nvcc 13 emits for the transposes of
tests/lit/transpose/Inputs/transpose.cu and the row walks of
tests/lit/rowwalk/Inputs/exits.cu, those the transpose pass adds and the
rowwalk pass's staged clone's (popc, selp, integer max/min, b64 packs {lo, hi},
setp with .and/.or, neg.f32):
integer arithmetic (div and rem of .s32/.u32 too, mul.hi, neg, bfi, bfe,
prmt, dp4a: char4 arithmetic), abs.f32, sqrt.rn.f32/.f64, ex2.approx.f32 (2**x: not the hardware's
approximation; originals and clones alike), bfind, div.rn.f32, rcp.rn.f32/.f64, mov.b32 packs and
unpacks of two halves (cuda_fp16.h's inline asm, its scope registers
`low`/`high`), setp/or.pred/not.pred (f32 and f64 compares, the unordered forms
too: inputs are never NaN), max/min.f32, cvt between integers,
u16 -> f32 and f32 <-> f16 (cuda_fp16.h's conversions),
mul/add/sub/fma.rn.f32, fma.rm/.rp/.rz.f32 (exact, rounded once), abs.s32, add/sub/mul/div.rn/fma.rn/neg.f64 (0d immediates), ld/st of .param, .global, .shared and .local (a frame per thread; scalars and v4), bra,
bar.sync, ret, exit. Anything else is an error (exit 2), so a clone that used an
unknown instruction cannot pass silently.

  ptx_emu.py FILE.ptx KERNEL --grid X,Y,Z --block X,Y,Z --args SPEC...
      [--extra V ...] [--extra-end N ...]

An argument SPEC: in:<bytes>:<seed> (a buffer filled with pseudo-random bytes;
floats kept finite), inzeros:<bytes>:<seed> (the same, one float in three
0), inzero:<bytes>:<seed>:<k>[:last0] (integers 1..1000, one in k 0: sentinels;
last0: the last element 0 too), ints:<bytes>:<seed>:<lo>:<hi> (32-bit integers
in [lo, hi], negative ones too: a signed load into a wider register is
sign-extended, as nvcc's `ld.global.s32 %rd1` of an int summed into a long long is),
rowptr:<seed>:<n>x<lo>-<hi>[,...] (a CSR row pointer of 32-bit offsets from 0:
n rows of lo..hi elements each, segment after segment; rowptr64: 64-bit offsets),
rows:<n>:<seed>:<t>:<w>[:<off>] (n 64-bit pointers to rows picked at random of a
table of t rows of w bytes of in:'s floats, starting off bytes into its buffer),
out:<bytes> (a buffer of 0x5a bytes, the one
printed), inout:<bytes>:<seed> and inoutints:... (in: and ints: buffers printed as outputs too), i32:<v>, i64:<v>, f32:<v>, pack:<spec>+<spec>... (a struct argument,
`.param .align A .b8 p[N]`: the fields at their natural alignment, pointers 8 bytes). --extra appends .u32 values after them
(the tiled clone's original grid.x/.y); --extra-end N appends a .u64, the
end of argument N's buffer (the runtime's allocEnds; N-K: K bytes before it, an allocation
that ends early, so the clone's checks fail). Prints "out <sha256> written <n>"
per out buffer (n: its bytes that are no longer 0x5a).
"""
import hashlib
import math
import random
import re
import struct
from fractions import Fraction
import sys


def fail(msg):
    print("ptx_emu: " + msg, file=sys.stderr)
    sys.exit(2)


def split_ops(text):
    ops, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def parse_kernel(text, name):
    # Performance directives (.maxntid, .reqntid, .minnctapersm: __launch_bounds__) may stand
    # between the parameter list and the body.
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\((.*?)\)[^{;]*\{", text, re.S)
    if not m:
        fail("no kernel " + name)
    # Each parameter: its type and name; an aggregate (`.param .align 8 .b8 p[16]`: a struct
    # argument) as (".b8[16]", p), its value the little-endian integer of its bytes.
    params = []
    for decl in [d.strip() for d in m.group(1).split(",") if d.strip()]:
        pm = re.match(r"^\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+(?:\.ptr\s+(?:\.\w+\s+(?:\d+\s+)?)*)?(\w+)(\[\d+\])?$", decl)
        if not pm:
            fail("parameter " + decl)
        params.append((pm.group(1) + (pm.group(3) or ""), pm.group(2)))
    body, depth, i = "", 1, m.end()
    while depth:
        ch = text[i]
        depth += ch == "{"
        depth -= ch == "}"
        if depth:
            body += ch
        i += 1
    body = re.sub(r"//[^\n]*", "", body)
    shared, instrs, labels, regw = {}, [], {}, {}
    local, lsize = {}, 0  # local symbols: offsets into each thread's own frame
    size = 0
    for stmt in body.replace("\n", " ").split(";"):
        stmt = stmt.strip().lstrip("{} \t")  # nested scopes (cuda_fp16.h's inline asm) declare nothing here
        while True:
            lm = re.match(r"^([$\w]+):\s*(.*)$", stmt)
            if not lm:
                break
            labels[lm.group(1)] = len(instrs)
            stmt = lm.group(2).strip().lstrip("{} \t")
        if not stmt or stmt in ("{", "}"):
            continue
        if stmt.startswith(".shared"):
            sm = re.match(r"\.shared\s+\.align\s+(\d+)\s+\.b8\s+(\w+)\[(\d+)\]", stmt)
            align = int(sm.group(1))
            size = (size + align - 1) // align * align
            shared[sm.group(2)] = size
            size += int(sm.group(3))
            continue
        if stmt.startswith(".reg"):  # widths, for loads into a wider register (`ld.global.s32 %rd1`)
            rm = re.match(r"^\.reg\s+\.(\w+)\s+(.*)$", stmt)
            if rm:
                for n in (x.strip() for x in rm.group(2).split(",")):
                    nm = re.match(r"^(%?[$\w]+)<\d+>$", n)
                    regw[("prefix", nm.group(1)) if nm else ("name", n)] = bits_of("." + rm.group(1))
            continue
        if stmt.startswith(".local"):  # a thread's local frame (nvcc's __local_depot: arrays indexed by data)
            lm = re.match(r"\.local\s+\.align\s+(\d+)\s+\.b8\s+(\w+)\[(\d+)\]", stmt)
            if lm:
                align = int(lm.group(1))
                lsize = (lsize + align - 1) // align * align
                local[lm.group(2)] = lsize
                lsize += int(lm.group(3))
            continue
        if stmt.startswith(".pragma"):
            continue
        guard = None
        gm = re.match(r"^@(!?)(%\w+)\s+(.*)$", stmt)
        if gm:
            guard = (gm.group(1) == "!", gm.group(2))
            stmt = gm.group(3)
        parts = stmt.split(None, 1)
        instrs.append((guard, parts[0], split_ops(parts[1]) if len(parts) > 1 else []))
    return params, instrs, labels, shared, size, regw, local, lsize


def bits_of(t):
    """Bits of a type modifier: .u8 8, .s32 32, .b64 64, .f64 64, .pred 0."""
    m = re.match(r"^\.[subfb](8|16|32|64)$", t)
    return int(m.group(1)) if m else 0


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits & 0xFFFFFFFFFFFFFFFF))[0]


def from_f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def from_f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def round_f32(exact, mode):
    """The float nearest `exact` (a Fraction) in rounding mode rm (toward
    -inf), rp (toward +inf) or rz (toward zero), as bits; a zero is +0."""
    if exact == 0:
        return 0
    try:
        bits = from_f32(float(exact))  # nearest, give or take one unit
    except OverflowError:
        bits = 0x7F7FFFFF if exact > 0 else 0xFF7FFFFF

    def value(b):
        return Fraction(f32(b)) if math.isfinite(f32(b)) else None

    def up(b):  # the next float toward +inf
        if b == 0x80000000:
            return 1
        return b - 1 if b & 0x80000000 else b + 1

    def down(b):  # the next float toward -inf
        if b == 0:
            return 0x80000001
        return b + 1 if b & 0x80000000 else b - 1

    # the largest float <= exact, and the smallest >= it
    lo = bits
    while value(lo) is None or value(lo) > exact:
        lo = down(lo)
    while value(up(lo)) is not None and value(up(lo)) <= exact:
        lo = up(lo)
    hi = lo if value(lo) == exact else up(lo)
    if mode == "rm":
        return lo
    if mode == "rp":
        return hi
    return lo if exact > 0 else hi  # rz


def signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


class Memory:
    def __init__(self):
        self.bufs = []  # (base, bytearray)

    def alloc(self, data):
        base = 0x100000000 * (len(self.bufs) + 1)
        self.bufs.append((base, data))
        return base

    def find(self, addr, n):
        for base, data in self.bufs:
            if base <= addr and addr + n <= base + len(data):
                return data, addr - base
        fail("global access out of bounds at 0x%x" % addr)


_NO = object()  # alu_bits: not one of its instructions

def alu(op, p, base, t, srcs, n, mask):
    """The value an arithmetic, logic, compare or conversion instruction `op`
    (its dot-separated parts p, base p[0], type t) writes to its destination,
    from its source values srcs (n: the type's bits, mask: its mask).
    run_thread does memory, branches, warp operations and register packs."""
    r = alu_bits(op, p, base, t, srcs, n, mask)
    return r if r is not _NO else alu_arith(op, p, base, t, srcs, n, mask)


def alu_bits(op, p, base, t, srcs, n, mask):
    """Moves, compares, logic, bit fields, selects, integer max/min, dp4a,
    neg.f32; _NO for any other instruction."""
    if base == "mov" or base == "cvta":
        return srcs[0]
    elif base == "setp":
        cmp = p[1]
        a, b = srcs[0], srcs[1]
        boolop = p[2] if len(p) > 3 and p[2] in ("and", "or") else None
        if t[1] == "s":
            a, b = signed(a, n), signed(b, n)
        elif t[1] == "u" or (t[1] == "b" and cmp in ("eq", "ne")):  # .b: bits, equality only
            a, b = a & mask, b & mask
        elif t in (".f32", ".f64") and cmp[:2] in ("eq", "ne", "lt", "gt", "le", "ge") and cmp[2:] in ("", "u"):
            # inputs are never NaN: the unordered forms (leu ...) are the ordered ones
            a, b = (f32(a), f32(b)) if t == ".f32" else (f64(a), f64(b))
        else:
            fail(op)
        r = {"ge": a >= b, "lt": a < b, "gt": a > b, "le": a <= b, "eq": a == b, "ne": a != b}[cmp[:2]]
        if boolop:
            r = (r and bool(srcs[2])) if boolop == "and" else (r or bool(srcs[2]))
        return r
    elif base in ("or", "and", "xor") and t == ".pred":  # a predicate's width is 0: no mask
        return {"or": bool(srcs[0]) or bool(srcs[1]), "and": bool(srcs[0]) and bool(srcs[1]),
                   "xor": bool(srcs[0]) != bool(srcs[1])}[base]
    elif base in ("and", "or", "xor"):
        return {"and": srcs[0] & srcs[1], "or": srcs[0] | srcs[1], "xor": srcs[0] ^ srcs[1]}[base] & mask
    elif base == "bfi":  # insert a's low len bits into b at pos (PTX: len 0 or pos past the width: b)
        pos, ln = srcs[2] & 0xFF, srcs[3] & 0xFF
        if ln == 0 or pos >= n:
            return srcs[1] & mask
        else:
            fm = ((1 << min(ln, n - pos)) - 1) << pos
            return ((srcs[1] & ~fm) | ((srcs[0] << pos) & fm)) & mask
    elif base == "bfe":  # extract len bits of a from pos (PTX: .s sign-extends the field; len 0: 0)
        pos, ln = srcs[1] & 0xFF, srcs[2] & 0xFF
        a = srcs[0] & mask
        if ln == 0:
            return 0
        elif pos >= n:  # the whole field past the top: .u 0, .s the sign bit replicated
            return (mask if (t[1] == "s" and a >> (n - 1)) else 0)
        else:
            ln = min(ln, n - pos)
            f = (a >> pos) & ((1 << ln) - 1)
            return (signed(f, ln) & mask) if t[1] == "s" else f
    elif base == "popc":
        return bin(srcs[0] & mask).count("1")
    elif base == "selp":  # selp.t d, a, b, p: p ? a : b
        return (srcs[0] if srcs[2] else srcs[1]) & mask
    elif base in ("max", "min") and t[1] in "su":
        a, b = (signed(srcs[0], n), signed(srcs[1], n)) if t[1] == "s" else (srcs[0] & mask, srcs[1] & mask)
        return (max(a, b) if base == "max" else min(a, b)) & mask
    elif base == "neg" and t == ".f32":
        return srcs[0] ^ 0x80000000
    elif base == "dp4a":
        ta, tb = p[1], p[2]
        def bytes4(x, sg):
            r = []
            for k in range(4):
                b = (x >> (8 * k)) & 0xFF
                if sg == "s32" and b & 0x80: b -= 256
                r.append(b)
            return r
        aa, bb = bytes4(srcs[0], ta), bytes4(srcs[1], tb)
        return (sum(x * y for x, y in zip(aa, bb)) + srcs[2]) & 0xFFFFFFFF
    return _NO


def alu_arith(op, p, base, t, srcs, n, mask):
    """Floating-point and integer arithmetic, shifts, conversions, bfind."""
    if base == "sqrt" and t == ".f32" and p[1] == "rn":
        return from_f32(math.sqrt(f32(srcs[0])))
    elif base == "sqrt" and t == ".f64" and p[1] == "rn":
        return from_f64(math.sqrt(f64(srcs[0])))
    elif base == "ex2" and t == ".f32" and p[1] == "approx":
        # The hardware's approximation is not this, but the original
        # and its clone run the same instruction: their digests compare.
        x = f32(srcs[0])
        return from_f32(0.0 if x < -200 else math.inf if x > 200 else 2.0 ** x)
    elif base == "abs" and t == ".f32":
        return srcs[0] & 0x7FFFFFFF
    elif base == "abs" and t[1] == "s":
        return abs(signed(srcs[0], n)) & mask
    elif base == "neg" and t == ".f64":
        return srcs[0] ^ (1 << 63)
    elif base in ("add", "sub", "mul", "div") and t == ".f64" and (p[1] == "rn" or (base != "div" and p[1] == "f64")):
        # Python's float: IEEE double, round to nearest even (other
        # rounding modes are not modelled: they fail below).
        a, b = f64(srcs[0]), f64(srcs[1])
        if base == "div" and b == 0.0:
            fail(op + " by zero (not modelled)")
        return from_f64(a + b if base == "add" else a - b if base == "sub" else a * b if base == "mul"
                           else a / b)
    elif base == "fma" and t == ".f64" and p[1] == "rn":
        # Fused: the exact product and sum (fractions), rounded once
        # (float() of a Fraction rounds to nearest even); an exact
        # zero takes IEEE's sign (negative only when the product and
        # the addend are both negative zeros); infinities and NaNs are
        # not modelled.
        a, b, c = f64(srcs[0]), f64(srcs[1]), f64(srcs[2])
        if not all(math.isfinite(v) for v in (a, b, c)):
            fail(op + " of a non-finite value (not modelled)")
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:
            neg = math.copysign(1.0, a) * math.copysign(1.0, b) < 0 and math.copysign(1.0, c) < 0 and a * b == 0
            return from_f64(-0.0 if neg else 0.0)
        else:
            try:
                return from_f64(float(exact))
            except OverflowError:
                return from_f64(math.copysign(math.inf, exact))
    elif base == "neg" and t[1] == "s":
        return -srcs[0] & mask
    elif base == "not" and t == ".pred":  # a predicate's width is 0: ~x & mask would always be false
        return not srcs[0]
    elif base == "not":
        return ~srcs[0] & mask
    elif base == "shr":
        return (signed(srcs[0], n) >> srcs[1] if t[1] == "s" else (srcs[0] & mask) >> srcs[1]) & mask
    elif base == "shl":
        return (srcs[0] << srcs[1]) & mask
    elif base in ("add", "sub") and t != ".f32":
        return (srcs[0] + srcs[1] if base == "add" else srcs[0] - srcs[1]) & mask
    elif base in ("mul", "mad") and t == ".f32":
        fail(op + " (fma contraction not modelled)") if base == "mad" else None
        return from_f32(f32(srcs[0]) * f32(srcs[1]))
    elif base in ("add", "sub") and t == ".f32":
        return from_f32(f32(srcs[0]) + f32(srcs[1]) if base == "add" else f32(srcs[0]) - f32(srcs[1]))
    elif base == "fma" and t == ".f32" and p[1] in ("rm", "rp", "rz"):
        # Directed rounding (expf's range reduction uses fma.rm):
        # the exact a*b + c (fractions), rounded once to a float
        # toward -inf, +inf or zero; infinities and NaNs are not
        # modelled.
        a, b, c = f32(srcs[0]), f32(srcs[1]), f32(srcs[2])
        if not all(math.isfinite(v) for v in (a, b, c)):
            fail(op + " of a non-finite value (not modelled)")
        return round_f32(Fraction(a) * Fraction(b) + Fraction(c), p[1])
    elif base == "fma" and t == ".f32" and p[1] == "rn":
        # In double: the product is exact, the sum rounded twice (to
        # double, then float), which can differ from a fused multiply-
        # add in rare cases; the original and its clone run the same
        # function here, and the digests compare those.
        return from_f32(f32(srcs[0]) * f32(srcs[1]) + f32(srcs[2]))
    elif base in ("mul", "mad"):
        a, b = (signed(srcs[0], n), signed(srcs[1], n)) if t[1] == "s" else (srcs[0] & mask, srcs[1] & mask)
        if "wide" in p:
            r, rmask = a * b, (1 << (2 * n)) - 1
        elif "hi" in p:  # the high half of the 2n-bit product (arithmetic shift: floor)
            r, rmask = (a * b) >> n, mask
        else:
            r, rmask = a * b, mask
        if base == "mad":
            r += srcs[2]
        return r & rmask
    elif base in ("div", "rem") and t[1] in "su":  # truncating, as PTX's integer div/rem
        a, b = (signed(srcs[0], n), signed(srcs[1], n)) if t[1] == "s" else (srcs[0] & mask, srcs[1] & mask)
        if b == 0:
            fail(op + " by 0")
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return (q if base == "div" else a - q * b) & mask
    elif base in ("max", "min") and t == ".f32":  # inputs are never NaN; max(-0, +0) is +0
        a, b = f32(srcs[0]), f32(srcs[1])
        if a == b == 0.0:  # +0 and -0: max gives +0 if either is, min -0 if either is
            pos = [math.copysign(1, x) > 0 for x in (a, b)]
            return from_f32(0.0 if (any(pos) if base == "max" else all(pos)) else -0.0)
        else:
            return from_f32(max(a, b) if base == "max" else min(a, b))
    elif base == "cvt":
        dt, st = "." + p[-2], t
        sn = bits_of(st)
        v = signed(srcs[0], sn) if st[1] == "s" else srcs[0] & ((1 << sn) - 1)
        if dt == ".f16" and st == ".f32" and p[1] == "rn":  # cuda_fp16.h's __float2half
            try:
                return struct.unpack("<H", struct.pack("<e", f32(srcs[0])))[0]
            except OverflowError:  # rounds past the largest half: infinity, as the GPU gives
                return 0xFC00 if f32(srcs[0]) < 0 else 0x7C00
        elif dt == ".f32" and st == ".f16":
            return from_f32(struct.unpack("<e", struct.pack("<H", srcs[0] & 0xFFFF))[0])
        elif dt == ".f32":
            return from_f32(float(v))
        else:
            return v & ((1 << bits_of(dt)) - 1)
    elif base == "bfind":  # coalesce's remap clones: the most significant set bit (its shift amount with .shiftamt)
        a = (signed(srcs[0], n) if t[1] == "s" else srcs[0] & mask)
        if t[1] == "s" and a < 0:
            a = ~a
        if a == 0:
            return 0xFFFFFFFF
        else:
            pos = a.bit_length() - 1
            return (n - 1 - pos) if "shiftamt" in p else pos
    elif base == "div" and t == ".f32" and p[1] == "rn":  # in doubles, rounded once: exact (53 >= 2*24 + 2 bits)
        a, b = f32(srcs[0]), f32(srcs[1])
        if b == 0.0:
            fail(op + " by zero (not modelled)")
        return from_f32(a / b)
    elif base == "rcp" and t in (".f32", ".f64") and p[1] == "rn":
        a = f32(srcs[0]) if t == ".f32" else f64(srcs[0])
        if a == 0.0:
            fail(op + " of zero (not modelled)")
        return from_f32(1.0 / a) if t == ".f32" else from_f64(1.0 / a)
    else:
        fail("unknown instruction " + op)


def warp_step(block_threads, state, results):
    """Runs the warp instructions that can run (every member waiting at
    it); False when none can."""
    moved = False
    by_warp = {}
    for i, st in enumerate(state):
        if st and st[0] == "warp":
            by_warp.setdefault(i // 32, []).append(i)
    for w, lanes in by_warp.items():
        at = {}
        for i in lanes:
            at.setdefault(state[i][1], []).append(i)
        for pc_at, group in at.items():
            kind = state[group[0]][2]
            present = {i % 32 for i in group}
            if kind == "activemask":
                m = sum(1 << l for l in present)
                for i in group:
                    results[i], state[i] = m, None
                moved = True
                continue
            masks = {}
            for i in group:
                m = state[i][3] if kind == "barwarp" else state[i][3][-1]
                masks.setdefault(m, []).append(i)
            for m, members in masks.items():
                need = {l for l in range(32) if m >> l & 1}
                if not need <= {i % 32 for i in members}:
                    continue  # a member is not here (yet)
                byl = {i % 32: i for i in members}
                for i in members:
                    if kind == "barwarp":
                        results[i] = None
                    elif kind == "vote":
                        mode = state[i][3][0]
                        preds = [state[byl[l]][3][1] for l in sorted(need)]
                        results[i] = (all(preds) if mode == "all" else any(preds) if mode == "any"
                                      else sum(1 << l for l in sorted(need) if state[byl[l]][3][1]))
                    elif kind == "shfl":
                        mode, _, b, _ = state[i][3]
                        src = (b & 31) if mode == "idx" else ((i % 32) ^ (b & 31)) if mode == "bfly" else None
                        if src is None:
                            fail("shfl mode " + mode)
                        if src not in need:
                            fail("shfl from lane %d outside its member mask" % src)
                        results[i] = state[byl[src]][3][1]
                for i in members:
                    state[i] = None
                moved = True
    return moved


def run_blocks(grid, block, shared_size, run_thread):
    """Runs every block of the grid: its threads (run_thread generators)
    in turn, each to its next barrier or warp operation, those resolved
    (warp_step) or the barrier passed when all wait; the number of barriers
    passed."""
    out_threads = 0
    for cz in range(grid[2]):
        for cy in range(grid[1]):
            for cx in range(grid[0]):
                smem = bytearray(shared_size)
                threads = [run_thread((cx, cy, cz), (tx, ty, tz), smem) for tz in range(block[2])
                           for ty in range(block[1]) for tx in range(block[0])]
                # state[i]: None (runnable), ("bar",), ("warp", pc, kind, payload), or "done"
                state = [None] * len(threads)
                results = [None] * len(threads)
                started = [False] * len(threads)
                while True:
                    for i, th in enumerate(threads):
                        if state[i] is not None:
                            continue
                        try:
                            state[i] = th.send(results[i]) if started[i] else next(th)
                            started[i] = True
                        except StopIteration:
                            state[i] = "done"
                        results[i] = None
                    if all(st == "done" for st in state):
                        break
                    if warp_step(threads, state, results):
                        continue
                    waiting = [st for st in state if st != "done"]
                    if all(st[0] == "bar" for st in waiting):
                        if len(waiting) != len(threads):
                            fail("a barrier not reached by every thread of block (%d,%d,%d)" % (cx, cy, cz))
                        state = [None] * len(threads)
                        out_threads += 1
                        continue
                    fail("warp deadlock in block (%d,%d,%d): %s" % (cx, cy, cz, sorted({(st[1], st[2]) for st in waiting if st[0] == "warp"})))
    return out_threads


def run(ptx, kernel, grid, block, args, extra):
    params, instrs, labels, shared_syms, shared_size, regw, local_syms, local_size = parse_kernel(ptx, kernel)

    def reg_bits(r):
        """A register's declared width (0: unknown)."""
        if ("name", r) in regw:
            return regw[("name", r)]
        m = re.match(r"^(%?[$\w]*?)\d+$", r)
        return regw.get(("prefix", m.group(1)), 0) if m else 0
    values = list(args) + list(extra)
    if len(values) != len(params):
        fail("%s has %d parameters, %d given" % (kernel, len(params), len(values)))
    pvals = {name: v for (t, name), v in zip(params, values)}
    mem = MEM

    def run_thread(ctaid, tid, smem):
        regs = {}
        lmem = bytearray(local_size)  # zeroed: nvcc stores before it loads
        special = {"%tid.x": tid[0], "%tid.y": tid[1], "%tid.z": tid[2], "%ntid.x": block[0], "%ntid.y": block[1],
                   "%ntid.z": block[2], "%ctaid.x": ctaid[0], "%ctaid.y": ctaid[1], "%ctaid.z": ctaid[2],
                   "%nctaid.x": grid[0], "%nctaid.y": grid[1], "%nctaid.z": grid[2],
                   "%laneid": (tid[0] + block[0] * (tid[1] + block[1] * tid[2])) % 32}

        def val(o):
            if o in special:
                return special[o]
            if o.startswith("%") or o in regs:  # (inline asm's scope registers: `low`, `high`)
                if o not in regs:
                    fail("%s read before written" % o)
                return regs[o]
            if o in shared_syms:
                return shared_syms[o]
            if o in local_syms:
                return local_syms[o]
            if re.match(r"^0[fF][0-9a-fA-F]{8}$", o) or re.match(r"^0[dD][0-9a-fA-F]{16}$", o):
                return int(o[2:], 16)
            try:
                return int(o, 0)
            except ValueError:
                fail("operand " + o)

        def addr(o):
            inner = o[1:-1].strip()
            m = re.match(r"^([%\w]+)\s*(\+\s*-?\s*\d+|-\s*\d+)?$", inner)  # [r], [r+8], [r-8], [r+-8]
            if not m:
                fail("address " + o)
            off = int(m.group(2).replace(" ", "").replace("+", "")) if m.group(2) else 0
            if m.group(1) in pvals:
                return ("param", m.group(1), off)
            return ("addr", val(m.group(1)) + off)

        def mem_at(space, a, n):
            if space == "shared":
                if a < 0 or a + n > len(smem):
                    fail("shared access out of bounds at %d" % a)
                return smem, a
            if space == "local":
                if a < 0 or a + n > len(lmem):
                    fail("local access out of bounds at %d" % a)
                return lmem, a
            return mem.find(a, n)

        pc = 0
        while pc < len(instrs):
            guard, op, ops = instrs[pc]
            pc += 1
            if guard:
                if guard[1] not in regs:
                    fail(guard[1] + " read before written")
                if bool(regs[guard[1]]) == guard[0]:  # negated and true, or plain and false
                    continue
            p = op.split(".")
            base, t = p[0], "." + p[-1]
            if base in ("bra",):
                pc = labels[ops[0]]
                continue
            if base in ("ret", "exit"):  # exit: the thread ends, as ret at a kernel's top level
                return
            if base == "bar" and p[1] == "warp":
                yield ("warp", pc, "barwarp", val(ops[0]) & 0xFFFFFFFF)
                continue
            if base == "bar":
                yield ("bar",)
                continue
            if base == "activemask":
                regs[ops[0]] = yield ("warp", pc, "activemask", None)
                continue
            if base == "vote":  # vote.sync.{all,any}.pred d, p, m; vote.sync.ballot.b32 d, p, m
                regs[ops[0]] = yield ("warp", pc, "vote", (p[2], bool(val(ops[1])), val(ops[2]) & 0xFFFFFFFF))
                continue
            if base == "shfl":  # shfl.sync.{idx,bfly}.b32 d, a, b, c, m (c = 31: the whole warp)
                if val(ops[3]) != 31:
                    fail(op + ": only c = 31 (the whole warp) is modelled")
                regs[ops[0]] = yield ("warp", pc, "shfl", (p[2], val(ops[1]), val(ops[2]), val(ops[4]) & 0xFFFFFFFF))
                continue
            if base in ("ld", "st"):
                space = "param" if "param" in p else "shared" if "shared" in p else "local" if "local" in p else "global"
                vec = 4 if "v4" in p else 2 if "v2" in p else 1
                w = bits_of(t) // 8
                a = addr(ops[1] if base == "ld" else ops[0])
                if a[0] == "param":  # scalars and vectors ({%r1, %r2}) at the offset's bytes
                    for i, r in enumerate(x.strip() for x in ops[0].strip("{}").split(",")):
                        regs[r] = (pvals[a[1]] >> (8 * (a[2] + i * w))) & ((1 << (w * 8)) - 1)
                    continue
                data, off = mem_at(space, a[1], w * vec)
                names = [x.strip() for x in (ops[0] if base == "ld" else ops[1]).strip("{}").split(",")]
                for i, r in enumerate(names):
                    if base == "ld":
                        regs[r] = int.from_bytes(data[off + i * w:off + (i + 1) * w], "little")
                        # A signed type into a wider register is sign-extended (nvcc's
                        # `ld.global.s32 %rd` of an int summed into a long long).
                        if t.startswith(".s") and reg_bits(r) > w * 8:
                            regs[r] = signed(regs[r], w * 8) & ((1 << reg_bits(r)) - 1)
                    else:
                        # A shared store of a register never written (the staged clone's plain copies store
                        # every slot, loaded only where its row has a tile): garbage no lane reads; 0 here.
                        v = 0 if space == "shared" and r.startswith("%") and r not in regs else val(r)
                        data[off + i * w:off + (i + 1) * w] = (v & ((1 << (w * 8)) - 1)).to_bytes(w, "little")
                continue
            if base == "mov" and t == ".b32" and (ops[0].startswith("{") or ops[1].startswith("{")):
                if ops[0].startswith("{"):
                    lo, hi = [x.strip() for x in ops[0].strip("{}").split(",")]
                    v = val(ops[1])
                    if lo != "_": regs[lo] = v & 0xFFFF
                    if hi != "_": regs[hi] = (v >> 16) & 0xFFFF
                else:
                    lo, hi = [val(x.strip()) for x in ops[1].strip("{}").split(",")]
                    regs[ops[0]] = (lo & 0xFFFF) | ((hi & 0xFFFF) << 16)
                continue
            if base == "prmt" and t == ".b32" and len(ops) == 4:
                a, b, c = val(ops[1]) & 0xFFFFFFFF, val(ops[2]) & 0xFFFFFFFF, val(ops[3])
                bs = list(((a | (b << 32)) >> (8 * k)) & 0xFF for k in range(8))
                r = 0
                for k in range(4):
                    sel = (c >> (4 * k)) & 0xF
                    byte = bs[sel & 7]
                    if sel & 8: byte = 0xFF if byte & 0x80 else 0
                    r |= byte << (8 * k)
                regs[ops[0]] = r
                continue
            if base == "mov" and t == ".b64" and (ops[0].startswith("{") or ops[1].startswith("{")):
                if ops[0].startswith("{"):  # unpack: {lo, hi} = x
                    lo, hi = [x.strip() for x in ops[0].strip("{}").split(",")]
                    v = val(ops[1])
                    regs[lo], regs[hi] = v & 0xFFFFFFFF, (v >> 32) & 0xFFFFFFFF
                else:
                    lo, hi = [val(x.strip()) for x in ops[1].strip("{}").split(",")]
                    regs[ops[0]] = (lo & 0xFFFFFFFF) | ((hi & 0xFFFFFFFF) << 32)
                continue
            d, srcs = ops[0], [val(o) for o in ops[1:]]
            n = bits_of(t)
            mask = (1 << n) - 1 if n else 0
            regs[d] = alu(op, p, base, t, srcs, n, mask)


    return run_blocks(grid, block, shared_size, run_thread)


MEM = Memory()


def arg_value(a, outs):
    """An argument SPEC's value and its width in bytes (buffers are allocated in MEM)."""
    kind, _, rest = a.partition(":")
    if kind == "pack":  # pack:<spec>+<spec>...: a struct argument, each field at its natural alignment
        data = bytearray()
        for field in rest.split("+"):
            v, n = arg_value(field, outs)
            data += bytes(-len(data) % n) + v.to_bytes(n, "little")
        return int.from_bytes(data, "little"), len(data)
    if kind in ("inout", "inoutints"):  # in: or ints:, printed as an output too (kernels that update in place)
        v, n = arg_value(("in:" if kind == "inout" else "ints:") + rest, outs)
        outs.append(MEM.bufs[-1][1])
        return v, n
    if kind in ("in", "inzeros"):
        n, seed = (int(x) for x in rest.split(":"))
        rng = random.Random(seed)
        data = bytearray(n)
        for i in range(0, n - 3, 4):  # finite floats in [1, 2) (inzeros: one in three 0), any bytes for the rest
            v = 1.0 + rng.randrange(1000000) / 1e6
            data[i:i + 4] = struct.pack("<f", 0.0 if kind == "inzeros" and rng.randrange(3) == 0 else v)
        return MEM.alloc(data), 8
    if kind == "ints":  # ints:<bytes>:<seed>:<lo>:<hi>: 32-bit integers in [lo, hi] (negative ones too)
        n, seed, lo, hi = (int(x) for x in rest.split(":"))
        rng = random.Random(seed)
        data = bytearray(n)
        for i in range(0, n - 3, 4):
            data[i:i + 4] = struct.pack("<i", rng.randint(lo, hi))
        return MEM.alloc(data), 8
    if kind == "inzero":
        fields = rest.split(":")
        n, seed, k = (int(x) for x in fields[:3])
        rng = random.Random(seed)
        data = bytearray(n)
        for i in range(0, n - 3, 4):  # integers 1..1000 (also finite floats: denormals), one in k 0
            data[i:i + 4] = struct.pack("<I", 0 if rng.randrange(k) == 0 else 1 + rng.randrange(1000))
        if fields[3:] == ["last0"] and n >= 4:  # a sentinel as the buffer's last element
            data[n - 4 - n % 4:n - n % 4] = b"\0\0\0\0"
        return MEM.alloc(data), 8
    if kind in ("rowptr", "rowptr64"):  # rowptr:<seed>:<n>x<lo>-<hi>,...: a CSR row pointer, n rows of lo..hi each
        seed, _, segs = rest.partition(":")
        rng = random.Random(int(seed))
        ptrs = [0]
        for seg in segs.split(","):
            n, _, span = seg.partition("x")
            lo, _, hi = span.partition("-")
            for _ in range(int(n)):
                ptrs.append(ptrs[-1] + rng.randint(int(lo), int(hi)))
        return MEM.alloc(bytearray(struct.pack("<%d%s" % (len(ptrs), "Q" if kind == "rowptr64" else "I"), *ptrs))), 8
    if kind == "rows":  # rows:<n>:<seed>:<table rows>:<row bytes>[:<offset>]: n pointers to random rows of a table
        fields = [int(x) for x in rest.split(":")]
        n, seed, t, w = fields[:4]
        off = fields[4] if len(fields) > 4 else 0
        table, _ = arg_value("in:%d:%d" % (off + t * w, seed), outs)
        rng = random.Random(seed + 1)
        ptrs = [table + off + rng.randrange(t) * w for _ in range(n)]
        return MEM.alloc(bytearray(struct.pack("<%dQ" % n, *ptrs))), 8
    if kind == "out":
        data = bytearray(b"\x5a" * int(rest))
        outs.append(data)
        return MEM.alloc(data), 8
    if kind in ("i32", "i64"):
        n = 4 if kind == "i32" else 8
        return int(rest) & ((1 << (8 * n)) - 1), n
    if kind == "f32":
        return from_f32(float(rest)), 4
    fail("argument " + a)


def main():
    argv = sys.argv[1:]
    if len(argv) < 2:
        fail("usage: ptx_emu.py FILE.ptx KERNEL --grid X,Y,Z --block X,Y,Z --args SPEC... [--extra V...]")
    ptx = open(argv[0]).read()
    kernel = argv[1]
    grid = block = None
    args, extra, outs, mode = [], [], [], None
    for a in argv[2:]:
        if a in ("--grid", "--block", "--args", "--extra", "--extra-end"):
            mode = a
            continue
        if mode == "--grid":
            grid = [int(x) for x in a.split(",")]
        elif mode == "--block":
            block = [int(x) for x in a.split(",")]
        elif mode == "--extra":
            extra.append(int(a))
        elif mode == "--extra-end":  # the end of argument N's buffer, as the runtime's allocEnds (N-K: K bytes short of it)
            n, _, short = a.partition("-")
            base = args[int(n)]
            for b, data in MEM.bufs:
                if b == base:
                    extra.append(b + len(data) - int(short or 0))
        elif mode == "--args":
            args.append(arg_value(a, outs)[0])
        else:
            fail("argument " + a)
    run(ptx, kernel, grid, block, args, extra)
    for o in outs:
        print("out %s written %d" % (hashlib.sha256(o).hexdigest(), sum(b != 0x5A for b in o)))


if __name__ == "__main__":
    main()
