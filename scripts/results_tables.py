#!/usr/bin/env python3
"""Rewrites the results tables in README.md and docs/ from the reports under results/<gpu>/<workload>/.

Each table sits between '<!-- results:NAME:begin -->' and '<!-- results:NAME:end -->':
  README.md               results:overview  every workload, every GPU: the best rung against vendor, bound, roofline
  docs/results.md         results:summary   every workload, every GPU: each rung's time, rate and ratio to the vendor
  docs/<workload>.md      results:ladder    the ladder on the case the texts published figures for (their figures
                                            beside), and the largest case of that type
  docs/tuning.md          results:tuning    what `climb tune` chose, from every tune.json
  docs/<workload>.md      results:scaling   a workload measured at several GPU counts of one GPU (results/<gpu>x<N>/):
                                            the best rung's time at each count, its speed-up over one GPU and the
                                            parallel efficiency, strong (bench.json) and weak (bench-weak.json)
and has `climb plot` draw every sweep a workload declares (its registry entry's "sweeps") as
docs/img/<workload>-<sweep>-<gpu>.svg,
and for a sweep over input files the best rung's ratio to the vendor case by case, beside the bench's generated
cases, as docs/img/<workload>-<sweep>-vs-vendor-<gpu>.svg:
the rate against the sweep's x (a dim or an option), one line per rung and per value of whatever else varies, from
results/<gpu>/<workload>/sweep-<sweep>.json (or bench.json for a sweep without arguments of its own).
Nothing here knows a workload: each report carries its workloads' registry entries (dims, options, rungs and their
kinds, the published case), and the tables are keyed on type, shape and option values. Reports of the first format
(before contract v2: a "size" per row, no registry entries) are not read.
Usage: scripts/results_tables.py [--check]   (--check: exit 1 if a file would change)
The plots need a built climb: $CLIMB_BIN, else build/climb.
"""
import argparse
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


_RENAMED = None


def renamed():
    """{(workload, old rung name): today's name}: each rung's `.formerly` in the registry tables under
    src/workloads/, paired with the `.name` before it and the file's workload."""
    global _RENAMED
    if _RENAMED is None:
        _RENAMED = {}
        for path in glob.glob(os.path.join(ROOT, "src", "workloads", "**", "*.cu"), recursive=True):
            with open(path) as f:
                text = f.read()
            wl = re.search(r'climb_workload climb_\w+_workload = \{\s*\.name = "(\w+)"', text)
            for m in re.finditer(r'\.formerly = "(\w+)"', text):
                names = re.findall(r'\.name = "(\w+)"', text[:m.start()])
                if wl and names:
                    _RENAMED[(wl.group(1), m.group(1))] = names[-1]
    return _RENAMED


