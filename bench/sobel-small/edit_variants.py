#!/usr/bin/env python3
"""The hand-edited variants of issue #18's measurement (docs/BENCHMARKS.md,
"Sobel at 1920 x 1080"; scripts/bench/sobel-small.sh): edits of the k = 4
clones that `ptx-opt -O2 --group-k=4` makes of examples/paper/sobel.cu's
sobel_naive, to learn what limits them before changing the pass.

  edit_variants.py <sobel.k4.ptx> <out.ptx> <out.spec>

x_cmp:       the merged clone, its logical block by three compares and
             %ntid.x / 4 by a shift (no division)
x_cmp_nc:    x_cmp with ld.global.nc in the fast path (informative only:
             nothing proves `in` and `out` disjoint)
x_cmp_part:  x_cmp without the slow path: border groups predicated per
             logical thread (what the pass now emits, Plan::partial)
x_cmp_part_lean / _nc: with a guard of two tests / .nc loads
x_div_part:  the division kept, border groups predicated
p_part:      the plain clone (8 x 8 blocks), border groups predicated
x_cmp_pslow: x_cmp with its slow path's four threads interleaved (73
             registers: slower)
The edits are textual and know the clone's register names; they serve this
measurement only.
"""
import re
import sys

src = open(sys.argv[1]).read()
hdr=src[:src.index('.visible .entry')]
def entry(name):
    return re.search(r'\.visible \.entry '+name+r'\(.*?\n}\n', src, re.S).group(0)
def cmp_prologue(f):
    a='\tdiv.u32 %ptxopt_mr3, %ptxopt_mr1, 4;'
    b='\tsub.u32 %ptxopt_mr6, %ptxopt_mr0, %ptxopt_mr5;\n'
    s=f.index(a); e=f.index(b)+len(b)
    new='''\tshr.u32 %ptxopt_mr3, %ptxopt_mr1, 2;
\tshl.b32 %xr0, %ptxopt_mr0, 2;
\tsetp.ge.u32 %xp0, %xr0, %ptxopt_mr1;
\tshl.b32 %xr1, %ptxopt_mr1, 1;
\tsetp.ge.u32 %xp1, %xr0, %xr1;
\tadd.u32 %xr2, %xr1, %ptxopt_mr1;
\tsetp.ge.u32 %xp2, %xr0, %xr2;
\tselp.u32 %xr3, 1, 0, %xp0;
\tselp.u32 %xr4, 1, 0, %xp1;
\tselp.u32 %xr5, 1, 0, %xp2;
\tadd.u32 %xr6, %xr3, %xr4;
\tadd.u32 %ptxopt_mr4, %xr6, %xr5;
\tmul.lo.u32 %ptxopt_mr5, %ptxopt_mr4, %ptxopt_mr3;
\tsub.u32 %ptxopt_mr6, %ptxopt_mr0, %ptxopt_mr5;
'''
    f=f[:s]+new+f[e:]
    return f.replace('\t.reg .pred %ptxopt_mp<1>;\n','\t.reg .pred %ptxopt_mp<1>;\n\t.reg .b32 %xr<8>;\n\t.reg .pred %xp<4>;\n')
def pslow(f, suffix):
    # slow path: replicas interleaved, each body instruction predicated on its own guard passing
    slow='$ptxopt_group_slow'+suffix+':\n'
    s=f.index(slow)+len(slow)
    end=f.index('$ptxopt_group_next3'+suffix+':\n')
    secs=re.split(r'\$ptxopt_group_next\d'+re.escape(suffix)+':\n', f[s:end])
    assert len(secs)==4, len(secs)
    pre=[];bodies=[];preds=[]
    for sec in secs:
        lines=[l for l in sec.split('\n') if l.strip()]
        gi=[i for i,l in enumerate(lines) if re.match(r'\s*@(%\S+) bra',l)]
        assert len(gi)==1
        g=gi[0]
        preds.append(re.match(r'\s*@(%\S+) bra',lines[g]).group(1))
        pre.append(lines[:g]); bodies.append(lines[g+1:])
    out=[]
    for p in pre: out+=p
    n=max(len(b) for b in bodies)
    for i in range(n):
        for m in range(4):
            if i<len(bodies[m]):
                l=bodies[m][i]; assert not l.strip().startswith('@')
                out.append('\t@!'+preds[m]+' '+l.strip())
    return f[:s]+'\n'.join(out)+'\n'+f[end:]
