"""Reads the sample report test_cpu_report wrote and checks it is JSON with the fields and values the
report promises (the C test built 7 rows: 4 ok on one size, 1 refused, 1 wrong, 1 on another size)."""
import json
import sys

with open(sys.argv[1]) as f:
    r = json.load(f)
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


for key in ("tool", "command", "version", "git_commit", "git_dirty", "date", "seed", "timing", "device", "results"):
    expect(key in r, "top-level key " + key)
expect(r["seed"] == 1234, "seed")
expect(r["device"]["measured"]["read_gbs"] == 3000, "measured read ceiling")
rows = r["results"]
expect(len(rows) == 7, "7 rows")
best = [x for x in rows if x["rung"] == "reduce_vectorized_single_pass" and x["size"] == 4194304][0]
expect(abs(best["gbs"] - 2097.152) < 1e-3, "best GB/s")
expect(abs(best["vs_vendor"] - 1.25) < 1e-9, "best vs vendor")
expect(best["step_speedup"] is None, "step without rung 8")
expect(best["bytes_counted"].startswith("bytes read"), "bytes counted note")
statuses = sorted(x["status"] for x in rows)
expect(statuses == ["WRONG", "ok", "ok", "ok", "ok", "ok", "refused"], "statuses " + str(statuses))
for x in rows:
    for key in ("workload", "rung", "ordinal", "vendor", "type", "size", "median_us", "min_us", "noise_pct",
                "gbs", "pct_ceiling", "pct_peak", "cumulative_speedup", "vs_vendor", "ceiling", "note"):
        expect(key in x, "row key " + key)
if failures:
    print("FAILED: " + "; ".join(failures))
    sys.exit(1)
print("report JSON: 7 rows, all fields present")
