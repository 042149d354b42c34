# Removes what the last `cmake --install` of a build wrote, file by file from its install_manifest.txt (the
# `uninstall` target; `make uninstall`). Folders are left: they may hold other things.
if(NOT EXISTS "${MANIFEST}")
  message(FATAL_ERROR "no ${MANIFEST}: nothing was installed from this build (or its manifest was removed)")
endif()
file(STRINGS "${MANIFEST}" files)
set(n 0)
foreach(f ${files})
  if(EXISTS "${f}" OR IS_SYMLINK "${f}")
    file(REMOVE "${f}")
    math(EXPR n "${n} + 1")
  endif()
endforeach()
message(STATUS "uninstalled ${n} files listed in ${MANIFEST}")
