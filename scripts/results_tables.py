#!/usr/bin/env python3
"""Rewrites the results tables in README.md and docs/ from the reports under results/<gpu>/<workload>/.

Each table sits between '<!-- results:NAME:begin -->' and '<!-- results:NAME:end -->':
  README.md               results:summary   every workload, every GPU: each rung's time, rate and ratio to the vendor
  docs/<workload>.md      results:ladder    the ladder on the case the seeds published figures for (their figures
                                            beside), and the largest case of that type
  docs/tuning.md          results:tuning    what `climb tune` chose, from every tune.json
Nothing here knows a workload: each report carries its workloads' registry entries (dims, options, rungs and their
kinds, the published case), and the tables are keyed on type, shape and option values. Reports of the first format
(before contract v2: a "size" per row, no registry entries) are not read.
Usage: scripts/results_tables.py [--check]   (--check: exit 1 if a file would change)
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(root, name):
    """{(gpu, workload): report} for every results/<gpu>/<workload>/<name> of format 2."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "results", "*", "*", name))):
        with open(path) as f:
            r = json.load(f)
        if r.get("format") != 2:
            continue
        parts = path.split(os.sep)
        out[(parts[-3], parts[-2])] = r
    return out


def cuda_version(v):
    return "%d.%d" % (v // 1000, (v % 1000) // 10)


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def ratio(x):
    return "-" if x is None else "%.2f×" % x


def registry(r, workload):
    return next(w for w in r["workloads"] if w["name"] == workload)


def header(gpu, workload, r, what="bench.json"):
    d = r["device"]
    m = d.get("measured")
    ceilings = (" Measured ceilings: read %s GB/s, copy %s GB/s, FFMA %s GFLOP/s." % (
        fmt(m.get("read_gbs"), ".0f"), fmt(m.get("copy_gbs"), ".0f"), fmt(m.get("ffma_gflops"), ".0f")) if m else "")
    return ("*%s* (`results/%s/%s/%s`): CC %s, driver %s, CUDA runtime %s, climb %s at commit `%s`, %s, %s timing.%s" % (
        d["name"], gpu, workload, what, d["compute_capability"], cuda_version(d["driver_version"]),
        cuda_version(d["runtime_version"]), r["version"], r["git_commit"][:12], r["date"][:10], r["timing"], ceilings))


def opts_key(x):
    return json.dumps(x.get("options", {}), sort_keys=True)


def case_of(x):
    return (x["type"], tuple(x["shape"]), opts_key(x), x.get("input", ""))


def cases(rows):
    seen = []
    for x in rows:
        if case_of(x) not in seen:
            seen.append(case_of(x))
    return seen


def case_label(reg, case, varying):
    """'i32 n=2^22', 'f32 rows,cols=1000x1000 pad=3' (only the options that differ between the report's cases)."""
    t, shape, ok, inp = case
    dims = ",".join(reg["dims"])
    opts = json.loads(ok)
    extra = "".join(" %s=%s" % (k, opts[k]) for k in reg_option_names(reg) if k in varying and opts.get(k) is not None)
    return "%s %s=%s%s" % (t, dims, shape_label(shape), extra)


def reg_option_names(reg):
    return [o["name"] for o in reg["options"]]


def shape_label(shape):
    if len(shape) == 1:
        n = shape[0]
        return "2^%d" % (n.bit_length() - 1) if n >= 2 and n & (n - 1) == 0 else str(n)
    return "x".join(str(s) for s in shape)


def varying_options(rows):
    vals = {}
    for x in rows:
        for k, v in x.get("options", {}).items():
            vals.setdefault(k, set()).add(json.dumps(v))
    return {k for k, v in vals.items() if len(v) > 1}


def rate_of(x):
    """The rate that matters for the row's binding term: GFLOP/s when arithmetic binds, else GB/s."""
    if x.get("bound") in ("ffma", "dfma") and x.get("gflops") is not None:
        return "%s GFLOP/s" % fmt(x["gflops"], ".0f")
    if x.get("bound") == "sfu" and x.get("special_rate") is not None:
        return "%s Gsfu/s" % fmt(x["special_rate"], ".0f")
    return "%s GB/s" % fmt(x.get("gbs"), ".0f")


def rungs_in_order(rows):
    return sorted({(x["ordinal"], x["rung"], x["kind"]) for x in rows})


def name_cell(name, kind):
    return "`%s`%s" % (name, "" if kind == "ladder" else " (%s)" % kind)


def summary_table(gpu, workload, r):
    """Rows = rungs; one column per case: time, the binding rate, ratio to the vendor."""
    rows = [x for x in r["results"] if x["workload"] == workload]
    reg = registry(r, workload)
    cs = cases(rows)
    varying = varying_options(rows)
    vendor = next((x["rung"] for x in rows if x["kind"] == "vendor"), None)
    out = [header(gpu, workload, r), "",
           "Each cell: median time, the rate of the roofline term that binds, and the vendor's time over this rung's%s."
           % (" (vendor: `%s`)" % vendor if vendor else ""), "",
           "| # | rung | " + " | ".join(case_label(reg, c, varying) for c in cs) + " |",
           "|--:|---|" + "--:|" * len(cs)]
    for o, name, kind in rungs_in_order(rows):
        cells = []
        for c in cs:
            x = next((x for x in rows if x["rung"] == name and case_of(x) == c), None)
            if x is None:
                cells.append("")
            elif x["status"] != "ok":
                cells.append(x["status"])
            else:
                cells.append("%s µs, %s, %s" % (fmt(x["median_us"], ".2f"), rate_of(x), ratio(x["vs_vendor"])))
        out.append("| %d | %s | %s |" % (o, name_cell(name, kind), " | ".join(cells)))
    return "\n".join(out)


def ladder_table(gpu, workload, r):
    """The ladder on the published case (the seed's figures beside), and the largest case of the same type and
    options; without a published case, on the first case and the largest."""
    rows = [x for x in r["results"] if x["workload"] == workload]
    reg = registry(r, workload)
    pub = reg.get("published")
    cs = cases(rows)
    main = next((c for c in cs if pub and c[0] == pub["type"] and list(c[1]) == pub["shape"]), cs[0] if cs else None)
    if main is None:
        return header(gpu, workload, r) + "\n\nNo rows."
    same = [c for c in cs if c[0] == main[0] and c[2] == main[2]]
    big = max(same, key=lambda c: (eval_size(c[1]), c != main))
    if big == main:
        big = None
    varying = varying_options(rows)
    gpu_short = r["device"]["name"].replace("NVIDIA ", "")
    head = ["#", "rung"]
    if pub:
        head += ["%s µs" % pub["gpu"], "%s %s" % (pub["gpu"], pub["rate_unit"]), "%s step" % pub["gpu"],
                 "%s cumul." % pub["gpu"]]
    head += ["%s µs" % gpu_short, "rate", "step", "cumul.", "× vendor", "% of roofline"]
    if big:
        head += ["%s: rate" % case_label(reg, big, varying), "% of roofline", "× vendor"]
    out = [header(gpu, workload, r), ""]
    if pub:
        out += ["Seed figures: %s, on a %s, %s." % (pub["source"], pub["gpu"], case_label(reg, main, varying)), ""]
    out += ["Case: %s%s." % (case_label(reg, main, varying), "; then %s" % case_label(reg, big, varying) if big else ""), "",
            "| " + " | ".join(head) + " |", "|--:|---|" + "--:|" * (len(head) - 2)]
    published = {x["name"]: (x.get("published_us"), x.get("published_rate")) for x in reg["rungs"]}
    # The seed's steps compare times; where it gave only rates for some rungs, all compare rates (same bytes).
    by_rate = any(rate and not us for us, rate in published.values())
    prev = first = None
    for o, name, kind in rungs_in_order(rows):
        x = next((x for x in rows if x["rung"] == name and case_of(x) == main), None)
        cells = [str(o), name_cell(name, kind)]
        if pub:
            us, rate = published.get(name, (None, None))
            # What the step and cumulative columns compare: the seed's time, or its rate's inverse. A vendor or
            # bound rung is shown but outside the chain.
            cost = (1.0 / rate if rate else None) if by_rate else us
            if cost and kind in ("vendor", "bound"):
                cells += [fmt(us, ".0f") if us else "", fmt(rate, "g") if rate else "", "-", "-"]
            elif cost:
                step = "%.2f×" % (prev / cost) if prev else "-"
                first = first or cost
                cells += [fmt(us, ".0f") if us else "", fmt(rate, "g") if rate else "", step, "%.2f×" % (first / cost)]
                prev = cost
            else:
                cells += ["", "", "", ""]
        if x is None or x["status"] != "ok":
            cells += [x["status"] if x else "", "", "", "", "", ""]
        else:
            cells += [fmt(x["median_us"], ".2f"), rate_of(x), ratio(x["step_speedup"]), ratio(x["cumulative_speedup"]),
                      ratio(x["vs_vendor"]), fmt(x["pct_roofline"], ".1f")]
        if big:
            b = next((y for y in rows if y["rung"] == name and case_of(y) == big), None)
            if b is None or b["status"] != "ok":
                cells += [b["status"] if b else "", "", ""]
            else:
                cells += [rate_of(b), fmt(b["pct_roofline"], ".1f"), ratio(b["vs_vendor"])]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def eval_size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def tuning_table(gpu, workload, t):
    """From results/<gpu>/<workload>/tune.json: the defaults, the fastest and the winner, each case's time."""
    out = [header(gpu, workload, t, "tune.json"), ""]
    for w in t["tuning"]:
        cands = [c for c in w["candidates"] if c["status"] == "ok"]
        skipped = sum(1 for c in w["candidates"] if c["status"] == "skipped")
        names = [p["name"] for p in w["params"]]

        def desc(v):
            return " ".join("%s=%d" % (k, v[k]) for k in names)

        def find(v):
            return next(c for c in w["candidates"] if c["values"] == v)

        out.append("`%s` (`%s`): %d candidates timed (%s), %d skipped on this GPU; the fastest ran at %s the defaults' "
                   "speed, the saved winner at %s (%s)." % (
                       w["workload"], w["rung"], len(cands), w["candidate_list"], skipped,
                       fmt(w["fastest_speedup_vs_defaults"], ".3f") + "×", fmt(w["speedup_vs_defaults"], ".3f") + "×",
                       w["tie_rule"]))
        out.append("")
        out.append("| | parameters | score | " + " | ".join(
            "%s %s µs" % (c["type"], c["shape_label"]) for c in w["cases"]) + " |")
        out.append("|---|---|--:|" + "--:|" * len(w["cases"]))
        rows = [("fastest", w["fastest"])]
        if w["winner"] is not None and w["winner"] != w["fastest"]:
            rows.append(("winner", w["winner"]))
        if w["defaults"] is not None and w["defaults"] not in (w["winner"], w["fastest"]):
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
        if w["defaults"] is None:
            per = w["defaults_per_case"]
            times = []
            for i, v in enumerate(per):
                times.append(fmt(find(v)["median_us"][i], ".2f") if v is not None else "-")
            out.append("| defaults (per case) | each case's own | %s | %s |" % (fmt(w["defaults_score"], ".3f"),
                                                                            " | ".join(times)))
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


def blocks(root):
    """{relative file: {marker: body}} for every table this script writes."""
    bench = load(root, "bench.json")
    tunes = load(root, "tune.json")
    workloads = sorted({w for _, w in bench} | {w for _, w in tunes})
    parts = []
    files = {}
    for wl in workloads:
        runs = sorted(k for k in bench if k[1] == wl)
        if not runs:
            continue
        title = registry(bench[runs[0]], wl)["title"]
        parts.append("### %s: %s ([docs/%s.md](docs/%s.md))\n\n%s" % (
            wl, title, wl, wl, "\n\n".join(summary_table(g, wl, bench[(g, w)]) for g, w in runs)))
        files["docs/%s.md" % wl] = {"ladder": "\n\n".join(ladder_table(g, wl, bench[(g, w)]) for g, w in runs)}
    files["README.md"] = {"summary": "\n\n".join(parts) if parts else "No results committed yet."}
    tune_parts = [tuning_table(g, w, tunes[(g, w)]) for g, w in sorted(tunes)]
    files["docs/tuning.md"] = {"tuning": "\n\n".join(tune_parts) if tune_parts else "No tuning results committed yet."}
    return files


def main():
    check = "--check" in sys.argv
    changed = False
    for rel, bl in sorted(blocks(ROOT).items()):
        path = os.path.join(ROOT, rel)
        if not os.path.exists(path):
            print("missing %s (a workload with results needs its docs page, with a results:ladder block)" % rel)
            changed = True
            continue
        with open(path) as f:
            old = f.read()
        new = old
        for name, body in bl.items():
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
