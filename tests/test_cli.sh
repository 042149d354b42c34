#!/usr/bin/env bash
# The CLI's help, listing and every kind of bad usage: exit codes and the messages a user sees.
# Usage errors must be caught before the GPU is touched, so all of this runs without one.
climb="$1"
fails=0; checks=0

expect() { # expect EXIT_CODE 'regex' args...
    local want=$1 pattern=$2; shift 2
    local out rc
    out=$("$climb" "$@" 2>&1); rc=$?
    checks=$((checks + 1))
    if [ "$rc" != "$want" ]; then
        echo "FAIL: climb $*: exit $rc, expected $want"; echo "$out" | head -5; fails=$((fails + 1)); return
    fi
    if ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: climb $*: output lacks /$pattern/"; echo "$out" | head -5; fails=$((fails + 1))
    fi
}

expect 0 'usage: climb <command>' --help
expect 2 'usage: climb <command>'
expect 2 "unknown command 'frobnicate'" frobnicate
expect 0 'climb 0\.1\.0 \(commit [0-9a-f]+|climb 0\.1\.0 \(commit unknown' version
expect 0 '^reduce +10 rungs' list
expect 0 'cub_device_reduce' list reduce
expect 0 ' 9  reduce_vectorized_single_pass' list reduce
expect 0 ' 1  reduce_interleaved_divergent' list reduce
expect 2 "unknown workload 'nosuch'" list nosuch
expect 2 'at most one workload' list reduce extra
expect 0 '--batch' bench --help
expect 0 'edge-size sweep' check --help
expect 0 'measured' devices --help
expect 0 'Lists the workloads' list --help
expect 2 'which workload' bench
expect 2 "unknown workload 'nosuch'" bench nosuch
expect 2 "unknown workload 'nosuch'" check nosuch
expect 2 "unknown rung 'reduce_nosuch'" bench reduce --rung reduce_nosuch
expect 2 "unknown rung 'x'" bench all --rung x
expect 2 "'f64' is not a type" bench reduce --type f64
expect 2 "'abc' is not a size" bench reduce --size abc
expect 2 "'2\^x' is not a size" bench reduce --size '2^x'
expect 2 "'2\^99' is not a size" bench reduce --size '2^99'
expect 2 "'-5' is not a size" check reduce --size -5
expect 2 "'-1' is not a non-negative integer" bench reduce --seed -1
expect 2 "'0' is not a count" bench reduce --min-samples 0
expect 2 "'fast' is not a number of seconds" bench reduce --max-time fast
expect 2 "unknown or incomplete option '--frob'" bench reduce --frob
expect 2 "unknown or incomplete option '--json'" bench reduce --json
expect 2 "unknown or incomplete option '--batch'" check reduce --batch
expect 2 "'extra' is extra" check reduce extra
expect 2 "'x' is not a device ordinal" bench reduce --device x
expect 2 "unknown or incomplete option '--bogus'" devices --bogus

# Without a GPU, commands that need one say so and fail; with one, they would run (covered by GPU tests).
if ! "$climb" devices --no-measure >/dev/null 2>&1; then
    expect 1 'no (usable )?CUDA device' devices
    expect 1 'no (usable )?CUDA device' check reduce --seed 1
    expect 1 'no (usable )?CUDA device' bench reduce --seed 1
else
    expect 1 'no device 999' devices --device 999
    expect 0 'check reduce: .* 0 failures' check reduce --rung reduce_seq_addressing --size 1025 --seed 3 --quiet
    expect 1 'out of device memory for reduce n = 1099511627776' check reduce --size '2^40' --type i32 --quiet
    # A report on stdout stays machine-readable: the table goes to stderr.
    checks=$((checks + 1))
    json=$("$climb" bench reduce --rung reduce_vectorized_single_pass --size 100000 --type f32 --seed 5 \
           --min-samples 5 --max-time 0.2 --quiet --no-ceilings --json - 2>/dev/null)
    if ! python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["results"][0]["status"] == "ok"' <<<"$json"; then
        echo "FAIL: bench --json - did not print a clean JSON report"; fails=$((fails + 1))
    fi
fi

echo "test_cli: $checks checks, $fails failed"
[ "$fails" = 0 ]
