#!/usr/bin/env python3
"""Random launches of the transpose pass's digits-form kernels (tests/lit/transpose/Inputs/split3.cu)
against their flat clones on the PTX interpreter (ptx_emu.py): sizes with edges (channels and
widths not multiples of 32, thin ones under 32), bounds below the element count, grids past it, block
sizes 64-256; each pair's digests must be equal.

  split3_fuzz.py FILE.ptx SEED COUNT    (FILE.ptx: ptx-opt -O2 of Inputs/split3.ptx)

Prints one line per launch and `bad N` last (tests/lit/transpose/split3-fuzz-emu.test checks `bad 0`)."""
import random, subprocess, sys
random.seed(int(sys.argv[2]))
import os
PTX=sys.argv[1]; E=[sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ptx_emu.py'), PTX]
def run(k, grid, block, args, extra=None):
    cmd=E+[k,'--grid',f'{grid},1,1','--block',f'{block[0]},{block[1]},1','--args']+args
    if extra: cmd+=['--extra']+[str(x) for x in extra]
    r=subprocess.run(cmd,capture_output=True,text=True)
    return r.stdout.strip() or ('ERR '+r.stderr[-300:])
bad=0
for t in range(int(sys.argv[3])):
    k=random.choice(['s3_nchw_nhwc','s3_nhwc_gather','s3_nhwc_nchw','s3_chain','s3_u8','s3_square','s3_hw','s3_hw_back','s3_dhw'])
    N=random.randint(1,3); C=random.choice([32,33,40,47,5]); H=random.randint(1,4); W=random.choice([32,33,36,41,7])
    D=random.randint(1,3)
    if k=='s3_square': H=W=random.choice([32,33,34])
    n=N*C*H*W*(D if k=='s3_dhw' else 1)
    total=n-random.randint(0,5)
    esz=1 if k=='s3_u8' else 4
    b=random.choice([64,128,256])
    g=(n+b-1)//b + random.randint(0,2)
    seed=random.randint(1,999)
    buf=[f'in:{n*esz}:{seed}',f'out:{n*esz}']
    if k in ('s3_nchw_nhwc','s3_nhwc_gather','s3_nhwc_nchw','s3_chain'):
        a=buf+[f'i32:{N}',f'i32:{C}',f'i32:{H}',f'i32:{W}']
    elif k=='s3_u8': a=buf+[f'i32:{C}',f'i32:{H}',f'i32:{W}',f'i32:{total}']
    elif k=='s3_square': a=buf+[f'i32:{C}',f'i32:{W}',f'i32:{total}','f32:1.5']
    elif k in ('s3_hw','s3_hw_back'): a=buf+[f'i32:{C}',f'i32:{H}',f'i32:{W}',f'i32:{total}']
    else: a=buf+[f'i32:{C}',f'i32:{D}',f'i32:{H}',f'i32:{W}',f'i32:{total}']
    o=run(k,g,(b,1),a)
    cg=(g*b+1023)//1024
    c=run(k+'__ptxopt_tiledflat',cg,(32,8),a,[g,b])
    ok=o==c and not o.startswith('ERR')
    bad+=not ok
    print(('OK  ' if ok else 'BAD ')+f'{k} N{N} C{C} D{D} H{H} W{W} total {total} b{b} g{g}', '' if ok else (o,c), flush=True)
print('bad',bad)
