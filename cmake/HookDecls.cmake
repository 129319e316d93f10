# Writes OUT: the lines of IN (include/ptxopt/runtime/NvccShim.h) between
# "// @hook-block-begin" and "// @hook-block-end" as a C++ raw string
# literal, which src/driver/nvcc_cicc.cpp puts into every hook block: the
# table layout ptx-nvcc's hooked objects pass to the shim is written once,
# in the header the shim is compiled with.
file(READ "${IN}" text)
string(FIND "${text}" "// @hook-block-begin" begin)
string(FIND "${text}" "// @hook-block-end" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "${IN}: no // @hook-block-begin ... // @hook-block-end region")
endif()
string(SUBSTRING "${text}" ${begin} -1 rest)
string(FIND "${rest}" "\n" eol)
math(EXPR first "${begin} + ${eol} + 1")
math(EXPR length "${end} - ${first}")
string(SUBSTRING "${text}" ${first} ${length} region)
set(content "// Generated from ${IN} by cmake/HookDecls.cmake: do not edit.\nR\"ptxopt_hook(${region})ptxopt_hook\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${content}")
