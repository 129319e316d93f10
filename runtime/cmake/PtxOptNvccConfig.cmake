# CMake package for projects that link ptx-nvcc's launch shim explicitly
# (docs/NVCC.md, "CMake"). Most projects need nothing: with
# -DCMAKE_CUDA_COMPILER=<prefix>/bin/ptx-nvcc, CMake picks the shim up from
# ptx-nvcc's link line. Use this where a target is linked by another tool
# (a C++ target linking CUDA objects, a custom link rule):
#
#   find_package(PtxOptNvcc REQUIRED)          # PtxOptNvcc_DIR or CMAKE_PREFIX_PATH
#   ptxopt_nvcc_link(my_target)                # or: target_link_libraries(my_target PRIVATE ptxopt::nvcc)
#
# Also usable from a build tree: include(<src>/runtime/cmake/PtxOptNvccConfig.cmake)
# with PTXOPT_NVCC_LIBRARY set to <build>/runtime/libptxopt_nvcc.a.
#
# ptxopt::nvcc also carries the linker's --wrap options that send the
# program's cudaLaunchKernel(Ex), cudaGetKernel and graph kernel node calls
# to the shim; a target linked without it runs the originals there.
#
# Provides: ptxopt::nvcc (imported target), PTXOPT_NVCC_EXECUTABLE (ptx-nvcc),
# PTXOPT_NVCC_LIBRARY, ptxopt_nvcc_link(<target>...).
get_filename_component(_ptxopt_nvcc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT PTXOPT_NVCC_LIBRARY)
  find_file(PTXOPT_NVCC_LIBRARY libptxopt_nvcc.a
            HINTS ${_ptxopt_nvcc_prefix}/lib $ENV{PTXOPT_BUILD}/runtime NO_DEFAULT_PATH)
endif()
if(NOT PTXOPT_NVCC_EXECUTABLE)
  find_program(PTXOPT_NVCC_EXECUTABLE ptx-nvcc
               HINTS ${_ptxopt_nvcc_prefix}/bin ${CMAKE_CURRENT_LIST_DIR}/../../tools NO_DEFAULT_PATH)
endif()
if(NOT PTXOPT_NVCC_LIBRARY)
  set(PtxOptNvcc_FOUND FALSE)
  set(PtxOptNvcc_NOT_FOUND_MESSAGE "libptxopt_nvcc.a not found (build the ptxopt_nvcc target, or set PTXOPT_NVCC_LIBRARY)")
  return()
endif()
if(NOT TARGET ptxopt::nvcc)
  add_library(ptxopt::nvcc INTERFACE IMPORTED)
  # The library is a linker script naming one relocatable object (docs/NVCC.md).
  set_target_properties(ptxopt::nvcc PROPERTIES INTERFACE_LINK_LIBRARIES "${PTXOPT_NVCC_LIBRARY}")
  # The launch APIs the shim wraps (docs/NVCC.md, "Launch paths"; the list
  # WRAPPED in tools/ptx_nvcc.py): CMake keeps no flags from ptx-nvcc's
  # link line, so targets linked by the host compiler get them from here.
  set(_ptxopt_wrap)
  foreach(f cudaLaunchKernel cudaLaunchKernel_ptsz cudaLaunchKernelExC cudaLaunchKernelExC_ptsz cudaGetKernel
            cudaLaunchCooperativeKernel cudaLaunchCooperativeKernel_ptsz
            cudaGraphAddKernelNode cudaGraphKernelNodeSetParams cudaGraphExecKernelNodeSetParams
            cudaGraphKernelNodeGetParams cudaGraphAddNode cudaGraphNodeSetParams cudaGraphExecNodeSetParams
            cudaGraphKernelNodeSetAttribute cudaGraphDestroyNode cudaGraphDestroy
            cudaStreamBeginCapture cudaStreamBeginCapture_ptsz cudaStreamBeginCaptureToGraph
            cudaStreamBeginCaptureToGraph_ptsz cudaStreamEndCapture cudaStreamEndCapture_ptsz
            # the allocation calls (runtime/NvccPreload.cpp)
            cudaMalloc cudaMallocManaged cudaMallocPitch cudaMalloc3D cudaMallocHost cudaHostAlloc cudaFree)
    list(APPEND _ptxopt_wrap "LINKER:--wrap=${f}")
  endforeach()
  set_target_properties(ptxopt::nvcc PROPERTIES INTERFACE_LINK_OPTIONS "${_ptxopt_wrap}")
endif()
function(ptxopt_nvcc_link)
  foreach(t IN LISTS ARGN)
    target_link_libraries(${t} PRIVATE ptxopt::nvcc)
  endforeach()
endfunction()
set(PtxOptNvcc_FOUND TRUE)
