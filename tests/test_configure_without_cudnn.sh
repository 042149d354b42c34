#!/usr/bin/env bash
# Configures climb in a fresh folder with cuDNN hidden from CMake's search: the configure must succeed and say
# that cuDNN's vendor rungs are left out (a message, not an error), the test workload must build without its cuDNN
# rung, and CLIMB_CUDNN=ON must turn the absence into an error. The first configure also has no GPU to probe and no
# CLIMB_CUDA_ARCH: it must choose the fallback list of architectures and say so.
#   test_configure_without_cudnn.sh SOURCE_DIR CMAKE NVCC
# cudnn.h may sit in several folders (the toolkit's, /usr/local/include, a Python wheel's): each one CMake finds is
# added to CMAKE_IGNORE_PATH and the configure is repeated until none is found.
set -u
src=$1 cmake=$2 nvcc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

hide=""
for attempt in 1 2 3 4 5 6 7 8; do
    rm -rf "$tmp/b"
    out=$(env -u CLIMB_CUDA_ARCH CLIMB_NO_GPU_PROBE=1 "$cmake" -S "$src" -B "$tmp/b" -DCMAKE_CUDA_COMPILER="$nvcc" \
              "-DCMAKE_IGNORE_PATH=$hide" 2>&1) ||
        { echo "$out" | tail -20; fail "configure without cuDNN failed"; }
    grep -q "cuDNN: not found" <<<"$out" && break
    d=$(sed -n 's/^CLIMB_CUDNN_INCLUDE_DIR:PATH=//p' "$tmp/b/CMakeCache.txt")
    [ -n "$d" ] && [ "${d%NOTFOUND}" = "$d" ] || fail "cuDNN reported found, but no include folder in the cache"
    hide="$hide${hide:+;}$d;$(realpath "$d")"
done
grep -q "cuDNN: not found; its vendor rungs are left out" <<<"$out" ||
    { echo "$out" | grep -i cudnn; fail "cuDNN still found with $hide hidden, or no message"; }
"$cmake" --build "$tmp/b" --target climb_testwl climb_build_info -j 2 >"$tmp/build.log" 2>&1 ||
    { tail -20 "$tmp/build.log"; fail "the test workload did not build without cuDNN"; }
grep -q 'climb_build_cudnn\[\] = "";' "$tmp/b/generated/build_info.c" || fail "build info names a cuDNN"
echo "configured and built without cuDNN (hidden: ${hide:-nothing to hide}); message: $(grep -o 'cuDNN: not found.*' <<<"$out")"
# No GPU to ask: the fallback list of architectures, said at configure time and kept in the build info.
grep -q "climb: CUDA architectures 80-real;86-real;89-real;90 (no GPU found" <<<"$out" ||
    { echo "$out" | grep -i "architectures"; fail "no GPU: not the fallback list of architectures, or not said"; }
grep -q 'climb_build_arch\[\] = "80-real;86-real;89-real;90";' "$tmp/b/generated/build_info.c" ||
    fail "the build info does not name the fallback architectures"
echo "no GPU probed: CUDA architectures 80-real;86-real;89-real;90, in the build info too"

out=$("$cmake" -S "$src" -B "$tmp/on" -DCMAKE_CUDA_COMPILER="$nvcc" "-DCMAKE_IGNORE_PATH=$hide" -DCLIMB_CUDNN=ON 2>&1) &&
    fail "CLIMB_CUDNN=ON configured without cuDNN"
grep -q "cuDNN not found (CLIMB_CUDNN=ON)" <<<"$out" || fail "CLIMB_CUDNN=ON: no clear error"
echo "CLIMB_CUDNN=ON without cuDNN: a clear configure error, as asked"
