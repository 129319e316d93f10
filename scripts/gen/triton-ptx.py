#!/usr/bin/env python3
"""Compile a few small Triton kernels and write their PTX to the test corpus.

Run on a machine with an NVIDIA GPU, CUDA and the `triton` package:

    python3 scripts/gen/triton-ptx.py [--out tests/corpus/ptx/triton]

Writes tests/corpus/ptx/triton/<name>.ptx for each kernel below (the PTX
target is whatever Triton picks for the local GPU). Kernels that fail to
compile are reported and skipped; the exit status is non-zero if any failed.
Afterwards, `scripts/gen/corpus.sh --check-only` runs ptxas over them too.

Two ways of getting PTX are tried, newest API first:
  1. kernel.warmup(*args, grid=..., **constexprs).asm["ptx"]
     (compiles for the current device without launching; needs tensors on
     the GPU only for their dtype/alignment)
  2. triton.compile(ASTSource(fn, signature, constexprs)).asm["ptx"]
"""

import argparse
import os
import sys
import traceback

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:  # pragma: no cover
    sys.exit(f"error: this script needs torch and triton installed ({e})")


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def softmax_row(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask,
                other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, num / den, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,
           stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_rem = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_rem), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_rem) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    c_mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptrs, acc.to(tl.float16), mask=c_mask)


@triton.jit
def masked_copy_scale(in_ptr, out_ptr, n_elements, threshold, scale,
                      BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offs < n_elements
    x = tl.load(in_ptr + offs, mask=in_bounds, other=0.0)
    keep = in_bounds & (x > threshold)
    tl.store(out_ptr + offs, x * scale, mask=keep)


# ---------------------------------------------------------------------------
# Specs: for each kernel, example arguments (for warmup), the triton.compile
# signature and constexprs (for the fallback path), and the grid.
# ---------------------------------------------------------------------------

def specs(dev):
    f32 = dict(device=dev, dtype=torch.float32)
    f16 = dict(device=dev, dtype=torch.float16)
    n = 4096
    x, y, o = torch.empty(n, **f32), torch.empty(n, **f32), torch.empty(n, **f32)
    rows, cols = 64, 1000
    si, so = torch.empty(rows, cols, **f32), torch.empty(rows, cols, **f32)
    M = N = K = 256
    a, b, c = torch.empty(M, K, **f16), torch.empty(K, N, **f16), torch.empty(M, N, **f16)
    return [
        dict(name="vector_add", fn=vector_add,
             args=(x, y, o, n), consts=dict(BLOCK_SIZE=1024),
             sig={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                  "n_elements": "i32"},
             grid=(triton.cdiv(n, 1024),)),
        dict(name="softmax_row", fn=softmax_row,
             args=(so, si, si.stride(0), so.stride(0), cols),
             consts=dict(BLOCK_SIZE=1024),
             sig={"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32",
                  "out_row_stride": "i32", "n_cols": "i32"},
             grid=(rows,)),
        dict(name="matmul", fn=matmul,
             args=(a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                   b.stride(1), c.stride(0), c.stride(1)),
             consts=dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32),
             sig={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32",
                  "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "i32"},
             grid=(M // 64, N // 64)),
        dict(name="masked_copy_scale", fn=masked_copy_scale,
             args=(x, o, n, 0.5, 2.0), consts=dict(BLOCK_SIZE=512),
             sig={"in_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32",
                  "threshold": "fp32", "scale": "fp32"},
             grid=(triton.cdiv(n, 512),)),
    ]


def get_ptx(compiled):
    asm = getattr(compiled, "asm", None)
    if asm is None or "ptx" not in asm:
        raise RuntimeError(f"compiled object has no asm['ptx'] ({type(compiled)})")
    ptx = asm["ptx"]
    if isinstance(ptx, bytes):
        ptx = ptx.decode()
    return ptx


def via_warmup(spec):
    return get_ptx(spec["fn"].warmup(*spec["args"], grid=spec["grid"], **spec["consts"]))


def via_compile(spec):
    from triton.compiler import ASTSource
    sig = dict(spec["sig"])
    consts = dict(spec["consts"])
    try:
        # Newer Triton: constexprs appear in the signature as "constexpr".
        for k in consts:
            sig[k] = "constexpr"
        src = ASTSource(fn=spec["fn"], signature=sig, constexprs=consts)
    except TypeError:
        # Older Triton: signature keyed by argument index, constants separate.
        names = spec["fn"].arg_names
        sig_idx = {names.index(k): v for k, v in spec["sig"].items()}
        const_idx = {names.index(k): v for k, v in consts.items()}
        src = ASTSource(fn=spec["fn"], signature=sig_idx, constants=const_idx)
    return get_ptx(triton.compile(src))


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(root, "tests", "corpus", "ptx", "triton"))
    opts = ap.parse_args()

    if not torch.cuda.is_available():
        sys.exit("error: no CUDA device visible; Triton needs one to pick a target")
    dev = "cuda"
    print(f"triton {triton.__version__}, torch {torch.__version__}, "
          f"device {torch.cuda.get_device_name(0)} "
          f"(sm_{''.join(map(str, torch.cuda.get_device_capability(0)))})")
    os.makedirs(opts.out, exist_ok=True)

    failed = []
    for spec in specs(dev):
        ptx, errors = None, []
        for how, fn in (("warmup", via_warmup), ("triton.compile", via_compile)):
            try:
                ptx = fn(spec)
                break
            except Exception as e:  # try the next API
                errors.append(f"{how}: {type(e).__name__}: {e}")
        path = os.path.join(opts.out, spec["name"] + ".ptx")
        if ptx is None:
            failed.append(spec["name"])
            print(f"FAILED {spec['name']}:", file=sys.stderr)
            for err in errors:
                print("    " + err.splitlines()[0] if err else "", file=sys.stderr)
            if os.environ.get("VERBOSE"):
                traceback.print_exc()
            continue
        if not ptx.endswith("\n"):
            ptx += "\n"
        with open(path, "w") as f:
            f.write(ptx)
        target = next((l.split()[1] for l in ptx.splitlines()
                       if l.strip().startswith(".target")), "?")
        print(f"wrote {os.path.relpath(path, root)} ({len(ptx)} bytes, .target {target}, via {how})")

    if failed:
        print(f"{len(failed)} kernel(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
