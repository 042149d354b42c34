#!/usr/bin/env bash
# The one GPU job: build for the GPU, run every test (the GPU ones included), a sanitizer pass over the
# reduction rungs, the device query, the occupancy check of every registry kernel, the tuning run (which
# writes the wisdom file the benchmarks then use) and the benchmarks; write every report into one folder.
#
#   scripts/gpu-run.sh [OUTDIR]     (default: results/<gpu>, e.g. results/h100-80gb-hbm3)
#
# Exit status is non-zero if the build, any test, the sanitizer or any benchmark check failed; every
# step still runs so one call gives the whole picture.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 4)
build=${CLIMB_BUILD:-build}
status=0
step() { echo; echo "=== $* ==="; }

step "build (CLIMB_CUDA_ARCH=${CLIMB_CUDA_ARCH:-90})"
make BUILD="$build" JOBS="$jobs" >/tmp/climb-build.log 2>&1 || { cat /tmp/climb-build.log; exit 1; }
tail -n 3 /tmp/climb-build.log
climb="$build/climb"
"$climb" version

query=$("$climb" devices --no-measure --device 0 2>/dev/null)
name=$(sed -n 's/^device 0: //p' <<<"$query")
folder=$(sed -n 's/^  results folder *//p' <<<"$query")
out=${1:-${folder:-results/unknown}}
mkdir -p "$out"
echo "GPU: ${name:-none}; reports go to $out"

step "tests"
(cd "$build" && ctest --output-on-failure) 2>&1 | tee "$out/tests.log" || status=1

step "compute-sanitizer (memcheck, racecheck, synccheck) on every reduction rung, small sizes"
if command -v compute-sanitizer >/dev/null; then
    : >"$out/sanitizer.log"
    for tool in memcheck racecheck synccheck; do
        compute-sanitizer --tool "$tool" --error-exitcode 9 "$climb" check reduce --quiet --seed 7 \
            --size 1 --size 1025 --size 65537 --size 1000003 >>"$out/sanitizer.log" 2>&1
        rc=$?
        echo "$tool: exit $rc" | tee -a "$out/sanitizer.log"
        [ $rc = 0 ] || status=1
    done
else
    echo "compute-sanitizer not found; skipped" | tee "$out/sanitizer.log"
fi

step "devices"
"$climb" devices --json "$out/devices.json" || status=1

step "occupancy: every registry kernel, calculator against the CUDA runtime"
"$climb" occupancy --kernel all 2>&1 | tee "$out/occupancy.txt" || status=1
"$build/tests/test_gpu_occupancy" 2>&1 | tee -a "$out/occupancy.txt" || status=1

step "tune all (experiment mode; the winners go to $out/wisdom.json)"
rm -f "$out/wisdom.json"
"$climb" tune all --quiet --wisdom "$out/wisdom.json" --json "$out/tune.json" --md "$out/tune.md" || status=1

step "bench all (cold: L2 flushed before every sample), with the wisdom just tuned"
"$climb" bench all --quiet --wisdom "$out/wisdom.json" --json "$out/bench.json" --md "$out/bench.md" \
    --csv "$out/bench.csv" || status=1

step "bench all --batch (back-to-back launches, warm L2), with the wisdom just tuned"
"$climb" bench all --quiet --batch --wisdom "$out/wisdom.json" --json "$out/bench-batch.json" \
    --md "$out/bench-batch.md" || status=1

echo
echo "gpu-run: $( [ $status = 0 ] && echo passed || echo FAILED ); reports in $out"
exit $status