def lean(f, suffix):
    old='''\tor.pred %ptxopt_gp0, %p7, %p_g1_7;
\tor.pred %ptxopt_gp1, %ptxopt_gp0, %p_g2_7;
\tor.pred %ptxopt_gp2, %ptxopt_gp1, %p_g3_7;
'''
    assert old in f
    return f.replace(old,'\tor.pred %ptxopt_gp2, %p7, %p_g3_2;\n')
def nc(f, suffix):
    i=f.index('$ptxopt_group_slow'+suffix+':')
    return f[:i].replace('ld.global.b32','ld.global.nc.b32')+f[i:]
def partial(f, suffix):
    bra='\t@%ptxopt_gp2 bra $ptxopt_group_slow'+suffix+';\n'
    i=f.index(bra)
    slow=f.index('$ptxopt_group_slow'+suffix+':\n')
    end=f.index('\n}\n', slow)
    fast=f[i+len(bra):slow]
    fails=['%p7','%p_g1_7','%p_g2_7','%p_g3_7']
    # which replicas read each loaded vector
    users={}
    for l in fast.split('\n'):
        m=re.match(r'\s*bfe\.u32 %(r|r_g(\d)_)\d+, (%ptxopt_gr\d+),',l)
        if m: users.setdefault(m.group(3),set()).add(int(m.group(2) or 0))
    pre=['\t.reg .pred %yp<32>;']
    decl=[]
    setn=[0]
    cache={}
    def failset(s):
        key=tuple(sorted(s))
        if key in cache: return cache[key]
        cur=fails[key[0]]
        for r in key[1:]:
            n=setn[0]; setn[0]+=1
            decl.append(f'\tand.pred %yp{n}, {cur}, {fails[r]};')
            cur=f'%yp{n}'
        cache[key]=cur
        return cur
    allfail=failset({0,1,2,3})
    out=[]
    for l in fast.split('\n'):
        m=re.match(r'\s*ld\.global\.b32 (%ptxopt_gr\d+), ',l)
        if m:
            fs=failset(users[m.group(1)])
            out.append('\t@!'+fs+' '+l.strip()); continue
        m=re.match(r'\s*st\.global\.b32 \[(%rd\d+)\], (%ptxopt_gr\d+);',l)
        if m:
            out.append('\t@!%ptxopt_gp2 '+l.strip())
            regs=['%r40','%r_g1_40','%r_g2_40','%r_g3_40']
            for r in range(4):
                n=setn[0]; setn[0]+=2
                out.append(f'\tnot.pred %yp{n}, {fails[r]};')
                out.append(f'\tand.pred %yp{n+1}, %yp{n}, %ptxopt_gp2;')
                out.append(f'\t@%yp{n+1} st.global.u8 [{m.group(1)}+{r}], {regs[r]};')
            continue
        out.append(l)
    head=f[:i]+'\n'.join(decl)+'\n\t@'+allfail+' bra $ptxopt_y_exit;\n'
    body='\n'.join(out)
    body=body.replace('\tret;\n','',1) if body.rstrip().endswith('ret;') else body
    g=head+body+'\n$ptxopt_y_exit:\n\tret;\n}\n'
    return g.replace('\t.reg .pred %ptxopt_gp<3>;\n','\t.reg .pred %ptxopt_gp<3>;\n'+pre[0]+'\n')
M = entry('sobel_naive__ptxopt_group4_merged')
P = entry('sobel_naive__ptxopt_group4')
V = {}
V['x_cmp'] = cmp_prologue(M)
V['x_cmp_nc'] = nc(V['x_cmp'], '_pm')
V['x_cmp_part'] = partial(V['x_cmp'], '_pm')
V['x_cmp_part_lean'] = lean(V['x_cmp_part'], '_pm')
V['x_cmp_part_nc'] = V['x_cmp_part'].replace('ld.global.b32', 'ld.global.nc.b32')
V['x_div_part'] = partial(M, '_pm')
V['p_part'] = partial(P, '')
V['x_cmp_pslow'] = pslow(V['x_cmp'], '_pm')
body = ''
spec = ''
for k, f in V.items():
    old = 'sobel_naive__ptxopt_group4_merged' if k.startswith('x') else 'sobel_naive__ptxopt_group4'
    body += f.replace(old, 'sobel_naive__' + k) + '\n'
    spec += f"{k} {sys.argv[2]} sobel_naive__{k} {'merged' if k.startswith('x') else 'plain'} 4\n"
open(sys.argv[2], 'w').write(hdr + body)
open(sys.argv[3], 'w').write(spec)
