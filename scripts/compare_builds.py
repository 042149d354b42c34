#!/usr/bin/env python3
"""Before and after, in one run: the vendor and best rungs of each workload timed by two builds of climb, taken in
turns (A, B, A, B, ...) on the same GPU, so that a refactoring can show the figures did not move.

    scripts/compare_builds.py --before OLD/climb --after NEW/climb [--label-before X --label-after Y]
                              [--workloads reduce,scan,...] [--repeat 2] [--out FILE.md] [--json-dir DIR]

Each build is asked for its own rung names (`climb list W`) and times the same cases (`climb bench W --rung V
--rung B`, the workload's default bench cases, cold L2, --no-wisdom: the built-in defaults on both sides). The
table gives each median (µs) of every turn and the after/before ratio of the medians of the turns; the spread of
one build's turns says how much is noise. Exit 1 when a bench fails. With --json-dir, a turn whose report is already
there is read rather than run again (a run that was cut short goes on where it stopped), and --out is rewritten
after each workload."""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def listing(climb, w):
    out = subprocess.run([climb, "list", w], capture_output=True, text=True, check=True).stdout
    kinds = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 3 and f[0].isdigit() and f[2] in ("vendor", "best", "ladder", "bound"):
            kinds.setdefault(f[2], []).append(f[1])
    return kinds


def bench(climb, w, rungs, path):
    if os.path.exists(path) and os.path.getsize(path) > 0:  # a turn an earlier, interrupted run finished (--json-dir)
        with open(path) as f:
            return json.load(f)
    cmd = [climb, "bench", w, "--quiet", "--no-wisdom", "--max-time", "0.5", "--json", path]
    for r in rungs:
        cmd += ["--rung", r]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-2000:] + p.stderr[-2000:])
        return None
    with open(path) as f:
        return json.load(f)


def key(row):
    return (row["type"], row["shape_label"], json.dumps(row.get("options", {}), sort_keys=True), row["kind"])


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--label-before", default="before")
    ap.add_argument("--label-after", default="after")
    ap.add_argument("--workloads", default="")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--out", default="-")
    ap.add_argument("--json-dir", default="")
    a = ap.parse_args()
    names = subprocess.run([a.after, "list", "--names"], capture_output=True, text=True, check=True).stdout.split()
    workloads = [w for w in a.workloads.split(",") if w] or names
    jdir = a.json_dir or tempfile.mkdtemp()
    os.makedirs(jdir, exist_ok=True)
    head = lambda: ["# %s against %s, in turns" % (a.label_after, a.label_before), "",
            "On %s: each build's vendor and best rungs over the workload's default bench cases, cold L2, built-in "
            "defaults (--no-wisdom), at most 0.5 s of samples a measurement, %d turns each, alternating. Written by scripts/compare_builds.py." % (
                device or "the GPU", a.repeat), ""]
    lines = ["| workload | case | rung | %s µs (each turn) | %s µs (each turn) | %s / %s |" % (
        a.label_before, a.label_after, a.label_after, a.label_before), "|---|---|---|---|---|--:|"]
    failed = 0
    device = ""
    for w in workloads:
        sides = {}
        for side, climb in (("before", a.before), ("after", a.after)):
            k = listing(climb, w)
            sides[side] = (k.get("vendor", [])[:1] + k.get("best", [])[:1])
        times = {"before": {}, "after": {}}
        rung_of = {}
        for t in range(a.repeat):
            for side, climb in (("before", a.before), ("after", a.after)):
                rep = bench(climb, w, sides[side], os.path.join(jdir, "%s-%s-%d.json" % (w, side, t)))
                if rep is None:
                    failed += 1
                    continue
                device = rep["device"]["name"]
                for row in rep["results"]:
                    if row["status"] != "ok":
                        continue
                    times[side].setdefault(key(row), []).append(row["median_us"])
                    rung_of[(side, key(row))] = row["rung"]
        for k in sorted(set(times["before"]) | set(times["after"])):
            b, f = times["before"].get(k, []), times["after"].get(k, [])
            mb, mf = median(b), median(f)
            ratio = "%.3f" % (mf / mb) if mb and mf else "-"
            rung = rung_of.get(("after", k), rung_of.get(("before", k), "?"))
            opts = json.loads(k[2])
            case = "%s %s%s" % (k[0], k[1], "".join(" %s=%s" % (n, v) for n, v in opts.items() if v is not None))
            lines.append("| %s | %s | %s (%s) | %s | %s | %s |" % (
                w, case, rung, k[3], " / ".join("%.2f" % x for x in b), " / ".join("%.2f" % x for x in f), ratio))
        if a.out != "-":  # the table so far, after each workload: a run cut short keeps what it measured
            with open(a.out, "w") as f:
                f.write("\n".join(head() + lines) + "\n")
    text = "\n".join(head() + lines) + "\n"
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w") as f:
            f.write(text)
        sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
