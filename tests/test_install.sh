#!/usr/bin/env bash
# `cmake --install` into a fresh, non-system prefix, then build examples/reduce_sum.c against it with exactly the
# commands the README shows (checked to be there), as a user would, and run each program: it sums on the GPU, or
# without one reports that there is none. A shared link must start without LD_LIBRARY_PATH; a static link must not
# need libclimb.so at all.
set -u
build=$1 src=$2 cudnn=${3:-0}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$prefix" >/dev/null || fail "install"
for f in include/climb.h include/climb_base.h include/climb_occupancy.h bin/climb; do [ -e "$prefix/$f" ] || fail "$f not installed"; done
ls "$prefix"/lib*/libclimb.a "$prefix"/lib*/libclimb.so >/dev/null || fail "libraries not installed"
pc=$(ls "$prefix"/lib*/pkgconfig/climb.pc) || fail "climb.pc not installed"
[ -e "$(dirname "$pc")/climb-static.pc" ] || fail "climb-static.pc not installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 77; }
unset LD_LIBRARY_PATH

# The commands, as the README writes them.
shared='cc reduce_sum.c $(pkg-config --cflags --libs climb)'
static='cc reduce_sum.c $(pkg-config --cflags --libs climb-static)'
for c in "$shared" "$static"; do
    grep -qF -- "$c" "$src/README.md" || fail "the README does not show: $c"
done

run() { # run LABEL: ./a.out sums on the GPU, or says there is no device
    local out rc
    out=$(./a.out 2>&1); rc=$?
    echo "$1: $out"
    [ $rc = 0 ] && return 0
    grep -q "no CUDA device" <<<"$out" && return 0
    fail "$1: the program exited $rc"
}

work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
cp "$src/examples/reduce_sum.c" "$work/"
cd "$work" || fail "cd"

eval "$shared" || fail "the README's shared build: $shared"
run "shared link"
ldd ./a.out | grep -q "libclimb.so.0 => $prefix" || fail "the shared program does not find $prefix's libclimb.so"

rm -f a.out
eval "$static" || fail "the README's static build: $static"
run "static link"
! ldd ./a.out | grep -q libclimb || fail "the static program still needs libclimb.so"

# `pkg-config --static` lists what libclimb needs besides itself, so that a link with it works too.
rm -f a.out
cc reduce_sum.c $(pkg-config --cflags --static --libs climb) || fail "a link with pkg-config --static climb"
run "pkg-config --static climb"
# The CMake package: a project of the user's finds climb with find_package(climb CONFIG) in the prefix and links the
# example both ways; each program runs.
ls "$prefix"/lib*/cmake/climb/climbConfig.cmake "$prefix"/lib*/cmake/climb/climbConfigVersion.cmake >/dev/null ||
    fail "the CMake package (climbConfig.cmake) is not installed"
if command -v cmake >/dev/null; then
    mkdir -p "$work/proj" && cp "$src/examples/reduce_sum.c" "$work/proj/" || fail "the CMake project"
    cat >"$work/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(use_climb LANGUAGES C)
find_package(climb 0.1 CONFIG REQUIRED)
add_executable(shared_sum reduce_sum.c)
target_link_libraries(shared_sum PRIVATE climb::climb m)
add_executable(static_sum reduce_sum.c)
target_link_libraries(static_sum PRIVATE climb::climb_static m)
CMAKE
    cmake -S "$work/proj" -B "$work/proj/b" -DCMAKE_PREFIX_PATH="$prefix" >"$work/proj.log" 2>&1 ||
        { tail -20 "$work/proj.log"; fail "find_package(climb CONFIG) in $prefix"; }
    cmake --build "$work/proj/b" >>"$work/proj.log" 2>&1 || { tail -20 "$work/proj.log"; fail "building against climb::climb"; }
    for p in shared_sum static_sum; do
        cp "$work/proj/b/$p" ./a.out || fail "$p was not built"
        run "CMake package, $p"
    done
    ldd "$work/proj/b/shared_sum" | grep -q "libclimb.so.0 => $prefix" || fail "shared_sum does not find $prefix's libclimb.so"
    ! ldd "$work/proj/b/static_sum" | grep -q libclimb || fail "static_sum still needs libclimb.so"
    # cuDNN where the build has it, in the static target's link, else not
    grep -q "cudnn" "$prefix"/lib*/cmake/climb/climbConfig.cmake
    [ $? = $([ "$cudnn" = 1 ] && echo 0 || echo 1) ] || fail "climbConfig.cmake and the build disagree on cuDNN"
fi

# cuDNN, where the build found it, is in what a static link needs, in both modules; else in neither.
for m in "--static climb" climb-static; do
    if [ "$cudnn" = 1 ]; then
        pkg-config --libs $m | grep -q -- "-lcudnn" || fail "pkg-config --libs $m lacks -lcudnn (the build has cuDNN)"
    else
        ! pkg-config --libs $m | grep -q -- "-lcudnn" || fail "pkg-config --libs $m names cuDNN, which the build lacks"
    fi
done
# The installed CLI finds the CUDA runtime by its own runpath, as libclimb.so does: where the libraries
# are not in ld.so.conf, it must still start.
if command -v readelf >/dev/null; then
    rp=$(readelf -d "$prefix/bin/climb" | sed -nE 's/.*\(R(UN)?PATH\).*\[(.*)\]/\2/p')
    [ -n "$rp" ] || fail "the installed climb has no runpath to the CUDA libraries"
    found=0
    IFS=: read -ra dirs <<<"$rp"
    for d in "${dirs[@]}"; do ls "$d"/libcudart.so* >/dev/null 2>&1 && found=1; done
    [ "$found" = 1 ] || fail "the installed climb's runpath ($rp) holds no libcudart"
fi
"$prefix/bin/climb" version >/dev/null || fail "the installed climb does not start without LD_LIBRARY_PATH"

# make uninstall: every file the install wrote is gone.
cmake --build "$build" --target uninstall >/dev/null || fail "the uninstall target failed"
for f in include/climb.h include/climb_base.h include/climb_occupancy.h bin/climb; do [ ! -e "$prefix/$f" ] || fail "$f is still there after uninstall"; done
! ls "$prefix"/lib*/libclimb.* "$prefix"/lib*/cmake/climb/climbConfig.cmake >/dev/null 2>&1 ||
    fail "libraries or the CMake package are still there after uninstall"
echo "installed library: the README's shared and static builds, pkg-config --static and the CMake package link and run"
echo "the installed CLI starts by its runpath; make uninstall removes every installed file"
