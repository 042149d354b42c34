#!/usr/bin/env bash
# `cmake --install` into a fresh prefix, then build examples/reduce_sum.c against it with pkg-config
# alone, as a user would. Run the program: it sums on the GPU, or without one reports "no CUDA device".
set -u
build=$1 src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: install"; exit 1; }
for f in include/climb.h bin/climb; do [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }; done
ls "$prefix"/lib*/libclimb.a "$prefix"/lib*/libclimb.so >/dev/null || { echo "FAIL: libraries not installed"; exit 1; }
pc=$(ls "$prefix"/lib*/pkgconfig/climb.pc) || { echo "FAIL: climb.pc not installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 77; }
cc -std=c11 -Wall -Werror "$src/examples/reduce_sum.c" $(pkg-config --cflags --libs climb) -lm \
   -Wl,-rpath,"$(pkg-config --variable=libdir climb)" -o "$prefix/reduce_sum" || { echo "FAIL: example did not build"; exit 1; }
out=$("$prefix/reduce_sum" 2>&1); rc=$?
echo "$out"
if [ $rc = 0 ]; then echo "installed library summed on the GPU"; exit 0; fi
if grep -q "no CUDA device" <<<"$out"; then echo "installed library linked and answered 'no CUDA device'"; exit 0; fi
echo "FAIL: example exited $rc"; exit 1
