#!/usr/bin/env bash
# GPU, two GPUs or more: climb bench and check as one process a GPU under mpirun, for every workload that runs so.
# Each ladder's quick sizes and the check sizes 0, 1, 3 and 65537 run on a process for each GPU of the machine;
# every rung's output is checked on each process's GPU (a wrong one on any fails the run), rank 0 writes the report,
# and every row of it is right (or refused, with a reason); climb check --quick finds every run right. Then a fault:
# ranks given a GPU another rank has are refused, on every process.
# Skips (77) where this climb has no MPI, mpirun is absent, or there are fewer than two GPUs.
set -u
climb=$1
"$climb" version | grep -q "MPI built in" || { echo "climb built without MPI: skipped"; exit 77; }
command -v mpirun >/dev/null || { echo "no mpirun: skipped"; exit 77; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU ")
[ "${gpus:-0}" -ge 2 ] || { echo "fewer than two GPUs: skipped"; exit 77; }
export NCCL_NVLS_ENABLE=0
np=$gpus
run() { mpirun --allow-run-as-root --oversubscribe -np "$np" "$climb" "$@"; }
fails=0
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in $("$climb" list | awk '{print $1}'); do
    "$climb" list "$w" 2>/dev/null | grep -q "one process a GPU" || continue
    for sizes in "--quick" "--size 0 --size 1 --size 3 --size 65537"; do
        # shellcheck disable=SC2086 # the sizes are two words on purpose
        if ! run bench "$w" $sizes --min-samples 3 --max-time 0.05 --json "$tmp/$w.json" >"$tmp/$w.log" 2>&1; then
            echo "FAIL: mpirun -np $np climb bench $w $sizes"; grep -E "FAIL|climb:" "$tmp/$w.log" | head -20; fails=$((fails + 1)); continue
        fi
        python3 - "$tmp/$w.json" "$w" "$np" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["results"] if r["workload"] == sys.argv[2]]
bad = [r for r in rows if r["status"] not in ("ok", "refused") or (r["status"] == "refused" and not r["note"])]
notes = " ".join(d["notes"])
np = int(sys.argv[3])
ok = rows and not bad and ("one process a GPU: %d processes" % np) in notes and len(d["device_set"]["devices"]) == np
ok = ok and any(r["status"] == "ok" and r["kind"] == "vendor" for r in rows)
print(("" if ok else "FAIL: ") + "%s: %d rows, %d not right, %d ok" % (sys.argv[2], len(rows), len(bad),
      sum(r["status"] == "ok" for r in rows)))
for r in bad[:5]:
    print("  ", r["rung"], r["status"], r["note"])
sys.exit(0 if ok else 1)
PY
    done
    # climb check as one process a GPU: the quick sizes, every rung twice, the verdicts combined
    if ! run check "$w" --quick >"$tmp/$w-check.log" 2>&1 || ! grep -q "all runs right" "$tmp/$w-check.log"; then
        echo "FAIL: mpirun -np $np climb check $w --quick"; grep -E "FAIL|climb:" "$tmp/$w-check.log" | head -20
        fails=$((fails + 1))
    fi
    n=$((n + 1))
done
[ "${n:-0}" -ge 3 ] || { echo "FAIL: ${n:-0} workloads run as one process a GPU (allreduce, allgather, reducescatter)"; fails=$((fails + 1)); }
# two ranks on one GPU: refused on every process, nothing run
dup=0; for ((k = 1; k < np; k++)); do dup="$dup,0"; done
out=$(run bench allreduce --quick --devices "$dup" 2>&1); rc=$?
if [ "$rc" = 0 ] || ! grep -q "listed twice\|both drive GPU 0" <<<"$out"; then
    echo "FAIL: two ranks on GPU 0: exit $rc"; echo "$out" | head -5; fails=$((fails + 1))
fi
echo "test_gpu_mpi: $fails failed"
[ "$fails" = 0 ]
