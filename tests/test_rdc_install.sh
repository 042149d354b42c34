#!/usr/bin/env bash
# The relocatable-device-code path of libclimb itself (CLIMB_RDC_WORKLOADS and *.rdc.cu files: compiled with -rdc,
# device-linked on their own, libcudadevrt.a in the link and in both pkg-config modules), with real workloads: a
# trimmed build of reduce and bezier, reduce named in CLIMB_RDC_WORKLOADS (compiled whole as RDC), bezier's
# launch.rdc.cu the only one of its files compiled so; then tests/test_install.sh on it (installed into a fresh
# prefix, the README's shared and static builds of examples/reduce_sum.c through pkg-config, each run: it sums on
# a GPU, or reports that there is none).
#   test_rdc_install.sh SOURCE_DIR CMAKE NVCC ARCH
set -u
src=$1 cmake=$2 nvcc=$3 arch=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 77; }
jobs=$(nproc 2>/dev/null || echo 2)
"$cmake" -S "$src" -B "$tmp/b" -DCMAKE_CUDA_COMPILER="$nvcc" "-DCLIMB_CUDA_ARCH=$arch" "-DCLIMB_WORKLOADS_ONLY=reduce;bezier" \
    -DCLIMB_RDC_WORKLOADS=reduce -DCLIMB_CUDNN=OFF >"$tmp/configure.log" 2>&1 ||
    { tail -20 "$tmp/configure.log"; fail "configure with CLIMB_RDC_WORKLOADS=reduce"; }
"$cmake" --build "$tmp/b" -j "$jobs" >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; fail "the RDC build"; }
# reduce went through the RDC path: its own object library and device link
ls "$tmp/b"/CMakeFiles/climb_rdc_objects.dir/src/workloads/reduce/reduce.cu.o >/dev/null 2>&1 ||
    fail "reduce was not compiled as relocatable device code"
ls "$tmp/b"/climb_rdc_objects_dlink*.o >/dev/null 2>&1 || fail "no device link of the RDC objects"
ls "$tmp/b"/CMakeFiles/climb_rdc_objects.dir/src/workloads/bezier/launch.rdc.cu.o >/dev/null 2>&1 ||
    fail "bezier's launch.rdc.cu was not compiled as relocatable device code"
ls "$tmp/b"/CMakeFiles/climb_objects.dir/src/workloads/bezier/bezier.cu.o >/dev/null 2>&1 ||
    fail "bezier's bezier.cu was compiled as relocatable device code (only *.rdc.cu files are)"
grep -q "libcudadevrt.a" "$tmp/b/climb-static.pc" || fail "climb-static.pc lacks libcudadevrt.a"
grep -q "libcudadevrt.a" "$tmp/b/climb.pc" || fail "climb.pc's Libs.private lacks libcudadevrt.a"
"$tmp/b/climb" list --names | grep -qx reduce || fail "the RDC build's CLI does not list reduce"
"$tmp/b/climb" list bezier | grep -q "device launches" || fail "the RDC build's CLI does not list bezier's rungs"
bash "$src/tests/test_install.sh" "$tmp/b" "$src" 0 || fail "install and pkg-config of the RDC build"
echo "the RDC path: reduce whole and bezier's launch.rdc.cu compiled with -rdc and device-linked, installed, linked through pkg-config and run"
