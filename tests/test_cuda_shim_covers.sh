#!/usr/bin/env bash
# The counting shim (tests/cuda_shim.c) wraps every CUDA runtime function libclimb calls, so that the argument tests'
# "no CUDA call" holds for all of them: each runtime function the static library refers to must have a SHIM line,
# (and the launch <<<...>>> compiles to, __cudaLaunchKernel and its per-thread-stream form) but for the four that only
# name an error or a version. Usage: test_cuda_shim_covers.sh libclimb.a cuda_shim.c
set -euo pipefail
lib=$1 shim=$2
command -v nm >/dev/null || { echo "nm not found: skipped"; exit 77; }
used=$(nm -u "$lib" | awk '$1 == "U" && $2 ~ /^(cuda[A-Z]|__cudaLaunchKernel)/ {print $2}' | sort -u)
[ -n "$used" ] || { echo "no CUDA runtime function found in $lib: the check cannot work"; exit 1; }
missing=0
for f in $used; do
    case $f in cudaGetErrorName|cudaGetErrorString|cudaRuntimeGetVersion|cudaDriverGetVersion) continue ;; esac
    if ! grep -Eq "^SHIM\([A-Z]+, $f," "$shim"; then
        echo "libclimb calls $f, which tests/cuda_shim.c does not wrap"
        missing=1
    fi
done
[ $missing = 0 ] && echo "every runtime function libclimb calls is wrapped ($(echo "$used" | wc -l) referred to)"
exit $missing
