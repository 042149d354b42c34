#!/usr/bin/env bash
# The one GPU job: build for the GPU; run the CPU tests, the core GPU tests and the GPU tests of the named
# workloads; then for each named workload (every workload by default): compute-sanitizer over its quick shapes
# (memcheck, racecheck and synccheck on our rungs; memcheck for memory errors alone on the vendor's), the occupancy of its kernels against the runtime, `climb tune` (its winner saved
# as the workload's wisdom), `climb bench` cold and --batch with that wisdom, and each of its sweeps (`climb bench
# --sweep NAME`). `climb devices` once.
#
#   scripts/gpu-run.sh [workload...]
#
# CLIMB_STEPS=LIST (comma-separated; default all) runs only some steps, for a workload whose whole run does not fit
# one device session: tests, sanitizer, occupancy, tune, bench (cold), batch, processes (the cold bench under mpirun, one
# process a GPU, for a workload that spans GPUs and runs so: bench-processes.*), scaling (for a workload that spans
# GPUs from one: the cold bench on 1, 2, 4, ... GPUs below this machine's count too, each in results/<gpu>x<N>/, and
# its weak-scaling run at every count, bench-weak.*), sweeps. Two calls with complementary
# lists write the same reports as one. CLIMB_SWEEPS=LIST runs only the sweeps of those names (of any named
# workload). One step runs only when named: repeat, a second cold bench of the same binary compared with bench.json
# by `climb compare` (repeat-compare.md: every row's change against the two runs' noise; the step fails if a row got
# SLOW), the check that two runs of one commit agree.
#
# Reports go to results/<gpu>/<workload>/ (bench.json, bench.md, bench.csv, bench-batch.*, tune.*, wisdom.json,
# occupancy.txt, sanitizer.log (a tool that fails over several rungs run again on each alone, to name the rung),
# tests.log, sweep-NAME.json and .md) and results/<gpu>/devices.json (copied into
# results/<gpu>x<N>/ where a workload spans N GPUs);
# CLIMB_RESULTS=DIR puts them under DIR instead of results/<gpu>. CLIMB_CORE_TESTS=0 leaves the core GPU tests out of
# the tests step (the named workloads' and the CPU tests still run), for a call that changed no core code;
# CLIMB_CPU_TESTS=0 leaves the CPU tests out of it (CI runs them on every commit; on a GPU machine they take minutes
# of its time). Exit status is non-zero if the build, a test, the sanitizer or a benchmark failed;
# every step still runs, so one call gives the whole picture. Without a GPU it stops after the build, with exit 1.
# The build and test logs go to a fresh folder under $TMPDIR (or /tmp), named in the output.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 4)
build=${CLIMB_BUILD:-build}
status=0
step() { echo; echo "=== $* ==="; }
steps=",${CLIMB_STEPS:-tests,sanitizer,occupancy,tune,bench,batch,processes,scaling,sweeps},"
want() { [[ "$steps" == *",$1,"* ]]; }
for s in ${CLIMB_STEPS:+${CLIMB_STEPS//,/ }}; do
    [[ ",tests,sanitizer,occupancy,tune,bench,batch,processes,scaling,sweeps,repeat," == *",$s,"* ]] || { echo "gpu-run: unknown step '$s'"; exit 2; }
done

# The logs of this run: a folder of its own (two runs at once, or another user, never share one).
logs=$(mktemp -d "${TMPDIR:-/tmp}/climb-gpu-run.XXXXXX") || { echo "gpu-run: cannot make a folder for the logs"; exit 1; }

step "build (CLIMB_CUDA_ARCH=${CLIMB_CUDA_ARCH:-90})"
make BUILD="$build" JOBS="$jobs" >"$logs/build.log" 2>&1 || { cat "$logs/build.log"; exit 1; }
grep -i "cudnn" "$build/CMakeCache.txt" | grep -E "^CLIMB_CUDNN_(LIBRARY|INCLUDE_DIR):" || true
tail -n 3 "$logs/build.log"
climb="$build/climb"
"$climb" version

all=$("$climb" list --names)
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || mapfile -t workloads <<<"$all"
for w in "${workloads[@]}"; do
    grep -qx "$w" <<<"$all" || { echo "gpu-run: unknown workload '$w' (these are: $(echo $all))"; exit 2; }
done

query=$("$climb" devices --no-measure --device 0 2>/dev/null)
name=$(sed -n 's/^device 0: //p' <<<"$query")
folder=$(sed -n 's/^  results folder *//p' <<<"$query")
root=${CLIMB_RESULTS:-${folder:-results/unknown}}
mkdir -p "$root"
if [ -z "$name" ]; then
    echo "gpu-run: no CUDA GPU here (climb devices finds none): nothing to measure; 'make test' is the run for a"
    echo "machine without a GPU. Logs: $logs"
    exit 1
fi
echo "GPU: $name; workloads: ${workloads[*]}; reports go to $root/<workload>/; logs in $logs"

if want tests; then
    step "tests: CPU, core GPU, and the GPU tests of ${workloads[*]}"
    core="core|" cpu="cpu|"
    [ "${CLIMB_CORE_TESTS:-1}" = 0 ] && core=""
    [ "${CLIMB_CPU_TESTS:-1}" = 0 ] && cpu=""
    labels=$(IFS='|'; echo "^(${cpu}${core}${workloads[*]})\$")
    (cd "$build" && ctest --verbose -L "$labels") 2>&1 | tee "$logs/tests.log" | grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|FAIL" || status=1
    grep -q "100% tests passed" "$logs/tests.log" || status=1
    # On a GPU machine a GPU test that skipped did not run: that fails the run (a missing compute-sanitizer is
    # the one skip allowed, and said).
    gpu_tests=" $(cd "$build" && ctest -N -L '^gpu$' | sed -nE 's/^ *Test +#[0-9]+: //p' | tr '\n' ' ') "
    while read -r num tname; do
        [[ "$gpu_tests" == *" $tname "* ]] || continue
        if grep -q "^$num: SKIP: compute-sanitizer not found" "$logs/tests.log"; then
            echo "gpu-run: $tname skipped: compute-sanitizer not found"
        elif grep -qE "^$num: SKIP: needs [0-9]+ GPUs, [0-9]+ here" "$logs/tests.log"; then
            echo "gpu-run: $tname skipped: $(grep -m1 -oE "needs [0-9]+ GPUs, [0-9]+ here" "$logs/tests.log")"
        else
            echo "gpu-run: FAIL: GPU test $tname skipped on a GPU machine: $(grep -m1 "^$num: SKIP" "$logs/tests.log")"
            status=1
        fi
    done < <(sed -nE 's/.*Test +#([0-9]+): ([^ ]+) .*\*\*\*Skipped.*/\1 \2/p' "$logs/tests.log")
fi

step "devices"
"$climb" devices --json "$root/devices.json" || status=1

gpus=$(grep -c '^device [0-9]*:' <<<"$("$climb" devices --no-measure 2>/dev/null)")
for w in "${workloads[@]}"; do
    out="$root/$w"
    # A workload whose cases span GPUs runs over every GPU here, its reports in <gpu>x<N>/; where it needs more
    # GPUs than there are, its steps are left out, said.
    span=()
    least=$("$climb" list "$w" | sed -nE 's/^  GPUs: ([0-9]+) to .*/\1/p')
    if [ -n "$least" ]; then
        if [ "$gpus" -lt "$least" ]; then
            echo "gpu-run: $w spans $least GPUs at the least and this machine has $gpus: its steps are left out"
            continue
        fi
        span=(--gpus "$gpus")
        out="${root}x$gpus/$w"
    fi
    mkdir -p "$out"
    # The machine's facts beside the reports of its GPUs together too (the same measurement as $root's).
    [ ${#span[@]} -gt 0 ] && [ -f "$root/devices.json" ] && cp "$root/devices.json" "${root}x$gpus/devices.json"
    want tests && cp "$logs/tests.log" "$out/tests.log"

    if want sanitizer; then
        step "$w: compute-sanitizer (memcheck, racecheck, synccheck) on every rung, the quick shapes"
        if command -v compute-sanitizer >/dev/null; then
            : >"$out/sanitizer.log"
            # A vendor library's kernels and calls are NVIDIA's to answer for: its rungs get memcheck for memory
            # errors alone (NCCL probes its kernel images with cudaFuncGetAttributes and enables peer access that
            # may be on, each an API error by design), and neither racecheck (cuSPARSE's csrmv shares memory on
            # purpose) nor synccheck (NCCL's kernels split their blocks at barriers). Our rungs get all three, API
            # errors included. racecheck and synccheck do not support dynamic parallelism: the rungs that launch
            # from the device (`climb list` says "device launches") get memcheck alone.
            ours=() mine=() vend=()
            while read -r r; do ours+=(--rung "$r"); done < <("$climb" list "$w" |
                awk '$1 ~ /^[0-9]+$/ && ($3 == "ladder" || $3 == "best" || $3 == "bound") && !/device launches/ {print $2}')
            while read -r r; do mine+=(--rung "$r"); done < <("$climb" list "$w" |
                awk '$1 ~ /^[0-9]+$/ && ($3 == "ladder" || $3 == "best" || $3 == "bound") {print $2}')
            while read -r r; do vend+=(--rung "$r"); done < <("$climb" list "$w" | awk '$1 ~ /^[0-9]+$/ && $3 == "vendor" {print $2}')
            for tool in memcheck memcheck-vendor racecheck synccheck; do
                args=(--tool "$tool") only=("${mine[@]}")
                case $tool in
                memcheck-vendor)
                    [ ${#vend[@]} -gt 0 ] || continue
                    args=(--tool memcheck --report-api-errors no) only=("${vend[@]}")
                    echo "memcheck of the vendor rungs, memory errors alone (${vend[*]})" >>"$out/sanitizer.log" ;;
                racecheck | synccheck)
                    only=("${ours[@]}")
                    echo "$tool: our rungs without device launches (${ours[*]})" >>"$out/sanitizer.log" ;;
                esac
                compute-sanitizer "${args[@]}" --error-exitcode 9 "$climb" check "$w" "${span[@]}" --quick --quiet --seed 7 \
                    "${only[@]}" >>"$out/sanitizer.log" 2>&1
                rc=$?
                echo "$tool: exit $rc" | tee -a "$out/sanitizer.log"
                [ $rc = 0 ] || status=1
                # A failure over several rungs is run again rung by rung, so that the log names the rung (some of
                # the tool's errors, as its own internal ones, name no kernel)
                if [ $rc != 0 ] && [ ${#only[@]} -gt 2 ]; then
                    for ((i = 1; i < ${#only[@]}; i += 2)); do
                        echo "$tool, rung ${only[$i]} alone:" >>"$out/sanitizer.log"
                        compute-sanitizer "${args[@]}" --error-exitcode 9 "$climb" check "$w" "${span[@]}" --quick \
                            --quiet --seed 7 --rung "${only[$i]}" >>"$out/sanitizer.log" 2>&1
                        echo "$tool, rung ${only[$i]} alone: exit $?" | tee -a "$out/sanitizer.log"
                    done
                fi
            done
        else
            echo "compute-sanitizer not found; skipped" | tee "$out/sanitizer.log"
        fi
    fi

    if want occupancy; then
        step "$w: occupancy of every kernel, calculator against the CUDA runtime"
        "$climb" occupancy --kernel "$w" 2>&1 | tee "$out/occupancy.txt" || status=1
    fi

    wisdom=(--no-wisdom)
    if "$climb" list "$w" | grep -q "tunable parameters"; then
        if want tune; then
            step "$w: tune (experiment mode; the winner goes to $out/wisdom.json)"
            rm -f "$out/wisdom.json"
            "$climb" tune "$w" "${span[@]}" --quiet --wisdom "$out/wisdom.json" --json "$out/tune.json" --md "$out/tune.md" \
                || status=1
        fi
        [ -f "$out/wisdom.json" ] && wisdom=(--wisdom "$out/wisdom.json")
    fi

    if want bench; then
        step "$w: bench (cold: L2 flushed before every sample)"
        "$climb" bench "$w" "${span[@]}" --quiet "${wisdom[@]}" --json "$out/bench.json" --md "$out/bench.md" \
            --csv "$out/bench.csv" || status=1
    fi

    if want repeat; then
        step "$w: repeat the cold bench and compare it with bench.json"
        if [ -f "$out/bench.json" ]; then
            again=$(mktemp "${TMPDIR:-/tmp}/climb-repeat.XXXXXX.json")
            "$climb" bench "$w" "${span[@]}" --quiet "${wisdom[@]}" --json "$again" >/dev/null || status=1
            "$climb" compare "$out/bench.json" "$again" >"$out/repeat-compare.md" || status=1
            tail -n 1 "$out/repeat-compare.md"
            rm -f "$again"
        else
            echo "gpu-run: $w: no bench.json to repeat (run the bench step first)"
            status=1
        fi
    fi

    if want batch; then
        step "$w: bench --batch (back-to-back launches, warm L2)"
        "$climb" bench "$w" "${span[@]}" --quiet --batch "${wisdom[@]}" --json "$out/bench-batch.json" \
            --md "$out/bench-batch.md" || status=1
    fi

    # One process a GPU: the same cold bench under mpirun, a process for each of the case's GPUs, where the
    # workload runs so and this climb has MPI (bench-processes.*; rank 0 writes them).
    if want processes && [ ${#span[@]} -gt 0 ] && "$climb" list "$w" | grep -q "one process a GPU"; then
        step "$w: bench as one process a GPU (mpirun -np $gpus, cold)"
        if "$climb" version | grep -q "MPI built in" && command -v mpirun >/dev/null; then
            mpirun --allow-run-as-root -np "$gpus" -x NCCL_NVLS_ENABLE=0 "$climb" bench "$w" --quiet "${wisdom[@]}" \
                --json "$out/bench-processes.json" --md "$out/bench-processes.md" --csv "$out/bench-processes.csv" \
                || status=1
        else
            echo "gpu-run: $w: no MPI in this climb, or no mpirun: one process a GPU not run"
        fi
    fi

    # Scaling, for a workload whose cases span GPUs from one: the cold bench on every power-of-two count of GPUs
    # below this machine's (strong scaling: the same cases; the full count's is the bench step's), and its weak-
    # scaling run (the problem growing with the GPUs) at every count, each count's reports in results/<gpu>x<N>/.
    if want scaling && [ "$least" = 1 ]; then
        weak=$("$climb" list "$w" | sed -nE "s/^  weak scaling: climb bench $w --gpus N (.*)/\1/p")
        counts=()
        for ((n = 1; n < gpus; n *= 2)); do counts+=("$n"); done
        for n in "${counts[@]}" "$gpus"; do
            o="${root}x$n/$w"
            mkdir -p "$o"
            [ -f "$root/devices.json" ] && cp "$root/devices.json" "${root}x$n/devices.json"
            if [ "$n" != "$gpus" ]; then
                step "$w: bench on $n of the $gpus GPUs (strong scaling, cold)"
                "$climb" bench "$w" --gpus "$n" --quiet "${wisdom[@]}" --json "$o/bench.json" --md "$o/bench.md" \
                    --csv "$o/bench.csv" || status=1
            fi
            if [ -n "$weak" ]; then
                step "$w: weak scaling on $n GPUs ($weak, cold)"
                # shellcheck disable=SC2086 # the workload's bench arguments, words
                "$climb" bench "$w" --gpus "$n" $weak --quiet "${wisdom[@]}" --json "$o/bench-weak.json" \
                    --md "$o/bench-weak.md" --csv "$o/bench-weak.csv" || status=1
            fi
        done
    fi

    if want sweeps; then
        for s in $("$climb" list "$w" --sweeps); do
            [ -z "${CLIMB_SWEEPS:-}" ] || [[ ",$CLIMB_SWEEPS," == *",$s,"* ]] || continue
            step "$w: sweep $s (cold)"
            "$climb" bench "$w" "${span[@]}" --sweep "$s" --quiet "${wisdom[@]}" --json "$out/sweep-$s.json" \
                --md "$out/sweep-$s.md" || status=1
        done
    fi
done

echo
echo "gpu-run: $( [ $status = 0 ] && echo passed || echo FAILED ); reports in $root"
exit $status
