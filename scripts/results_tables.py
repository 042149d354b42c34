#!/usr/bin/env python3
"""Rewrites the results tables in README.md and docs/<workload>.md from the reports under results/.

Each table sits between '<!-- results:NAME:begin -->' and '<!-- results:NAME:end -->' and is generated
from results/<gpu>/bench.json (cold timing) as committed: nothing in these tables is typed by hand.
Usage: scripts/results_tables.py [--check]   (--check: exit 1 if a file would change)
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The text's figures for kernels 1-7 (G80, 2^22 ints): time in ms, GB/s. Seed 000, "Performance for 4M
# element reduction". Used beside the measured ladder in docs/reduce.md.
SEED_REDUCE_G80 = {
    "reduce_interleaved_divergent": (8.054, 2.083),
    "reduce_interleaved_strided": (3.456, 4.854),
    "reduce_seq_addressing": (1.722, 9.741),
    "reduce_first_add_load": (0.965, 17.377),
    "reduce_unroll_last_warp": (0.536, 31.289),
    "reduce_complete_unroll": (0.381, 43.996),
    "reduce_multi_element": (0.268, 62.671),
}


def load_reports():
    reports = []
    for path in sorted(glob.glob(os.path.join(ROOT, "results", "*", "bench.json"))):
        with open(path) as f:
            reports.append((os.path.basename(os.path.dirname(path)), json.load(f)))
    return reports


def cuda_version(v):
    return "%d.%d" % (v // 1000, (v % 1000) // 10)


def ratio(x):
    return "-" if x is None else "%.2fx" % x


def size_label(n):
    if n >= 2 and n & (n - 1) == 0:
        return "2^%d" % (n.bit_length() - 1)
    return str(n)


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def header(gpu, r):
    d = r["device"]
    m = d.get("measured") or {}
    return ("*%s* (`results/%s/`): %s, CC %s, driver %s, CUDA runtime %s, climb %s at commit `%s`, %s. "
            "Cold timing (L2 flushed before every sample), median of many samples. Measured read "
            "ceiling %s GB/s, theoretical %s GB/s." % (
                d["name"], gpu, d["name"], d["compute_capability"], cuda_version(d["driver_version"]),
                cuda_version(d["runtime_version"]), r["version"], r["git_commit"][:12], r["date"][:10],
                fmt(m.get("read_gbs"), ".0f"), fmt(d["theoretical"]["bandwidth_gbs"], ".0f")))


def cases(rows, workload):
    seen = []
    for x in rows:
        if x["workload"] == workload and (x["type"], x["size"]) not in seen:
            seen.append((x["type"], x["size"]))
    return seen


def summary_table(gpu, r, workload):
    """Rows = rungs; one column per (type, size): time and ratio to the vendor, or GB/s for big sizes."""
    rows = [x for x in r["results"] if x["workload"] == workload]
    cs = cases(rows, workload)
    rungs = sorted({(x["ordinal"], x["rung"]) for x in rows})
    vendor = next((name for o, name in rungs if any(x["vendor"] for x in rows if x["rung"] == name)), "vendor")
    out = [header(gpu, r), "",
           "| # | rung | " + " | ".join("%s n=%s" % (t, size_label(n)) for t, n in cs) + " |",
           "|--:|---|" + "--:|" * len(cs)]
    for o, name in rungs:
        cells = []
        for t, n in cs:
            x = next((x for x in rows if x["rung"] == name and x["type"] == t and x["size"] == n), None)
            if x is None:
                cells.append("")
            elif x["status"] != "ok":
                cells.append(x["status"])
            else:
                cells.append("%s µs, %s GB/s, %s× %s" % (fmt(x["median_us"], ".2f"), fmt(x["gbs"], ".0f"),
                                                       fmt(x["vs_vendor"], ".2f"), "CUB" if "cub" in vendor else "vendor"))
        out.append("| %d | `%s` | %s |" % (o, name, " | ".join(cells)))
    return "\n".join(out)


def reduce_ladder_table(gpu, r):
    """The seed's G80 columns beside the measured ones, 2^22 i32 (the text's case), plus 2^28 i32."""
    rows = [x for x in r["results"] if x["workload"] == "reduce" and x["type"] == "i32"]
    small = {x["rung"]: x for x in rows if x["size"] == 1 << 22}
    big = {x["rung"]: x for x in rows if x["size"] == 1 << 28}
    out = [header(gpu, r), "",
           "| # | rung | G80 ms | G80 GB/s | G80 step | G80 cumul. | %s µs | GB/s | step | cumul. | × CUB | 2^28: GB/s | %% of read ceiling | × CUB |"
           % r["device"]["name"].replace("NVIDIA ", ""),
           "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    prev_g80 = first_g80 = None
    for name, x in sorted(small.items(), key=lambda kv: kv[1]["ordinal"]):
        g = SEED_REDUCE_G80.get(name)
        if g:
            step = "%.2fx" % (prev_g80 / g[0]) if prev_g80 else "-"
            first_g80 = first_g80 or g[0]
            cum = "%.2fx" % (first_g80 / g[0])
            prev_g80 = g[0]
            gcols = "%.3f | %.3f | %s | %s" % (g[0], g[1], step, cum)
        else:
            gcols = "  |   |   |  "
        b = big.get(name, {})
        out.append("| %d | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["ordinal"], name, gcols, fmt(x["median_us"], ".2f"), fmt(x["gbs"], ".0f"),
            ratio(x["step_speedup"]), ratio(x["cumulative_speedup"]), ratio(x["vs_vendor"]),
            fmt(b.get("gbs"), ".0f"), fmt(b.get("pct_ceiling"), ".1f"), ratio(b.get("vs_vendor"))))
    return "\n".join(out)


def tuning_table(gpu, t):
    """From results/<gpu>/tune.json: per workload, the defaults and the winner, and each case's time for both."""
    d = t["device"]
    out = ["*%s* (`results/%s/tune.json`): CC %s, driver %s, climb %s at commit `%s`, %s, %s timing." % (
        d["name"], gpu, d["compute_capability"], cuda_version(d["driver_version"]), t["version"],
        t["git_commit"][:12], t["date"][:10], t["timing"]), ""]
    for w in t["tuning"]:
        cands = [c for c in w["candidates"] if c["status"] == "ok"]
        skipped = sum(1 for c in w["candidates"] if c["status"] == "skipped")
        names = [p["name"] for p in w["params"]]

        def desc(v):
            return " ".join("%s=%d" % (k, v[k]) for k in names)

        def find(v):
            return next(c for c in w["candidates"] if c["values"] == v)

        out.append("`%s` (`%s`): %d candidates timed, %d skipped on this GPU; the fastest ran at %s the defaults' "
                   "speed, the saved winner at %s (%s)." % (
                       w["workload"], w["rung"], len(cands), skipped, fmt(w["fastest_speedup_vs_defaults"], ".3f") + "×",
                       fmt(w["speedup_vs_defaults"], ".3f") + "×", w["tie_rule"]))
        out.append("")
        out.append("| | parameters | score | " + " | ".join(
            "%s n=%s µs" % (c["type"], size_label(c["size"])) for c in w["cases"]) + " |")
        out.append("|---|---|--:|" + "--:|" * len(w["cases"]))
        rows = [("fastest", w["fastest"])]
        if w["winner"] != w["fastest"]:
            rows.append(("winner", w["winner"]))
        if w["defaults"] not in (w["winner"], w["fastest"]):
            rows.append(("defaults", w["defaults"]))
        for label, v in rows:
            if v is None:
                continue
            c = find(v)
            if v == w["defaults"] and label != "defaults":
                label += ", defaults"
            if v == w["winner"] and label == "fastest":
                label += ", winner"
            out.append("| %s | `%s` | %s | %s |" % (label, desc(v), fmt(c["score"], ".3f"),
                                                   " | ".join(fmt(x, ".2f") for x in c["median_us"])))
        worst = max(cands, key=lambda c: c["score"]) if cands else None
        if worst:
            out.append("| slowest | `%s` | %s | %s |" % (desc(worst["values"]), fmt(worst["score"], ".3f"),
                                                         " | ".join(fmt(x, ".2f") for x in worst["median_us"])))
        out.append("")
    return "\n".join(out).rstrip()


