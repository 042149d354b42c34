"""Reads the sample report test_cpu_report wrote and checks it is JSON with the fields and values the report
promises: 11 rows (reduce: 5 ok on one size, 1 refused, 1 wrong, 1 on another size; affine: 4 ok), the
workloads' registry entries, shapes, options and the roofline."""
import json
import sys

with open(sys.argv[1]) as f:
    r = json.load(f)
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


for key in ("tool", "format", "command", "version", "git_commit", "git_dirty", "cuda_archs", "date", "seed", "timing",
            "sweep", "device",
            "workloads", "results", "notes"):
    expect(key in r, "top-level key " + key)
expect(r["format"] == 3, "format 3")
expect(isinstance(r["cuda_archs"], str) and r["cuda_archs"] != "", "cuda_archs names the build's architectures")
expect(r["seed"] == 1234, "seed")
expect(len(r["notes"]) == 20, "20 notes")
m = r["device"]["measured"]
expect(m["read_gbs"] == 3000 and m["sfu_gops"] == 1000 and abs(m["write_gbs"] - 2625) < 1e-6, "measured ceilings")
nv = r["device"]["nvml"]
expect(nv["sm_clock_mhz"] == 1755 and nv["power_w"] == 512.5 and nv["clock_event_reasons"] == 0x10024
       and nv["clock_event_reasons_named"].startswith("software power cap"), "NVML's clocks, power and reasons")
ws = {w["name"]: w for w in r["workloads"]}
expect(set(ws) == {"reduce", "affine"}, "workloads " + str(sorted(ws)))
red, aff = ws.get("reduce", {}), ws.get("affine", {})
expect(red.get("dims") == ["n"] and aff.get("dims") == ["rows", "cols"], "dims")
expect(aff.get("types") == ["u8", "u32", "f32", "f64"], "affine types")
expect([o["name"] for o in aff.get("options", [])] == ["alpha", "beta", "pad", "op", "dist", "input"], "options")
expect(red.get("published", {}).get("gpu") == "G80" and red["published"]["shape"] == [4194304], "published case")
expect(r["sweep"] is None and red.get("sweeps") == [], "no sweep run, reduce declares none")
kinds = [x["kind"] for x in red.get("rungs", [])]
expect(kinds.count("best") == 1 and kinds[0] == "vendor", "rung kinds " + str(kinds))
expect(sum(1 for x in red.get("rungs", []) if x["published_us"]) == 7, "published figures")
rows = r["results"]
expect(len(rows) == 11, "11 rows")
best = [x for x in rows if x["workload"] == "reduce" and x["kind"] == "best" and x["shape"] == [4194304]][0]
expect(abs(best["gbs"] - 2097.1525) < 1e-3, "best GB/s")
expect(abs(best["vs_vendor"] - 1.25) < 1e-9, "best vs vendor")
expect(best["step_speedup"] is None, "step without the rung before")
expect(best["bound"] == "memory" and 69 < best["pct_roofline"] < 70, "roofline of the best")
expect(best["bytes_read"] == 16777216 and best["bytes_written"] == 4, "counts")
sfu = [x for x in rows if x["workload"] == "affine" and x["type"] == "f32" and x["options"]["pad"] == 0][0]
expect(sfu["bound"] == "sfu" and sfu["shape"] == [1000, 1000] and sfu["shape_label"] == "1000x1000", "affine sfu row")
expect(sfu["options"] == {"alpha": 1.5, "beta": 7, "pad": 0, "op": "rsqrt", "dist": "uniform", "input": None},
       "typed options " + str(sfu["options"]))
own = [x for x in rows if x["counts"] == "rung"]
wall = [x for x in rows if x["clock"] == "wall"]
expect(len(own) == 1 and own[0]["rung"] == "affine_cub_transform", "one row with the rung's own counts")
expect(len(wall) == 1 and wall[0]["type"] == "f64" and wall[0]["kind"] == "best", "one row timed by the wall clock")
expect(all(x["host_part"] is False for x in red.get("rungs", [])), "host_part in the registry entry")
expect(all(x["device_launches"] is False for x in red.get("rungs", [])), "device_launches in the registry entry")
statuses = sorted(x["status"] for x in rows)
expect(statuses == ["WRONG"] + ["ok"] * 9 + ["refused"], "statuses " + str(statuses))
for x in rows:
    for key in ("workload", "rung", "ordinal", "kind", "vendor", "type", "shape", "shape_label", "options", "input",
                "reference", "median_us", "min_us", "noise_pct", "bytes_read", "bytes_written", "flops", "items",
                "special_ops", "clock", "counts", "gbs", "gflops", "items_rate", "special_rate", "roofline_us", "bound", "pct_roofline",
                "cumulative_speedup", "vs_vendor", "vs_bound", "setup_ms", "setup_bytes", "note"):
        expect(key in x, "row key " + key)
if failures:
    print("FAILED: " + "; ".join(failures))
    sys.exit(1)
print("report JSON: 11 rows, all fields present")