def load(root, name):
    """{(gpu, workload): report} for every results/<gpu>/<workload>/<name> of format 2 or 3; a rung renamed since
    the report was written is read by today's name, as climb report and compare read it."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "results", "*", "*", name))):
        with open(path) as f:
            r = json.load(f)
        if r.get("format") not in (2, 3):
            continue
        for x in r.get("results", []):
            x["rung"] = renamed().get((x["workload"], x["rung"]), x["rung"])
        for w in r.get("workloads", []):
            for x in w.get("rungs", []):
                x["name"] = renamed().get((w["name"], x["name"]), x["name"])
        parts = path.split(os.sep)
        out[(parts[-3], parts[-2])] = r
    return out


def gpu_name(r):
    """"H200", or "2 × H200" for a report whose cases spanned GPUs (its device_set)."""
    short = r["device"]["name"].replace("NVIDIA ", "")
    n = len(r.get("device_set", {}).get("devices", []))
    return "%d × %s" % (n, short) if n > 1 else short


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
    nv = d.get("nvml")  # reports since NVML was read; older ones have no key
    clocks = ""
    if nv:
        clocks = " NVML after the ceilings: SM clock %s of %s MHz, power limit %s W, clocks held by: %s." % (
            fmt(nv.get("sm_clock_mhz"), ".0f"), fmt(nv.get("sm_clock_max_mhz"), ".0f"),
            fmt(nv.get("power_limit_w"), ".0f"), nv.get("clock_event_reasons_named") or "unknown")
    ds = r.get("device_set")
    if ds and len(ds.get("devices", [])) > 1:  # the link: the slowest pair's copy one way, as the roofline takes it
        one = [v for row in ds.get("p2p_one_way_gbs", []) for v in row if v]
        ceilings += " The GPUs' links: %d GPUs, %s GB/s one way between the slowest pair (measured copy)." % (
            len(ds["devices"]), fmt(min(one) if one else None, ".0f"))
    return ("*%s* (`results/%s/%s/%s`): CC %s, driver %s, CUDA runtime %s, climb %s at commit `%s`, %s, %s timing.%s%s" % (
        ("%d × %s" % (len(r["device_set"]["devices"]), d["name"]) if len(r.get("device_set", {}).get("devices", [])) > 1
         else d["name"]), gpu, workload, what, d["compute_capability"], cuda_version(d["driver_version"]),
        cuda_version(d["runtime_version"]), r["version"], r["git_commit"][:12], r["date"][:10], r["timing"], ceilings,
        clocks))


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
    if reg.get("shape_format"):
        return "%s %s%s" % (t, format_shape(reg["shape_format"], reg["dims"], shape), extra)
    return "%s %s=%s%s" % (t, dims, shape_label(shape), extra)


def format_shape(fmt, dims, shape):
    """A workload's shape_format filled in: 'N{N} C{C} {H}x{W}' -> 'N64 C64 56x56' (as climb_case_label does)."""
    return re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}",
                  lambda m: str(shape[dims.index(m.group(1))]) if m.group(1) in dims else m.group(0), fmt)


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


def rate_of(x, reg=None):
    """The rate that matters for the row's binding term: GFLOP/s when arithmetic binds, else GB/s; the items rate
    for a workload that counts no device-memory bytes (bandwidth: bytes across the bus)."""
    if (x.get("bound") in ("ffma", "dfma") or (x.get("bound") or "").startswith("tensor")) and \
            x.get("gflops") is not None:
        return "%s GFLOP/s" % fmt(x["gflops"], ".0f")
    if x.get("bound") == "sfu" and x.get("special_rate") is not None:
        return "%s Gsfu/s" % fmt(x["special_rate"], ".0f")
    if x.get("gbs") is None and x.get("items_rate") is not None and reg and reg.get("items_rate"):
        v = x["items_rate"]
        return "%s %s" % (fmt(v, ".0f" if v >= 100 else ".3g"), reg["items_rate"])
    return "%s GB/s" % fmt(x.get("gbs"), ".0f")


SUMMARY_MAX_CASES = 10


def summary_cases(rows):
    """The cases the README shows: all, or with more than SUMMARY_MAX_CASES the largest shape of each type and
    option combination (the full set is in the workload's own report)."""
    cs = cases(rows)
    if len(cs) <= SUMMARY_MAX_CASES:
        return cs, False
    largest = {}
    for c in cs:
        key = (c[0], c[2], c[3])
        size = 1
        for d in c[1]:
            size *= d
        if key not in largest or size > largest[key][0]:
            largest[key] = (size, c)
    keep = {v[1] for v in largest.values()}
    return [c for c in cs if c in keep], True


def rungs_in_order(rows):
    return sorted({(x["ordinal"], x["rung"], x["kind"]) for x in rows})


def beside(r, workload):
    """The vendor rungs shown beside the bar, not part of it (the registry's "beside"; older reports have none)."""
    return {x["name"] for x in registry(r, workload)["rungs"] if x.get("beside")}


def name_cell(name, kind, aside=()):
    return "`%s`%s" % (name, "" if kind == "ladder" else " (%s%s)" % (kind, ", beside the bar" if name in aside else ""))


