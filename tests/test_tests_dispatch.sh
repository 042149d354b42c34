#!/usr/bin/env bash
# The one test program's dispatch (tests/tests_main.c): a name it does not hold fails with exit code 2 and says
# so, no name at all is a usage error (2), and --list names the tests, one that takes arguments among them.
set -uo pipefail
prog=$1
out=$("$prog" no_such_test 2>&1); rc=$?
echo "$out"
[ "$rc" = 2 ] && [[ $out == *"no test named 'no_such_test'"* ]] || { echo "FAIL: unknown name: exit $rc"; exit 1; }
"$prog" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || { echo "FAIL: no name: exit $rc"; exit 1; }
list=$("$prog" --list) || { echo "FAIL: --list"; exit 1; }
for t in test_cpu_core test_gpu_graphs test_gpu_primitives; do
    grep -qx "$t" <<<"$list" || { echo "FAIL: --list lacks $t"; exit 1; }
done
echo "passed: $(wc -l <<<"$list") tests listed"
