#!/usr/bin/env python3
"""Random launches of the transpose pass's 64-bit flat kernels (tests/lit/transpose/Inputs/wide.cu)
or its traced grid-stride loops (Inputs/counted.cu) against their flat clones on the PTX
interpreter (ptx_emu.py): sizes with edges (widths and channels not multiples of 32, thin ones
under 32), bounds below the element count, grids past it (a grid-stride loop's launch has a
thread per element or more: its clone's condition), block sizes 64-256; each pair's digests
must be equal.

  wide_fuzz.py FILE.ptx wide|counted SEED COUNT    (FILE.ptx: ptx-opt -O2 of the input)

Prints one line per launch and `bad N` last (tests/lit/transpose/*-fuzz-emu.test check `bad 0`)."""
import os, random, subprocess, sys
PTX, FAMILY = sys.argv[1], sys.argv[2]
random.seed(int(sys.argv[3]))
E = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ptx_emu.py'), PTX]
def run(k, grid, block, args, extra=None):
    cmd = E + [k, '--grid', f'{grid},1,1', '--block', f'{block[0]},{block[1]},1', '--args'] + args
    if extra: cmd += ['--extra'] + [str(x) for x in extra]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.stdout.strip() or ('ERR ' + r.stderr[-300:])
KERNELS = {
    'wide': ['wide_sizet', 'wide_int_params', 'wide_u8', 'wide_gather_f64', 'wide_rot90', 'wide_nchw_nhwc',
             'wide_nchw_int', 'wide_nchw_hw', 'wide_nhwc_nchw', 'wide_u32_index', 'wide_int_index'],
    'counted': ['ct_transpose', 'ct_nchw_nhwc', 'ct_transpose64', 'ct_loop_u8', 'ct_sum'],
}[FAMILY]
ESZ = {'wide_u8': 1, 'ct_loop_u8': 1, 'wide_gather_f64': 8}
bad = 0
for t in range(int(sys.argv[4])):
    k = random.choice(KERNELS)
    N = random.randint(1, 3); C = random.choice([32, 33, 40, 47, 5]); H = random.randint(1, 4)
    W = random.choice([32, 33, 36, 41, 7]); R = random.choice([32, 35, 40, 64, 9]); K = random.choice([32, 37, 48, 6])
    esz = ESZ.get(k, 4)
    i32 = lambda v: f'i32:{v}'
    i64 = lambda v: f'i64:{v}'
    if 'nchw' in k and k not in ('wide_nchw_hw', 'wide_nhwc_nchw'):
        n = N * C * H * W
        sizes = [(i32 if k in ('wide_nchw_int', 'ct_nchw_nhwc') else i64)(v) for v in (N, C, H, W)]
    elif k in ('wide_nchw_hw', 'wide_nhwc_nchw'):
        hw = H * W
        n = N * C * hw
        sizes = [i64(C), i64(hw), i64(n - (random.randint(0, 5) if k == 'wide_nchw_hw' else 0))]
    else:  # (H, W) = (R, K): R rows of K
        n = R * K
        sizes = [(i32 if k in ('wide_int_params', 'ct_transpose', 'ct_sum') else i64)(v) for v in (R, K)]
        if k == 'ct_loop_u8': sizes.append(i64(n - random.randint(0, 5)))
    b = random.choice([64, 128, 256])
    g = (n + b - 1) // b + random.randint(0, 2)
    a = [f'in:{n * esz}:{random.randint(1, 999)}', f'out:{n * esz}'] + sizes
    o = run(k, g, (b, 1), a)
    c = run(k + '__ptxopt_tiledflat', (g * b + 1023) // 1024, (32, 8), a, [g, b])
    ok = o == c and not o.startswith('ERR')
    bad += not ok
    print(('OK  ' if ok else 'BAD ') + f'{k} N{N} C{C} H{H} W{W} R{R} K{K} b{b} g{g}', '' if ok else (o, c), flush=True)
print('bad', bad)
