#!/usr/bin/env python3
"""Random flat transposes and permutes with compile-time sizes (issue 30;
src/transforms/TransposeConstDiv.cpp), and random launches of them against
their flat clones on the PTX interpreter (ptx_emu.py).

  constdiv_fuzz.py gen SEED COUNT > constdiv-fuzz.cu
      writes COUNT kernels: index int, unsigned, size_t or int64_t; sizes
      from 32 to 70 (powers of two among them) as literals; the bound a
      constant, a runtime argument or an early return; a transpose, a
      rotation, bytes, an NCHW -> NHWC permute split two or three times, a
      grid-stride loop (32- or 64-bit counter). Each kernel's first line is
      a `// FUZZ name elems in_bytes_per_elem out_bytes_per_elem bound gs`
      comment the runner reads. (tests/lit/transpose/Inputs/constdiv-fuzz.cu
      is `gen 14 24`, compiled with nvcc -arch=sm_90 -O3 -ptx.)
  constdiv_fuzz.py run FILE.cu FILE.opt.ptx SEED
      launches every kernel that has a flat clone, original and clone, and
      compares the output digests; prints one line per kernel and `bad N`
      last, and how many kernels have no clone (nvcc's 16-bit division
      under 2^16 elements, say).
"""
import os, random, re, subprocess, sys

def gen(seed, count):
    rnd = random.Random(seed)
    out = ['// Random flat transposes and permutes with compile-time sizes: tests/tools/constdiv_fuzz.py gen',
           '// (tests/lit/transpose/constdiv-fuzz-emu.test). Compiled with: nvcc -arch=sm_90 -O3 -ptx',
           '#include <cstddef>', '#include <cstdint>', '']
    size = lambda: rnd.choice([32, 33, 37, 40, 41, 47, 48, 53, 64, 64, 65, 70])
    for k in range(count):
        name = f'cf{k}'
        idx = rnd.choice(['int', 'unsigned', 'size_t', 'int64_t'])
        shape = rnd.choice(['t', 't', 'rot', 'u8', 'nchw2', 'nchw3', 'gs', 'gs'])
        bound = rnd.choice(['const', 'arg', 'ret'])
        if shape == 'gs':
            idx = rnd.choice(['int', 'int64_t'])
            bound = 'const'
        T = 'unsigned char' if shape == 'u8' else 'float'
        esz = 1 if shape == 'u8' else 4
        if shape in ('t', 'rot', 'u8', 'gs'):
            H, W = size(), size()
            n = H * W
            r, c = f'(i / {W})', f'(i % {W})'
            dst = f'{c} * {H} + ({H - 1} - {r})' if shape == 'rot' else f'{c} * {H} + {r}'
        elif shape == 'nchw2':
            N, C, HW = 2, size(), size()
            n = N * C * HW
            dst = f'((i / ({HW} * {C})) * {HW} + i % {HW}) * {C} + (i / {HW}) % {C}'
        else:
            N, C, Hh, Ww = 2, size(), rnd.choice([2, 3, 4]), size()
            n = N * C * Hh * Ww
            w, h, c, nn = f'(i % {Ww})', f'((i / {Ww}) % {Hh})', f'((i / ({Ww} * {Hh})) % {C})', f'(i / ({Ww} * {Hh} * {C}))'
            dst = f'(({nn} * {Hh} + {h}) * {Ww} + {w}) * {C} + {c}'
        params = f'const {T} *__restrict__ in, {T} *__restrict__ out' + (', long long n' if bound == 'arg' else '')
        limit = 'n' if bound == 'arg' else f'({idx}){n}'
        start = f'blockIdx.x * ({idx})blockDim.x + threadIdx.x'
        out.append(f'// FUZZ {name} {n} {esz} {esz} {bound} {int(shape == "gs")}')
        out.append(f'extern "C" __global__ void {name}({params}) {{')
        if shape == 'gs':
            out.append(f'  for ({idx} i = {start}; i < {limit}; i += ({idx})blockDim.x * gridDim.x) out[{dst}] = in[i];')
        elif bound == 'ret':
            out.append(f'  {idx} i = {start};')
            out.append(f'  if (i >= {limit}) return;')
            out.append(f'  out[{dst}] = in[i];')
        else:
            out.append(f'  {idx} i = {start};')
            out.append(f'  if (({"long long" if bound == "arg" else idx})i < {limit}) out[{dst}] = in[i];')
        out.append('}')
        out.append('')
    return '\n'.join(out)

def run(cu, ptx, seed):
    rnd = random.Random(seed)
    emu = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ptx_emu.py'), ptx]
    text = open(ptx).read()
    bad = none = 0
    for m in re.finditer(r'// FUZZ (\S+) (\d+) (\d+) (\d+) (\S+) (\d)', open(cu).read()):
        name, n, isz, osz, bound, gs = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), m.group(5), m.group(6) == '1'
        if f'{name}__ptxopt_tiledflat(' not in text:
            none += 1
            print(f'none {name}', flush=True)
            continue
        b = rnd.choice([64, 128, 256])
        g = (n + b - 1) // b + (0 if gs else rnd.randint(0, 2))  # a grid-stride loop: a thread per element (its condition)
        limit = n - rnd.randint(0, 40) if bound == 'arg' else n
        threads = g * b
        # the buffers cover every index the launch can read (a constant bound past the launch: only the launch's)
        nin = min(threads, n) if bound == 'const' and not gs else n
        args = [f'in:{max(nin, threads) * isz}:{rnd.randint(1, 999)}', f'out:{n * osz}']
        if bound == 'arg':
            args.append(f'i64:{limit}')
        def go(k, grid, block, extra=None):
            cmd = emu + [k, '--grid', f'{grid},1,1', '--block', f'{block[0]},{block[1]},1', '--args'] + args
            if extra:
                cmd += ['--extra'] + [str(x) for x in extra]
            r = subprocess.run(cmd, capture_output=True, text=True)
            return r.stdout.strip() or ('ERR ' + r.stderr[-300:])
        o = go(name, g, (b, 1))
        c = go(name + '__ptxopt_tiledflat', (threads + 1023) // 1024, (32, 8), [g, b])
        ok = o == c and not o.startswith('ERR')
        bad += not ok
        print(('OK  ' if ok else 'BAD ') + f'{name} n{n} b{b} g{g}', '' if ok else (o, c), flush=True)
    print('no clone', none)
    print('bad', bad)

if __name__ == '__main__':
    if sys.argv[1] == 'gen':
        print(gen(int(sys.argv[2]), int(sys.argv[3])))
    else:
        run(sys.argv[2], sys.argv[3], int(sys.argv[4]))
