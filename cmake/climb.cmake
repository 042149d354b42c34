# Build helpers shared by the library and the tests.

# climb_cuda_objects(<name> [RDC] SOURCES ...): an object library of C and CUDA sources with climb's include
# paths, hidden symbols and, when cuDNN was found, CLIMB_HAVE_CUDNN. RDC: the CUDA sources are compiled as
# relocatable device code (what dynamic parallelism needs) and device-linked once, on their own, into
# <name>_dlink.o (target <name>_dlink, path in the target property CLIMB_DLINK), which a library or program takes
# beside the objects together with libcudadevrt.a. Nothing else changes how it builds: the other objects stay
# whole-program (-rdc=false) and are not part of that device link. DLINK_WITH: other RDC object libraries whose
# objects join this device link: a program holds one device link, as two would each carry the device runtime.
function(climb_cuda_objects name)
  cmake_parse_arguments(A "RDC" "" "SOURCES;DLINK_WITH" ${ARGN})
  add_library(${name} OBJECT ${A_SOURCES})
  target_include_directories(${name} PUBLIC ${CMAKE_SOURCE_DIR}/include PRIVATE ${CMAKE_SOURCE_DIR}/src/base)  # the generated build_info.c finds build_info.h
  target_link_libraries(${name} PUBLIC CUDA::cudart)
  set_target_properties(${name} PROPERTIES C_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden)
  if(CLIMB_HAVE_CUDNN)
    target_compile_definitions(${name} PUBLIC CLIMB_HAVE_CUDNN=1)
    target_include_directories(${name} PUBLIC ${CLIMB_CUDNN_INCLUDE_DIR})
  endif()
  if(CLIMB_HAVE_NCCL)   # NCCL's header; its library is opened at run time (src/device/nccl.c)
    target_compile_definitions(${name} PUBLIC CLIMB_HAVE_NCCL=1 PRIVATE "CLIMB_CUDA_LIBDIR=\"${CUDAToolkit_LIBRARY_DIR}\"")
    target_include_directories(${name} PUBLIC ${CLIMB_NCCL_INCLUDE_DIR})
  endif()
  if(A_RDC)
    set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
    set(dl ${CMAKE_CURRENT_BINARY_DIR}/${name}_dlink${CMAKE_C_OUTPUT_EXTENSION})
    set(gencode)
    foreach(a ${CLIMB_CUDA_ARCH})
      string(REGEX REPLACE "-.*" "" n "${a}") # 90-real -> 90
      list(APPEND gencode "-gencode=arch=compute_${n},code=sm_${n}")
    endforeach()
    set(with)
    foreach(t ${A_DLINK_WITH})
      list(APPEND with $<TARGET_OBJECTS:${t}>)
    endforeach()
    add_custom_command(OUTPUT ${dl}
      COMMAND ${CMAKE_CUDA_COMPILER} -dlink ${gencode} -Xcompiler=-fPIC $<TARGET_OBJECTS:${name}> ${with}
              -L${CUDAToolkit_LIBRARY_DIR} -lcudadevrt -o ${dl}
      DEPENDS $<TARGET_OBJECTS:${name}> ${with}
      COMMAND_EXPAND_LISTS VERBATIM
      COMMENT "Device-linking ${name} (relocatable device code)")
    add_custom_target(${name}_dlink DEPENDS ${dl})
    add_dependencies(${name}_dlink ${name})
    set_target_properties(${name} PROPERTIES CLIMB_DLINK ${dl})
  endif()
endfunction()

