; Hand-written LLVM IR for NVPTX: kernels marked through !nvvm.annotations,
; launch-bound annotations, shared/constant/global address spaces, device
; function calls and a loop. Compiled with: llc-14 -march=nvptx64 -mcpu=sm_80
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@coeff = internal addrspace(4) constant [4 x float] [float 1.0, float 0.5, float 0.25, float 0.125], align 4
@tile = internal addrspace(3) global [256 x float] undef, align 4
@counter = addrspace(1) global i32 0, align 4
@table = addrspace(1) global [8 x i16] [i16 1, i16 2, i16 3, i16 5, i16 8, i16 13, i16 21, i16 34], align 2

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()

; Paper kernel: c[tid * nctaid + ctaid] = a[..] + b[..]
define void @matAddInt(i32* %c, i32* %a, i32* %b) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %m = mul i32 %tid, %nct
  %i = add i32 %m, %cta
  %idx = sext i32 %i to i64
  %pa = getelementptr inbounds i32, i32* %a, i64 %idx
  %pb = getelementptr inbounds i32, i32* %b, i64 %idx
  %pc = getelementptr inbounds i32, i32* %c, i64 %idx
  %va = load i32, i32* %pa, align 4
  %vb = load i32, i32* %pb, align 4
  %s = add nsw i32 %va, %vb
  store i32 %s, i32* %pc, align 4
  ret void
}

define internal float @scale(float %x, i32 %k) noinline {
  %k3 = and i32 %k, 3
  %p = getelementptr inbounds [4 x float], [4 x float] addrspace(4)* @coeff, i32 0, i32 %k3
  %c = load float, float addrspace(4)* %p, align 4
  %r = fmul float %x, %c
  ret float %r
}

; Block reduction through shared memory, with a loop and barriers.
define void @blockSum(float addrspace(1)* %in, float addrspace(1)* %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %cta, %ntid
  %gi = add i32 %base, %tid
  %inb = icmp slt i32 %gi, %n
  br i1 %inb, label %load, label %store0

load:
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds float, float addrspace(1)* %in, i64 %gi64
  %v = load float, float addrspace(1)* %pin, align 4
  %sv = call float @scale(float %v, i32 %tid)
  br label %store0

store0:
  %val = phi float [ 0.0, %entry ], [ %sv, %load ]
  %ps = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @tile, i32 0, i32 %tid
  store float %val, float addrspace(3)* %ps, align 4
  call void @llvm.nvvm.barrier0()
  %half0 = lshr i32 %ntid, 1
  br label %loop

loop:
  %s = phi i32 [ %half0, %store0 ], [ %snext, %latch ]
  %done = icmp eq i32 %s, 0
  br i1 %done, label %exit, label %body

body:
  %act = icmp ult i32 %tid, %s
  br i1 %act, label %add, label %latch

add:
  %j = add i32 %tid, %s
  %pj = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @tile, i32 0, i32 %j
  %a = load float, float addrspace(3)* %ps, align 4
  %b = load float, float addrspace(3)* %pj, align 4
  %ab = fadd float %a, %b
  store float %ab, float addrspace(3)* %ps, align 4
  br label %latch

latch:
  call void @llvm.nvvm.barrier0()
  %snext = lshr i32 %s, 1
  br label %loop

exit:
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %write, label %ret

write:
  %r = load float, float addrspace(3)* getelementptr inbounds ([256 x float], [256 x float] addrspace(3)* @tile, i32 0, i32 0), align 4
  %cta64 = zext i32 %cta to i64
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %cta64
  store float %r, float addrspace(1)* %po, align 4
  %old = atomicrmw add i32 addrspace(1)* @counter, i32 1 monotonic
  br label %ret

ret:
  ret void
}

; Lookup through a global table, with a switch.
define void @lookup(i16 addrspace(1)* %out, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  switch i32 %k, label %def [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 7, label %c7
  ]
c0:
  br label %join
c1:
  br label %join
c2:
  br label %join
c7:
  br label %join
def:
  br label %join
join:
  %sel = phi i32 [ 0, %c0 ], [ 3, %c1 ], [ 5, %c2 ], [ 7, %c7 ], [ 1, %def ]
  %x = xor i32 %sel, %tid
  %x7 = and i32 %x, 7
  %pt = getelementptr inbounds [8 x i16], [8 x i16] addrspace(1)* @table, i32 0, i32 %x7
  %v = load i16, i16 addrspace(1)* %pt, align 2
  %t64 = zext i32 %tid to i64
  %po = getelementptr inbounds i16, i16 addrspace(1)* %out, i64 %t64
  store i16 %v, i16 addrspace(1)* %po, align 2
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{void (i32*, i32*, i32*)* @matAddInt, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @blockSum, !"kernel", i32 1}
!2 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @blockSum, !"maxntidx", i32 256}
!3 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @blockSum, !"minctasm", i32 2}
!4 = !{void (i16 addrspace(1)*, i32)* @lookup, !"kernel", i32 1}
!5 = !{void (i16 addrspace(1)*, i32)* @lookup, !"reqntidx", i32 64}
!6 = !{void (i16 addrspace(1)*, i32)* @lookup, !"reqntidy", i32 2}