def replace_block(text, name, body):
    pat = re.compile(r"(<!-- results:%s:begin -->\n).*?(<!-- results:%s:end -->)" % (name, name), re.S)
    if not pat.search(text):
        raise SystemExit("marker results:%s not found" % name)
    return pat.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)


def main():
    check = "--check" in sys.argv
    reports = load_reports()
    if not reports:
        body = "No results committed yet."
        readme_body, ladder_body = body, body
    else:
        readme_body = "\n\n".join(summary_table(g, r, "reduce") for g, r in reports)
        ladder_body = "\n\n".join(reduce_ladder_table(g, r) for g, r in reports)
    tunes = []
    for path in sorted(glob.glob(os.path.join(ROOT, "results", "*", "tune.json"))):
        with open(path) as f:
            tunes.append((os.path.basename(os.path.dirname(path)), json.load(f)))
    tuning_body = "\n\n".join(tuning_table(g, t) for g, t in tunes) if tunes else "No tuning results committed yet."
    changed = False
    for rel, blocks in (("README.md", {"reduce": readme_body}), ("docs/reduce.md", {"reduce-ladder": ladder_body}),
                        ("docs/tuning.md", {"tuning": tuning_body})):
        path = os.path.join(ROOT, rel)
        with open(path) as f:
            old = f.read()
        new = old
        for name, body in blocks.items():
            new = replace_block(new, name, body)
        if new != old:
            changed = True
            if not check:
                with open(path, "w") as f:
                    f.write(new)
            print(("would update " if check else "updated ") + rel)
    sys.exit(1 if check and changed else 0)


if __name__ == "__main__":
    main()