# climb_workload_sources(<out> [NO_RDC_FILES | RDC_FILES] <name>...): each workload's src/workloads/<name>.cu, or
# every .cu and .c of its folder src/workloads/<name>/ where it has several files (host code such as its CPU
# reference in C), and its API file src/lib/<name>.c when it has one. A file named *.rdc.cu launches kernels from the device (dynamic parallelism) and is compiled as
# relocatable device code: NO_RDC_FILES leaves such files out, RDC_FILES gives them alone.
function(climb_workload_sources out)
  cmake_parse_arguments(A "NO_RDC_FILES;RDC_FILES" "" "" ${ARGN})
  set(srcs)
  foreach(w ${A_UNPARSED_ARGUMENTS})
    if(IS_DIRECTORY ${CMAKE_SOURCE_DIR}/src/workloads/${w})
      file(GLOB wsrcs RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/workloads/${w}/*.cu
           ${CMAKE_SOURCE_DIR}/src/workloads/${w}/*.c)
    else()
      set(wsrcs src/workloads/${w}.cu)
    endif()
    if(NOT A_RDC_FILES AND EXISTS ${CMAKE_SOURCE_DIR}/src/lib/${w}.c)
      list(APPEND wsrcs src/lib/${w}.c)
    endif()
    foreach(f ${wsrcs})
      if(f MATCHES "\\.rdc\\.cu$")
        if(NOT A_NO_RDC_FILES)
          list(APPEND srcs ${f})
        endif()
      elseif(NOT A_RDC_FILES)
        list(APPEND srcs ${f})
      endif()
    endforeach()
  endforeach()
  set(${out} ${srcs} PARENT_SCOPE)
endfunction()

# climb_find_cudnn(): CLIMB_HAVE_CUDNN (0/1), CLIMB_CUDNN_INCLUDE_DIR, CLIMB_CUDNN_LIBRARY, CLIMB_CUDNN_VERSION.
# CLIMB_CUDNN=AUTO (default) builds the cuDNN vendor rungs where cuDNN is found and says so either way; ON
# makes its absence an error; OFF leaves them out. CUDNN_ROOT (variable or environment) names another prefix.
macro(climb_find_cudnn)
  set(CLIMB_CUDNN AUTO CACHE STRING "cuDNN vendor rungs: AUTO (when cuDNN is found), ON (required), OFF")
  set(CLIMB_HAVE_CUDNN 0)
  set(CLIMB_CUDNN_VERSION "")
  if(NOT CLIMB_CUDNN STREQUAL "OFF")
    file(GLOB _climb_cudnn_py_roots /usr/lib/python3*/*-packages/nvidia/cudnn /usr/local/lib/python3*/*-packages/nvidia/cudnn
                                    /opt/*/.venv/lib/python3*/site-packages/nvidia/cudnn)
    set(_climb_cudnn_roots ${CUDNN_ROOT} $ENV{CUDNN_ROOT} ${_climb_cudnn_py_roots})
    find_path(CLIMB_CUDNN_INCLUDE_DIR cudnn.h
              HINTS ${_climb_cudnn_roots} ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
    find_library(CLIMB_CUDNN_LIBRARY NAMES cudnn libcudnn.so.9
                 HINTS ${_climb_cudnn_roots} ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
    if(CLIMB_CUDNN_INCLUDE_DIR AND CLIMB_CUDNN_LIBRARY AND EXISTS ${CLIMB_CUDNN_INCLUDE_DIR}/cudnn_version.h)
      file(STRINGS ${CLIMB_CUDNN_INCLUDE_DIR}/cudnn_version.h _climb_v REGEX "#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ")
      string(REGEX REPLACE ".*CUDNN_MAJOR ([0-9]+).*" "\\1" _maj "${_climb_v}")
      string(REGEX REPLACE ".*CUDNN_MINOR ([0-9]+).*" "\\1" _min "${_climb_v}")
      string(REGEX REPLACE ".*CUDNN_PATCHLEVEL ([0-9]+).*" "\\1" _pat "${_climb_v}")
      set(CLIMB_CUDNN_VERSION "${_maj}.${_min}.${_pat}")
      set(CLIMB_HAVE_CUDNN 1)
    endif()
  endif()
  if(CLIMB_HAVE_CUDNN)
    message(STATUS "cuDNN ${CLIMB_CUDNN_VERSION}: ${CLIMB_CUDNN_LIBRARY}; its vendor rungs are built")
  elseif(CLIMB_CUDNN STREQUAL "ON")
    message(FATAL_ERROR "cuDNN not found (CLIMB_CUDNN=ON): set CUDNN_ROOT to its prefix, or CLIMB_CUDNN=AUTO")
  elseif(CLIMB_CUDNN STREQUAL "OFF")
    message(STATUS "cuDNN: off (CLIMB_CUDNN=OFF); its vendor rungs are left out")
  else()
    message(STATUS "cuDNN: not found; its vendor rungs are left out (set CUDNN_ROOT to its prefix to build them)")
  endif()
endmacro()

# climb_find_nccl(): CLIMB_HAVE_NCCL (0/1) and CLIMB_NCCL_INCLUDE_DIR, where nccl.h is (the CUDA toolkit's, or the
# system's). The library itself is opened at run time, so a build with the header runs where NCCL is absent.
macro(climb_find_nccl)
  find_path(CLIMB_NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_INCLUDE_DIRS}
            PATH_SUFFIXES include)
  if(CLIMB_NCCL_INCLUDE_DIR)
    set(CLIMB_HAVE_NCCL 1)
    message(STATUS "NCCL: ${CLIMB_NCCL_INCLUDE_DIR}/nccl.h; the library is opened when a multi-GPU rung needs it")
  else()
    set(CLIMB_HAVE_NCCL 0)
    message(STATUS "NCCL: nccl.h not found; the NCCL rungs are left out (set NCCL_ROOT to its prefix to build them)")
  endif()
endmacro()
