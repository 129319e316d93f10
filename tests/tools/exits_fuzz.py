#!/usr/bin/env python3
"""Random launches of the rowwalk pass's early-exit kernels (tests/lit/rowwalk/Inputs/exits.cu)
against their staged clones on the PTX interpreter (ptx_emu.py): rows 1-100 (warps not all in the
loop), row lengths 128-400 (tiles, remainders), blocks of 32-128 threads, a zero (the loops' sentinel,
the search's key) about one element in K from 2 to 5000 (lanes leaving in the peel, in the tiles,
never); the clone launched as the manifest says (grid block.x/32, grid.x; block 32; the rows' buffer
end appended, or 0: no known allocation), sometimes with the rows' buffer short of the last row and a
0 at its end (the loop stops there; the tiles past it must not be read: the interpreter's loads are
bounds-checked). Each pair's digests must be equal.

  exits_fuzz.py FILE.ptx SEED COUNT    (FILE.ptx: ptx-opt --passes=rowwalk --rowwalk-staged=1
                                        --rowwalk-exits of Inputs/exits.ptx)

Prints one line per launch and `bad N` last (tests/lit/rowwalk/exits-fuzz-emu.test checks `bad 0`)."""
import os
import random
import subprocess
import sys

random.seed(int(sys.argv[2]))
PTX = sys.argv[1]
E = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ptx_emu.py'), PTX]


def run(k, grid, block, args, extra=None):
    cmd = E + [k, '--grid', f'{grid[0]},{grid[1]},1', '--block', f'{block},1,1', '--args'] + args + (extra or [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.stdout.strip() or ('ERR ' + r.stderr[-300:])


bad = 0
for t in range(int(sys.argv[3])):
    k = random.choice(['exit_zero_f32', 'exit_zero_i32', 'find_first_i32', 'exit_two_f32'])
    n = random.randint(1, 100)
    m = random.choice([128, 129, 200, 256, 300, 333, 400])
    K = random.choice([2, 8, 40, 150, 600, 5000])
    b = random.choice([32, 64, 96, 128])
    g = (n + b - 1) // b
    seed = random.randint(1, 999)
    short = random.random() < 0.25 and m % 4 == 0
    nbytes = n * m * 4 - (m * 2 if short else 0)  # short: the last row half there
    buf = f'inzero:{nbytes}:{seed}:{K}' + (':last0' if short else '')
    a = [buf, f'out:{n * 4}', f'i32:{n}', f'i32:{m}']
    if k == 'find_first_i32':
        a.append('i32:0')
    elif k == 'exit_two_f32':
        a.append('f32:1.39e-42')
    o = run(k, (g, 1), b, a)
    end = ['--extra', '0'] if random.random() < 0.15 else ['--extra-end', '0']
    c = run(k + '__ptxopt_staged', (b // 32, g), 32, a, end)
    ok = o == c and not o.startswith('ERR')
    bad += not ok
    print(('OK  ' if ok else 'BAD ') + f'{k} n{n} m{m} K{K} b{b} g{g}{" short" if short else ""} {end[0]}', '' if ok else (o, c),
          flush=True)
print('bad', bad)
