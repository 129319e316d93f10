"""Offline check of the twelfth held-out batch's clones (no GPU): each
clone of a kernel, launched as its manifest says (staged: blocks of 32,
grid (block.x/32, grid.x); pack and CSR rounds: the original's launch), in
the PTX interpreter (tests/tools/ptx_emu.py) on small inputs, against the
kernel's original: the digests of the outputs must be equal.

  python3 bench/programs/heldout12/emu_check.py DIR

DIR holds <program>.opt.ptx for each program below: `nvcc -O3 -arch=sm_90
-ptx -I bench/programs X.cu` then `ptx-opt -O2`. Prints OK / DIFF per clone
(DIFF also where the interpreter refuses an instruction: it does not know
fma.rm.f32, expf's, or abs.s32); exit 1 on any DIFF.
"""
import os, subprocess, sys
EMU=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../tests/tools/ptx_emu.py')
D=sys.argv[1].rstrip('/') + '/' if len(sys.argv) > 1 else sys.exit(__doc__)
DIFFS=[]
def emu(f, k, grid, block, args):
    r=subprocess.run(['python3',EMU,D+f,k,'--grid',grid,'--block',block,'--args']+args.split(),capture_output=True,text=True)
    if r.returncode: return 'ERR '+r.stderr.strip()[-200:]
    return r.stdout.strip()
def case(f, k, blocks, bx, args, clones):
    base=emu(f,k,f'{blocks},1,1',f'{bx},1,1',args)
    for c in clones:
        if c.startswith('staged'): g=f'{bx//32},{blocks},1'; b='32,1,1'
        else: g=f'{blocks},1,1'; b=f'{bx},1,1'
        got=emu(f,k+'__ptxopt_'+c,g,b,args)
        ok = got==base and got.startswith('out') and 'ERR' not in got
        print(('OK  ' if ok else 'DIFF'), f.split('.')[0], k[:28], c, '' if ok else (base[:60]+' | '+got[:80]))
        if not ok: DIFFS.append(k + '__ptxopt_' + c)
ST=['staged','staged_unaligned','staged_pack','staged_unaligned_pack']
for cols in (256,258):
    r=40
    a=f'in:{r*cols*4}:1 in:{cols*4}:2 out:{r*4} i32:{r} i32:{cols}'
    case('h12_launch_paths.opt.ptx','_Z7row_dotPKfS0_Pfii',1,128,a,['pack']+ST)
    case('h12_row_iterate.opt.ptx','_Z11markov_stepPKfS0_Pfii',1,128,a,['pack']+ST)
    case('h12_row_reductions.opt.ptx','_Z10row_argmaxPKfPfPiii',1,64,f'in:{r*cols*4}:3 out:{r*4} out:{r*4} i32:{r} i32:{cols}',['pack','staged_unaligned'])
    case('h12_row_reductions.opt.ptx','_Z16row_l2_normalizePKdPdS1_mm',1,64,f'in:{r*cols*8}:4 out:{r*cols*8} out:{r*8} i64:{r} i64:{cols}',['staged','staged_unaligned'])
    case('h12_row_reductions.opt.ptx','_Z11row_softmaxPKfPfjj',1,64,f'in:{r*cols*4}:5 out:{r*cols*4} i32:{r} i32:{cols}',['staged','staged_unaligned'])
    case('h12_short_elem_rows.opt.ptx','_Z13half2_row_dotPK7__half2PK6float2Pfjj',1,128,f'in:{r*cols*4}:6 in:{cols*8}:7 out:{r*4} i32:{r} i32:{cols}',['staged','staged_unaligned'])
    case('h12_short_elem_rows.opt.ptx','_Z15u8_above_threshPKhS0_PjS1_mm',1,64,f'in:{r*cols}:8 in:{r}:9 out:{r*4} out:{r*4} i64:{r} i64:{cols}',['pack','staged'])
    case('h12_triangular_solve.opt.ptx','_Z12trmv_upper_dPKdS0_Pdm',1,64,f'in:{cols*cols*8}:10 in:{cols*8}:11 out:{cols*8} i64:{cols}',['staged'])
    case('h12_triangular_solve.opt.ptx','_Z17trmv_lower_strictPKfS0_Pfj',1,64,f'in:{cols*cols*4}:12 in:{cols*4}:13 out:{cols*4} i32:{cols}',['staged','staged_pack'])
    case('h12_nested_rows.opt.ptx','_Z17rowdot_gridstridePKfS0_Pfmm',2,64,f'in:{300*cols*4}:14 in:{cols*4}:15 out:{300*4} i64:300 i64:{cols}',['pack']+ST)
    case('h12_small_mix.opt.ptx','_Z15syrk_lower_rowsPKfPfiiff',1,64,f'in:{40*cols*4}:16 inout:{40*40*4}:17 i32:40 i32:{cols} f32:1.5 f32:0.5',['pack']+ST)
    # no guard: n is the launch's 64 threads; alpha 1.5 and beta 0.5 as the bits of doubles
    case('h12_nested_rows.opt.ptx','_Z15syrk_lower_rowsPKdPdmmdd',1,64,f'in:{64*cols*8}:18 inout:{64*64*8}:19 i64:64 i64:{cols} i64:4609434218613702656 i64:4602678819172646912',['staged','staged_unaligned'])
case('h12_short_elem_rows.opt.ptx','_Z15short2_row_sumsILi2048EEvPK6short2P4int2',1,64,f'in:{64*2048*4}:20 out:{64*8}',['staged'])
case('h12_csr_patterns.opt.ptx','_Z13spmv_powerlawPKxPKiS2_S2_Pii',16,64,'rowptr64:7:896x40-70,16x0-64,4x40-70,12x0-64,96x40-70 inzero:400000:2:1000000 inzero:400000:3:1000000 inzero:4004:4:1000000 out:4096 i32:1023',['csr'])
sys.exit(1 if DIFFS else 0)
