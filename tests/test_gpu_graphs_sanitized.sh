#!/usr/bin/env bash
# The capture part of test_gpu_graphs under compute-sanitizer's memcheck, with every CUDA API error reported: it
# must pass, report no memory error, and meet no API error at all (a cudaErrorStreamCapture* would mean a call
# did something a capture forbids). Skipped (77) without a GPU or without compute-sanitizer.
# Usage: test_gpu_graphs_sanitized.sh COMMAND... (the test, e.g. climb-tests test_gpu_graphs).
set -uo pipefail
test_cmd=("$@")
"${test_cmd[@]}" --probe >/dev/null 2>&1
[ $? = 77 ] && { echo "SKIP: no CUDA device"; exit 77; }
sanitizer=$(command -v compute-sanitizer || true)
[ -z "$sanitizer" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && sanitizer=/usr/local/cuda/bin/compute-sanitizer
[ -z "$sanitizer" ] && { echo "SKIP: compute-sanitizer not found"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$sanitizer" --tool memcheck --report-api-errors all --error-exitcode 9 "${test_cmd[@]}" capture >"$log" 2>&1
rc=$?
tail -n 20 "$log"
api=$(grep -c "Program hit cuda" "$log")
capture=$(grep -c "cudaErrorStreamCapture" "$log")
echo "compute-sanitizer exit $rc; CUDA API errors reported: $api (of them cudaErrorStreamCapture*: $capture)"
grep -q "ERROR SUMMARY: 0 errors" "$log" || { echo "FAIL: memcheck reported errors"; exit 1; }
[ "$rc" = 0 ] && [ "$api" = 0 ] && [ "$capture" = 0 ] || exit 1
echo "passed"
