; Hand-written LLVM IR for NVPTX exercising less common lowering paths:
; vector loads/stores, local memory (alloca), half, i1 / select, atomics and
; cmpxchg, membar (llc-14 cannot select IR `fence` for NVPTX), shuffle intrinsics, weak/extern functions, byval structs,
; addrspacecast, 64-bit math, and a function with multiple returns.
; Compiled with: llc-14 -march=nvptx64 -mcpu=sm_80
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pair = type { float, i32, double }

@gflag = addrspace(1) global i32 0, align 4
@gvec = addrspace(1) global <4 x float> zeroinitializer, align 16
@sbuf = internal addrspace(3) global [64 x i64] undef, align 8
@weakvar = weak addrspace(1) global i32 7, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.membar.gl()
declare float @llvm.fma.f32(float, float, float)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctlz.i64(i64, i1)
declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)

; An externally defined device function (emitted as .extern .func).
declare float @ext_device_fn(float, i32)

define weak float @weak_helper(float %x) noinline {
  %y = fmul float %x, 3.0
  ret float %y
}

define i32 @multi_ret(i32 %a, i32 %b) noinline {
entry:
  %c = icmp sgt i32 %a, %b
  br i1 %c, label %ra, label %other
ra:
  ret i32 %a
other:
  %z = icmp eq i32 %b, 0
  br i1 %z, label %rz, label %rb
rz:
  ret i32 -1
rb:
  ret i32 %b
}

define float @takes_byval(%struct.Pair* byval(%struct.Pair) align 8 %p) noinline {
  %f = getelementptr inbounds %struct.Pair, %struct.Pair* %p, i32 0, i32 0
  %i = getelementptr inbounds %struct.Pair, %struct.Pair* %p, i32 0, i32 1
  %d = getelementptr inbounds %struct.Pair, %struct.Pair* %p, i32 0, i32 2
  %fv = load float, float* %f, align 8
  %iv = load i32, i32* %i, align 4
  %dv = load double, double* %d, align 8
  %if = sitofp i32 %iv to float
  %df = fptrunc double %dv to float
  %s1 = fadd float %fv, %if
  %s2 = fadd float %s1, %df
  ret float %s2
}

define void @vectors(<4 x float> addrspace(1)* %in, <4 x float> addrspace(1)* %out,
                     <2 x half> addrspace(1)* %h) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pi = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %in, i64 %t64
  %v = load <4 x float>, <4 x float> addrspace(1)* %pi, align 16
  %g = load <4 x float>, <4 x float> addrspace(1)* @gvec, align 16
  %s = fadd <4 x float> %v, %g
  %e0 = extractelement <4 x float> %s, i32 0
  %e3 = extractelement <4 x float> %s, i32 3
  %m = call float @llvm.fma.f32(float %e0, float %e3, float 1.0)
  %s2 = insertelement <4 x float> %s, float %m, i32 1
  %po = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %out, i64 %t64
  store <4 x float> %s2, <4 x float> addrspace(1)* %po, align 16
  %ph = getelementptr inbounds <2 x half>, <2 x half> addrspace(1)* %h, i64 %t64
  %hv = load <2 x half>, <2 x half> addrspace(1)* %ph, align 4
  %hm = fmul <2 x half> %hv, <half 0xH3C00, half 0xH4000>
  store <2 x half> %hm, <2 x half> addrspace(1)* %ph, align 4
  ret void
}

define void @localAndCalls(float addrspace(1)* %out, i32 %n) {
entry:
  %arr = alloca [16 x float], align 4
  %pair = alloca %struct.Pair, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %fill
fill:
  %i = phi i32 [ 0, %entry ], [ %inext, %fill ]
  %fi = sitofp i32 %i to float
  %pa = getelementptr inbounds [16 x float], [16 x float]* %arr, i32 0, i32 %i
  store volatile float %fi, float* %pa, align 4
  %inext = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %inext, 16
  br i1 %more, label %fill, label %use
use:
  %k = urem i32 %tid, 16
  %pk = getelementptr inbounds [16 x float], [16 x float]* %arr, i32 0, i32 %k
  %vk = load volatile float, float* %pk, align 4
  %pf = getelementptr inbounds %struct.Pair, %struct.Pair* %pair, i32 0, i32 0
  store float %vk, float* %pf, align 8
  %pi = getelementptr inbounds %struct.Pair, %struct.Pair* %pair, i32 0, i32 1
  store i32 %n, i32* %pi, align 4
  %pd = getelementptr inbounds %struct.Pair, %struct.Pair* %pair, i32 0, i32 2
  store double 2.5, double* %pd, align 8
  %r1 = call float @takes_byval(%struct.Pair* byval(%struct.Pair) align 8 %pair)
  %r2 = call float @weak_helper(float %r1)
  %r3 = call float @ext_device_fn(float %r2, i32 %n)
  %mr = call i32 @multi_ret(i32 %tid, i32 %n)
  %mrf = sitofp i32 %mr to float
  %sum = fadd float %r3, %mrf
  %t64 = zext i32 %tid to i64
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %t64
  store float %sum, float addrspace(1)* %po, align 4
  ret void
}

define void @atomicsShfl(i32* %gen, i64 addrspace(1)* %g64, i32 %x) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %b = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %x, i32 1, i32 31)
  %f = sitofp i32 %b to float
  %fi = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %f, i32 0, i32 31)
  %fb = fptosi float %fi to i32
  %old = atomicrmw add i32* %gen, i32 %fb seq_cst
  %old2 = atomicrmw umax i32* %gen, i32 %lane acq_rel
  %pair = cmpxchg i32 addrspace(1)* @gflag, i32 0, i32 %tid acq_rel monotonic
  %ok = extractvalue { i32, i1 } %pair, 1
  call void @llvm.nvvm.membar.gl()
  %sel = select i1 %ok, i32 %old, i32 %old2
  %pop = call i32 @llvm.ctpop.i32(i32 %sel)
  %w = zext i32 %pop to i64
  %lz = call i64 @llvm.ctlz.i64(i64 %w, i1 false)
  %t64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [64 x i64], [64 x i64] addrspace(3)* @sbuf, i64 0, i64 %t64
  %gps = addrspacecast i64 addrspace(3)* %ps to i64*
  store i64 %lz, i64* %gps, align 8
  call void @llvm.nvvm.barrier0()
  %x64 = load i64, i64 addrspace(3)* %ps, align 8
  %wv = load i32, i32 addrspace(1)* @weakvar, align 4
  %wv64 = sext i32 %wv to i64
  %mul = mul i64 %x64, %wv64
  %div = udiv i64 %mul, 12345
  %old64 = atomicrmw xchg i64 addrspace(1)* %g64, i64 %div monotonic
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, <2 x half> addrspace(1)*)* @vectors, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, i32)* @localAndCalls, !"kernel", i32 1}
!2 = !{void (i32*, i64 addrspace(1)*, i32)* @atomicsShfl, !"kernel", i32 1}