def summary_table(gpu, workload, r):
    """Rows = rungs; one column per case: time, the binding rate, ratio to the vendor."""
    rows = [x for x in r["results"] if x["workload"] == workload]
    reg = registry(r, workload)
    cs, cut = summary_cases(rows)
    varying = varying_options(rows)
    vendors = []
    aside = beside(r, workload)
    for x in rows:
        if x["kind"] == "vendor" and x["rung"] not in vendors and x["rung"] not in aside:
            vendors.append(x["rung"])
    which = (" (vendor: `%s`)" % vendors[0] if len(vendors) == 1 else
             " (the fastest of the vendor rungs %s in each case)" % ", ".join("`%s`" % v for v in vendors)
             if vendors else "")
    out = [header(gpu, workload, r), "",
           "Each cell: median time, the rate of the roofline term that binds, and the vendor's time over this rung's%s.%s"
           % (which,
              " The largest size of each type and option combination (%d of %d cases; every case in the report)."
              % (len(cs), len(cases(rows))) if cut else ""), "",
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
                cells.append("%s µs, %s, %s" % (fmt(x["median_us"], ".2f"), rate_of(x, reg), ratio(x["vs_vendor"])))
        out.append("| %d | %s | %s |" % (o, name_cell(name, kind, aside), " | ".join(cells)))
    return "\n".join(out)


def ladder_table(gpu, workload, r):
    """The ladder on the published case (the book's figures beside), and the largest case of the same type and
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
    gpu_short = gpu_name(r)
    head = ["#", "rung"]
    if pub:
        head += ["%s µs" % pub["gpu"], "%s %s" % (pub["gpu"], pub["rate_unit"]), "%s step" % pub["gpu"],
                 "%s cumul." % pub["gpu"]]
    head += ["%s µs" % gpu_short, "rate", "step", "cumul.", "× vendor", "% of roofline"]
    if big:
        head += ["%s: rate" % case_label(reg, big, varying), "% of roofline", "× vendor"]
    out = [header(gpu, workload, r), ""]
    if pub:
        source = re.sub(r"^seed \d+ \((.*?)\),?", r"\1,", pub["source"])  # the text by author and title
        out += ["Published figures: %s on a %s, %s." % (source, pub["gpu"], case_label(reg, main, varying)), ""]
    out += ["Case: %s%s." % (case_label(reg, main, varying), "; then %s" % case_label(reg, big, varying) if big else ""), "",
            "| " + " | ".join(head) + " |", "|--:|---|" + "--:|" * (len(head) - 2)]
    published = {x["name"]: (x.get("published_us"), x.get("published_rate")) for x in reg["rungs"]}
    # The book's steps compare times; where it gave only rates for some rungs, all compare rates (same bytes).
    by_rate = any(rate and not us for us, rate in published.values())
    prev = first = None
    for o, name, kind in rungs_in_order(rows):
        x = next((x for x in rows if x["rung"] == name and case_of(x) == main), None)
        cells = [str(o), name_cell(name, kind, beside(r, workload))]
        if pub:
            us, rate = published.get(name, (None, None))
            # What the step and cumulative columns compare: the book's time, or its rate's inverse. A vendor or
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
            cells += [fmt(x["median_us"], ".2f"), rate_of(x, reg), ratio(x["step_speedup"]), ratio(x["cumulative_speedup"]),
                      ratio(x["vs_vendor"]), fmt(x["pct_roofline"], ".1f")]
        if big:
            b = next((y for y in rows if y["rung"] == name and case_of(y) == big), None)
            if b is None or b["status"] != "ok":
                cells += [b["status"] if b else "", "", ""]
            else:
                cells += [rate_of(b, reg), fmt(b["pct_roofline"], ".1f"), ratio(b["vs_vendor"])]
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
        if w.get("fastest_at_edge"):  # reports from before the key say nothing here
            out.append("")
            out.append("At the edge of its list: %s (a value past it may be faster still)." % w["fastest_at_edge"])
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


def plot_rate(x, flops=False):
    """(value, unit) of the rate a sweep draws: GFLOP/s where asked (a sweep of compute-bound rows) and the workload
    counts no items of its own, else GB/s when bytes are counted, else the items rate, else GFLOP/s."""
    if flops and x.get("gflops") is not None and x.get("items_rate") is None:
        return x["gflops"], "GFLOP/s"
    if x.get("gbs") is not None:
        return x["gbs"], "GB/s"
    if x.get("items_rate") is not None:
        return x["items_rate"], None
    return x.get("gflops"), "GFLOP/s"


def sweep_series(reg, sweep, rows):
    """{label: [(x, y)]} and the rate's unit: one series per rung, type and the other values that vary."""
    dims = reg["dims"]
    xname = sweep["x"]
    varying = varying_options(rows) - {xname}
    shapes = {tuple(x["shape"]) for x in rows}
    # x a dim of several: the shapes of one aspect (the other dims in the same ratio to x, as squares are) belong on
    # one line; a line that would join several aspects (squares and skinny shapes) is split, each part named by its
    # first shape
    family_of, family_label = {}, {}
    if xname in dims and len(dims) > 1:
        xi = dims.index(xname)
        for shp in sorted(shapes):
            if shp[xi]:
                family_of[shp] = tuple(round(v / shp[xi], 6) for i, v in enumerate(shp) if i != xi)
                family_label.setdefault(family_of[shp], shp)
    # the rate of what binds most of the rows: GFLOP/s where arithmetic does (SGEMM, MRI-Q), else the bytes' rate
    ok = [x for x in rows if x["status"] == "ok"]
    flops = bool(ok) and all(x.get("gflops") is not None for x in ok) and \
        2 * sum(1 for x in ok if x.get("bound") not in (None, "memory")) > len(ok)
    points, unit = [], None
    for x in rows:
        if x["status"] != "ok":
            continue
        y, u = plot_rate(x, flops)
        if y is None:
            continue
        unit = u or reg.get("items_rate") or "rate"
        fam = None
        if xname in dims:
            xv = x["shape"][dims.index(xname)]
            label_shape = ""
            fam = family_of.get(tuple(x["shape"]))
        else:
            xv = x["options"].get(xname)
            label_shape = " %s=%s" % (",".join(dims), shape_label(x["shape"])) if len(shapes) > 1 else ""
        if xv is None:
            continue
        opts = "".join(" %s=%s" % (k, x["options"][k]) for k in reg_option_names(reg) if k in varying)
        types = {r["type"] for r in rows}
        head = "%s%s%s" % (x["rung"], " " + x["type"] if len(types) > 1 else "", label_shape)
        points.append((head, opts, fam, xv, y))
    families = {}
    for head, opts, fam, _, _ in points:
        families.setdefault((head, opts), set()).add(fam)
    series = {}
    for head, opts, fam, xv, y in points:
        split = len(families[(head, opts)]) > 1 and fam is not None
        aspect = " %s=%s" % (",".join(dims), shape_label(family_label[fam])) if split else ""
        series.setdefault(head + aspect + opts, []).append((xv, y))
    for v in series.values():
        v.sort()
    return series, unit


def ceilings_of(device, unit):
    """[(value, label)] of the ceilings measured in the same run that a rate in `unit` is drawn against."""
    m = (device or {}).get("measured") or {}
    if unit == "GB/s":
        return [(m[k], "%s ceiling %.0f GB/s" % (name, m[k])) for k, name in (("read_gbs", "read"), ("copy_gbs", "copy"))
                if m.get(k)]
    if unit == "GFLOP/s" and m.get("ffma_gflops"):
        return [(m["ffma_gflops"], "FFMA ceiling %.0f GFLOP/s" % m["ffma_gflops"])]
    return []


def climb_binary():
    """The climb that draws the plots: $CLIMB_BIN, else build/climb beside this script."""
    path = os.environ.get("CLIMB_BIN") or os.path.join(ROOT, "build", "climb")
    if not os.access(path, os.X_OK):
        sys.exit("results_tables.py: the plots are drawn by `climb plot`, and %s is not there: build climb first "
                 "(make), or set CLIMB_BIN to a climb binary" % path)
    return path


def draw(spec):
    """The SVG text `climb plot` draws from a chart description (climb plot --help says what one holds)."""
    import subprocess
    r = subprocess.run([climb_binary(), "plot", "-"], input=json.dumps(spec), capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("results_tables.py: climb plot failed: %s" % r.stderr.strip())
    return r.stdout


def svg_plot(title, subtitle, xlabel, ylabel, series, log_x, size_axis, ceilings=()):
    """A line plot, one coloured line with markers per series in the order of their labels, a legend below, and
    the measured ceilings as grey dashed lines where they are within 4x of the data (else they would flatten it;
    the subtitle's source has them); drawn by `climb plot`."""
    return draw({"chart": "lines", "title": title, "subtitle": subtitle, "x_label": xlabel, "y_label": ylabel,
                 "log_x": bool(log_x), "x_bytes": bool(size_axis),
                 "series": [{"label": k, "points": [[x, y] for x, y in v]} for k, v in sorted(series.items())],
                 "ceilings": [{"value": v, "label": lab} for v, lab in ceilings if v]})


def file_options(reg):
    """The names of a workload's options that name input files."""
    return [o["name"] for o in reg.get("options", []) if o.get("kind") == "file"]


def case_name(x, reg, varying=()):
    """A case as a bar's label: its input file's name, else its type, shape and the options that vary."""
    opts = "".join(" %s=%s" % (k, x["options"][k]) for k in reg_option_names(reg)
                   if k in varying and k not in file_options(reg))
    for k in file_options(reg):
        if x["options"].get(k):
            return "%s %s%s" % (os.path.basename(x["options"][k]), x["type"], opts)
    return "%s %s%s" % (x["type"], x["shape_label"], opts)


def svg_ratio_bars(title, subtitle, bars):
    """Horizontal bars, one a case in the order given: [(label, ratio, group)]; a line at 1.0 (level with the
    vendor); groups coloured (inputs from files, generated cases); drawn by `climb plot`."""
    groups = {"file": 0, "generated": 1}  # the plotting module's first two colours: blue, orange
    return draw({"chart": "bars", "title": title, "subtitle": subtitle, "level": 1.0,
                 "note": "vendor's time / best's (above 1: the best rung is faster); blue: input files, orange: "
                         "generated inputs (the bench); sorted by bytes moved",
                 "bars": [{"label": lab, "value": r, "group": groups[g]} for lab, r, g in bars]})


def ratio_plots(root):
    """{relative path: SVG text}: for every sweep over input files, the best rung against the vendor case by case,
    the files' cases and the bench's generated ones together, in order of the bytes each moves."""
    out = {}
    for (gpu, wl), r in sorted(load(root, "bench.json").items()):
        reg = registry(r, wl)
        files = file_options(reg)
        for sw in reg.get("sweeps", []):
            path = os.path.join(root, "results", gpu, wl, "sweep-%s.json" % sw["name"])
            if sw["args"] is None or not files or not os.path.exists(path):
                continue
            with open(path) as f:
                data = json.load(f)
            best = [x for x in data["results"] if x["workload"] == wl and x["kind"] == "best" and x["status"] == "ok"
                    and x.get("vs_vendor") and any(x["options"].get(k) for k in files)]
            if not best:
                continue
            gen = [x for x in r["results"] if x["workload"] == wl and x["kind"] == "best" and x["status"] == "ok"
                   and x.get("vs_vendor") and not any(x["options"].get(k) for k in files)]
            rows = [(x, "file") for x in best] + [(x, "generated") for x in gen]
            varying = {"file": varying_options(best), "generated": varying_options(gen)}  # each labelled by its own
            rows.sort(key=lambda p: ((p[0].get("bytes_read") or 0) + (p[0].get("bytes_written") or 0),
                                     case_name(p[0], reg, varying[p[1]])))
            vendors = sorted({x["rung"] for x in data["results"] if x["workload"] == wl and x["kind"] == "vendor"}
                             - beside(data, wl))
            title = "%s: %s against %s, case by case" % (wl, best[0]["rung"], ", ".join(vendors) or "the vendor")
            sub = "%s; files: results/%s/%s/sweep-%s.json (%s), generated: bench.json (%s)" % (
                data["device"]["name"], gpu, wl, sw["name"], data["git_commit"][:7], r["git_commit"][:7])
            out["docs/img/%s-%s-vs-vendor-%s.svg" % (wl, sw["name"], gpu)] = svg_ratio_bars(
                title, sub, [(case_name(x, reg, varying[g]), x["vs_vendor"], g) for x, g in rows])
    return out


def plots(root):
    """{relative path: SVG text} for every sweep of every workload with results."""
    out = {}
    for (gpu, wl), r in sorted(load(root, "bench.json").items()):
        reg = registry(r, wl)
        for sw in reg.get("sweeps", []):
            name = "bench.json" if sw["args"] is None else "sweep-%s.json" % sw["name"]
            path = os.path.join(root, "results", gpu, wl, name)
            if not os.path.exists(path):
                continue
            with open(path) as f:
                data = json.load(f)
            rows = [x for x in data["results"] if x["workload"] == wl]
            series, unit = sweep_series(registry(data, wl), sw, rows)
            if not series:
                continue
            sub = "%s, climb %s at %s, %s timing (results/%s/%s/%s)" % (
                data["device"]["name"], data["version"], data["git_commit"][:12], data["timing"], gpu, wl, name)
            size_axis = sw["x"] in reg["dims"] and reg.get("items_unit") == "bytes"
            out["docs/img/%s-%s-%s.svg" % (wl, sw["name"], gpu)] = svg_plot(
                sw["title"], sub, sw["x"], unit, series, sw["log_x"], size_axis, ceilings_of(data.get("device"), unit))
    out.update(ratio_plots(root))
    return out


def span(values, spec, suffix):
    """'0.80–0.86×' over the values (one figure when they agree at that precision), or '-' without any."""
    vals = [v for v in values if v is not None]
    if not vals:
        return "-"
    lo, hi = fmt(min(vals), spec), fmt(max(vals), spec)
    return "%s%s" % (lo if lo == hi else "%s–%s" % (lo, hi), suffix)


def overview_row(label, wl, r):
    """The overview's row of one report: its best rung over every case, or None where it has no such row."""
    rows = [x for x in r["results"] if x["workload"] == wl and x["kind"] == "best" and x["status"] == "ok"]
    if not rows:
        return None
    vendors = sorted({x["rung"] for x in r["results"] if x["workload"] == wl and x["kind"] == "vendor"} - beside(r, wl))
    vend = span([x.get("vs_vendor") for x in rows], ".2f", "×")
    if vend != "-" and vendors:
        vend += " (%s)" % ", ".join("`%s`" % v for v in vendors)
    return "| %s | %s | `%s` | %d | %s | %s | %s |" % (
        label, gpu_name(r), rows[0]["rung"], len(rows), vend,
        span([x.get("vs_bound") for x in rows], ".2f", "×"), span([x.get("pct_roofline") for x in rows], ".0f", "%"))


def overview_table(bench, root=None):
    """One row per workload and GPU: the best rung over every case of its bench report, against the vendor, the
    bound and the roofline: what the README claims, from the reports alone. Below a bench's row, a row for each of
    its sweeps whose own report, results/<gpu>/<workload>/sweep-NAME.json, marks it for the overview (the
    registry's `overview`: a figure the bench does not hold, as gemm's 3xTF32 against cuBLAS's FP32 SGEMM)."""
    out = ["| workload | GPU | best rung | cases | vendor's time / best's | bound's time / best's | % of roofline |",
           "|---|---|---|--:|--:|--:|--:|"]
    for (gpu, wl), r in sorted(bench.items(), key=lambda k: (k[0][1], k[0][0])):
        line = overview_row("[%s](docs/%s.md)" % (wl, wl), wl, r)
        if line is None:
            continue
        out.append(line)
        for sw in registry(r, wl).get("sweeps", []) if root else []:
            path = os.path.join(root, "results", gpu, wl, "sweep-%s.json" % sw["name"])
            if not sw.get("args") or not os.path.exists(path):
                continue
            with open(path) as f:
                data = json.load(f)
            if data.get("format") not in (2, 3) or not any(
                    x.get("name") == sw["name"] and x.get("overview") for x in registry(data, wl).get("sweeps", [])):
                continue  # the mark is read from the sweep's own report, as its rows are
            line = overview_row("[%s](docs/%s.md), sweep `%s`" % (wl, wl, sw["name"]), wl, data)
            if line is not None:
                out.append(line)
    return "\n".join(out)


def scaling_tables(root):
    """{workload: markdown}: for a workload whose reports sit at several GPU counts of one GPU (results/<gpu>x<N>/,
    one GPU among them), per case the best rung's median at each count, its speed-up over one GPU (strong scaling,
    bench.json: the same cases at every count) and the parallel efficiency (speed-up / N; weak scaling,
    bench-weak.json, where each GPU's share is the case: one GPU's time over N's)."""
    out = {}
    for name, kind in (("bench.json", "strong"), ("bench-weak.json", "weak")):
        groups = {}
        for (gpu, wl), r in load(root, name).items():
            m = re.match(r"^(.*)x(\d+)$", gpu)
            if m:
                groups.setdefault((wl, m.group(1)), {})[int(m.group(2))] = (gpu, r)
        for (wl, base), per in sorted(groups.items()):
            if 1 not in per or len(per) < 2:
                continue
            counts = sorted(per)
            one = per[1][1]
            reg = registry(one, wl)
            key = lambda x: (x["type"], tuple(x["shape"]), opts_key(x))  # noqa: E731 (the input names the GPUs)
            best = {n: {key(x): x for x in per[n][1]["results"] if x["workload"] == wl and x["kind"] == "best"}
                    for n in counts}
            rows1 = [x for x in one["results"] if x["workload"] == wl]
            varying = varying_options(rows1)
            names = sorted({x["rung"] for n in counts for x in best[n].values()})
            head = ("*%s scaling, %s* (`results/%s/%s/%s`, N = %s; the best rung, `%s`): %s" % (
                kind.capitalize(), gpu_name(one), "/".join(per[n][0] for n in counts), wl, name,
                ", ".join(str(n) for n in counts), "`, `".join(names),
                "the same cases on N GPUs; speed-up is one GPU's time over N's, efficiency the speed-up over N."
                if kind == "strong" else "each GPU's share is the case, the problem growing with the GPUs; "
                "efficiency is one GPU's time over N's."))
            cols = ["case", "GPUs", "µs", "speed-up", "efficiency"] if kind == "strong" else ["case", "GPUs", "µs",
                                                                                            "efficiency"]
            lines = [head, "", "| " + " | ".join(cols) + " |", "|---|--:|--:|" + "--:|" * (len(cols) - 3)]
            for c in sorted(best[1], key=lambda c: (c[0], eval_size(c[1]), c[2])):
                t1 = best[1][c]["median_us"] if best[1][c]["status"] == "ok" else None
                label = case_label(reg, (c[0], c[1], c[2], ""), varying)
                for n in counts:
                    x = best[n].get(c)
                    tn = x["median_us"] if x and x["status"] == "ok" else None
                    sp = t1 / tn if t1 and tn else None
                    cells = [label, str(n), fmt(tn, ".1f") if tn else (x["status"] if x else "not run")]
                    if kind == "strong":
                        cells += [ratio(sp), "%.0f%%" % (100 * sp / n) if sp else "-"]
                    else:
                        cells += ["%.0f%%" % (100 * sp) if sp else "-"]
                    lines.append("| " + " | ".join(cells) + " |")
            out.setdefault(wl, []).append("\n".join(lines))
    return {wl: "\n\n".join(parts) for wl, parts in out.items()}


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
    files["docs/results.md"] = {"summary": "\n\n".join(parts) if parts else "No results committed yet."}
    files["README.md"] = {"overview": overview_table(bench, root) if bench else "No results committed yet."}
    for wl, text in scaling_tables(root).items():
        files.setdefault("docs/%s.md" % wl, {})["scaling"] = text
    tune_parts = [tuning_table(g, w, tunes[(g, w)]) for g, w in sorted(tunes)]
    files["docs/tuning.md"] = {"tuning": "\n\n".join(tune_parts) if tune_parts else "No tuning results committed yet."}
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description="Rewrite the results tables of README.md and docs/ and the sweep plots "
                                             "in docs/img from the reports under results/<gpu>/<workload>/.")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    check = ap.parse_args(argv).check  # --help and unknown arguments end here, before any file is written
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
    for rel, svg in sorted(plots(ROOT).items()):
        path = os.path.join(ROOT, rel)
        old = open(path).read() if os.path.exists(path) else None
        if svg != old:
            changed = True
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(svg)
            print(("would update " if check else "updated ") + rel)
    sys.exit(1 if check and changed else 0)


if __name__ == "__main__":
    main()
