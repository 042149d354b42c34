#!/usr/bin/env bash
# GPU: climb bench with an option that stands for an environment variable (streams' connections,
# CUDA_DEVICE_MAX_CONNECTIONS) at a value this process does not have: that value's cases run in a climb process of
# their own, and the one report holds every row. With the variable unset, connections=0 runs here and 2 and 4 in
# children: the JSON report has every case of every value, each row right, and each child's case line names the
# variable at its value (the child really had it); the markdown report lists them; check refuses the value it
# cannot give. Skipped (77) without a GPU.
set -u
climb=$1
nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
"$climb" devices --no-measure 2>/dev/null | grep -q '^device 0:' || { echo "no CUDA GPU: skipped"; exit 77; }
unset CUDA_DEVICE_MAX_CONNECTIONS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
if ! "$climb" bench streams --size 3 --size 5 --set iters=2000 --set connections=0,2,4 --min-samples 3 --max-time 0.05 \
    --json "$tmp/r.json" --md "$tmp/r.md" >"$tmp/log" 2>&1; then
    echo "FAIL: climb bench exited non-zero"; tail -20 "$tmp/log"; fails=1
fi
python3 - "$tmp/r.json" "$("$climb" list streams | awk '$1 ~ /^[0-9]+$/' | wc -l)" <<'PY' || fails=1
import json, sys
d = json.load(open(sys.argv[1]))
rungs = int(sys.argv[2])
rows = [r for r in d["results"] if r["workload"] == "streams"]
bad = []
for conn in (0, 2, 4):
    for k in (3, 5):
        mine = [r for r in rows if r["options"]["connections"] == conn and r["shape"] == [k]]
        if len(mine) != rungs:
            bad.append("connections=%d k=%d: %d rows, expected %d" % (conn, k, len(mine), rungs))
        for r in mine:
            if r["status"] not in ("ok", "refused"):
                bad.append("connections=%d k=%d %s: %s %s" % (conn, k, r["rung"], r["status"], r["note"]))
            want = "CUDA_DEVICE_MAX_CONNECTIONS %s" % (conn if conn else "unset")
            if want not in r["input"]:
                bad.append("connections=%d k=%d: the case line says '%s', not '%s'" % (conn, k, r["input"], want))
print("\n".join(bad) if bad else "%d rows: every case of connections 0, 2 and 4 right, each in its process" % len(rows))
sys.exit(1 if bad else 0)
PY
grep -q 'connections=4' "$tmp/r.md" && grep -q 'connections=0' "$tmp/r.md" ||
    { echo "FAIL: the markdown report lacks a value's cases"; fails=1; }
"$climb" check streams --size 3 --set connections=2 >"$tmp/check" 2>&1
grep -q 'needs CUDA_DEVICE_MAX_CONNECTIONS=2' "$tmp/check" ||
    { echo "FAIL: climb check did not refuse connections=2, naming the variable"; head -5 "$tmp/check"; fails=1; }
[ $fails = 0 ] && echo "passed"
exit $fails
