#!/usr/bin/env python3
"""climb report: the page from the committed reports (every SVG parses as XML, nothing outside the page is loaded,
every GPU and workload has its section), its figures against the reports (the roofline's points, the ladder charts,
the published bars, the vendor lines), several GPUs side by side, bad inputs and outputs, and docs/results.html
up to date. Usage: test_report_html.py CLIMB REPO_ROOT"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from checks import check, finish

climb, root = sys.argv[1], sys.argv[2]


def run(args, cwd=None):
    return subprocess.run([climb, "report"] + args, capture_output=True, text=True, cwd=cwd, timeout=60)


VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "embed", "source", "track", "wbr"}


class Balance(html.parser.HTMLParser):
    """Every element outside the SVGs closed in order (the SVGs are checked as XML)."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("line %d: </%s> closes %s" % (self.getpos()[0], tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()


def check_page(text, what):
    """Well-formed, self-contained; returns the parsed SVG roots."""
    check(text.startswith("<!DOCTYPE html>"), what + ": starts with a doctype")
    b = Balance()
    b.feed(text)
    b.close()
    check(not b.errors and not b.stack, what + ": every element closed in order", "\n".join(b.errors[:5]) + str(b.stack[:5]))
    for bad in ("<script", "<link", " src=", "@import", "<iframe", "<img"):
        check(bad not in text, what + ": no %s (the page loads nothing)" % bad)
    urls = set(re.findall(r"https?://[^\"' )<]+", text))
    check(urls <= {"http://www.w3.org/2000/svg"}, what + ": no address but the SVG namespace", str(urls))
    svgs = re.findall(r"<svg\b.*?</svg>", text, flags=re.S)
    roots = []
    for i, s in enumerate(svgs):
        try:
            roots.append(ET.fromstring(s))
        except ET.ParseError as e:
            check(False, "%s: SVG %d parses as XML" % (what, i), "%s\n%s" % (e, s[:400]))
    check(len(svgs) > 0, what + ": has charts")
    return svgs, roots


def case_key(r):
    opts = " ".join("%s=%s" % (k, os.path.basename(v) if isinstance(v, str) else v)
                    for k, v in r["options"].items() if v not in (None, ""))
    return (r["workload"], r["type"], r["shape_label"], opts)


def cases_of(rep, workload):
    out = {}
    for r in rep["results"]:
        if r["workload"] == workload:
            out.setdefault(case_key(r), []).append(r)
    return out


def row_bytes(r):
    return (r.get("bytes_read") or 0) + (r.get("bytes_written") or 0)


def roofline_case(cases):
    """The case the roofline shows, as climb report picks it: of the first type met, the most work."""
    best, first_type, most = None, None, -1
    for key, rows in cases.items():
        work = max([(r["flops"] + row_bytes(r)) for r in rows
                    if r["status"] == "ok" and (r.get("flops") or 0) > 0 and row_bytes(r) > 0], default=-1)
        if work < 0:
            continue
        first_type = first_type or key[1]
        if key[1] == first_type and work > most:
            best, most = key, work
    return best


tmp = tempfile.mkdtemp(prefix="climb-report-")
try:
    results = os.path.join(root, "results")
    reduce_rep = os.path.join(results, "h100-80gb-hbm3", "reduce", "bench.json")
    if not os.path.isfile(reduce_rep):
        print("SKIP: no committed results (results/h100-80gb-hbm3/reduce/bench.json)")
        sys.exit(77)

    # 1. Every committed report: one page; every GPU and workload in it.
    page, md = os.path.join(tmp, "all.html"), os.path.join(tmp, "all.md")
    p = run(["results", "--html", page, "--md", md], cwd=root)
    check(p.returncode == 0, "climb report results: exit 0", p.stderr)
    text = open(page).read() if os.path.exists(page) else ""
    svgs, _ = check_page(text, "results page")
    gpus, workloads, n_reports = set(), set(), 0
    for dirpath, _, files in os.walk(results):
        for name in files:
            if not name.endswith(".json"):
                continue
            d = json.load(open(os.path.join(dirpath, name)))
            if isinstance(d, dict) and d.get("tool") == "climb" and d.get("format") in (2, 3) and isinstance(d.get("results"), list):
                n_reports += 1
                gpus.add(d["device"]["name"])
                workloads |= {r["workload"] for r in d["results"]}
    check(("from %d reports" % n_reports) in text, "the page counts every report (%d)" % n_reports)
    for g in gpus:
        check((">%s</h2>" % g) in text, "a section for %s" % g)
    for w in workloads:
        check(('id="wl-%s"' % w) in text, "a section for workload %s" % w)
    check(text.count("<title>Roofline</title>") >= 1, "a roofline")
    check(("Side by side" in text) == (len(gpus) > 1), "the side-by-side table exactly when several GPUs are given")
    check(open(md).read().count("## ") >= len(gpus) + 1, "the markdown has a section a GPU and the reports")

    # 2. One report, its figures against the page's.
    rep = json.load(open(reduce_rep))
    page1 = os.path.join(tmp, "reduce.html")
    p = run([reduce_rep, "--html", page1])
    check(p.returncode == 0, "climb report on one file: exit 0", p.stderr)
    text1 = open(page1).read()
    svgs1, roots1 = check_page(text1, "reduce page")
    cases = cases_of(rep, "reduce")
    ladders = [s for s in svgs1 if "median time per rung" in s]
    check(len(ladders) == len(cases), "a ladder chart a case (%d, got %d)" % (len(cases), len(ladders)))
    roof = [s for s in svgs1 if "<title>Roofline</title>" in s]
    check(len(roof) == 1, "one roofline for the one GPU")
    if roof:
        key = roofline_case(cases)
        want = [r for r in cases[key] if r["status"] == "ok" and (r.get("flops") or 0) > 0 and row_bytes(r) > 0]
        pts = len(re.findall(r"<circle ", roof[0])) + len(re.findall(r"<rect x=\"[^\"]*\" y=\"[^\"]*\" width=\"9\"", roof[0]))
        check(pts == len(want), "the roofline: a point a rung of the largest case (%d, got %d)" % (len(want), pts))
        ladder_pts = re.search(r'<polyline[^>]*points="([^"]*)"', roof[0])
        n_ladder = len([r for r in want if r["kind"] in ("ladder", "best")])
        check(ladder_pts and len(ladder_pts.group(1).split()) == n_ladder,
              "the ladder joined through its %d ladder rungs" % n_ladder)
        for label in ("FP32 FFMA", "read %.0f GB/s" % rep["device"]["measured"]["read_gbs"]):
            check(label in roof[0], "the roofline draws the ceiling '%s'" % label)
    # the published case: a grey bar a rung the source text timed
    reg = next(w for w in rep["workloads"] if w["name"] == "reduce")
    if reg.get("published"):
        pub = reg["published"]
        n_pub = len([r for r in reg["rungs"] if r.get("published_us")])
        pub_charts = [s for s in ladders if ("%s %s:" % (pub["type"], "2^%d" % (pub["shape"][0].bit_length() - 1))) in s]
        check(len(pub_charts) == 1 and pub_charts[0].count('class="bar pubbar"') == n_pub,
              "the published case's chart has a grey bar a published rung (%d)" % n_pub)
        others = sum(s.count("pubbar") for s in ladders) - (pub_charts[0].count("pubbar") if pub_charts else 0)
        check(others == 0, "no published bars on other cases")
    # each case: the vendor as a line, its time and the best rung's time as written
    for key, rows in cases.items():
        chart = next((s for s in ladders if (" %s %s:" % (key[1], key[2])) in s), None)
        check(chart is not None, "a chart for %s" % (key,))
        if not chart:
            continue
        vend = [r for r in rows if r["kind"] == "vendor" and r["status"] == "ok"]
        check(chart.count('class="vendorline"') == len(vend), "%s: the vendor as a line" % (key,))
        bars = [r for r in rows if r["kind"] in ("ladder", "best") and r["status"] == "ok"]
        check(chart.count('class="bar ') - chart.count("pubbar") == len(bars), "%s: a bar a rung that ran" % (key,))
        best = next(r for r in rows if r["kind"] == "best")
        m = best["median_us"]
        shown = "%.0f" % m if m >= 1e4 else "%.1f" % m if m >= 100 else "%.2f" % m if m >= 1 else "%.3g" % m
        check(("%s µs" % shown) in chart, "%s: the best rung's median %s µs" % (key, shown))

    # 3. Two GPUs: the side-by-side table, each best rung's ratio to the vendor on each.
    other = json.loads(json.dumps(rep))
    other["device"]["name"] = "Another GPU"
    for r in other["results"]:
        if r.get("median_us"):
            r["median_us"] *= 0.5
        if r.get("vs_vendor"):
            r["vs_vendor"] = round(r["vs_vendor"] * 1.25, 6)
    os.makedirs(os.path.join(tmp, "two", "a"))
    os.makedirs(os.path.join(tmp, "two", "b"))
    shutil.copy(reduce_rep, os.path.join(tmp, "two", "a", "bench.json"))
    json.dump(other, open(os.path.join(tmp, "two", "b", "bench.json"), "w"))
    json.dump({"tool": "climb", "format": 2, "command": "tune", "tuning": []}, open(os.path.join(tmp, "two", "tune.json"), "w"))
    json.dump({"entries": []}, open(os.path.join(tmp, "two", "wisdom.json"), "w"))
    md2 = os.path.join(tmp, "two.md")
    p = run([os.path.join(tmp, "two"), "--html", os.path.join(tmp, "two.html"), "--md", md2])
    check(p.returncode == 0, "two GPUs: exit 0", p.stderr)
    t2 = open(md2).read() if os.path.exists(md2) else ""
    check("## Side by side" in t2 and "| NVIDIA H100 80GB HBM3 | Another GPU |" in t2.replace(" 80GB HBM3 |", " 80GB HBM3 |"),
          "two GPUs: the side-by-side table with both", t2[:600])
    best = next(r for r in rep["results"] if r["kind"] == "best" and r["status"] == "ok")
    b2 = next(r for r in other["results"] if r["kind"] == "best" and r["status"] == "ok" and r["shape"] == best["shape"]
              and r["type"] == best["type"])
    line = [l for l in t2.splitlines() if l.startswith("| reduce | %s %s |" % (best["type"], best["shape_label"]))]
    check(len(line) == 1 and ("(%.2f×)" % best["vs_vendor"]) in line[0] and ("(%.2f×)" % b2["vs_vendor"]) in line[0],
          "two GPUs: each best rung's ratio to its vendor", "\n".join(line) or t2[-800:])
    check(" 2 reports" in p.stderr and "1 workload" in p.stderr, "two GPUs: the tune report and the wisdom file skipped",
          p.stderr)

    # 3b. Scaling: one report a GPU count (the count its device_set names), the best rung's speed-up over one GPU;
    # a report of one process a GPU, a sweep and a batch run at the same counts left out.
    sc = os.path.join(tmp, "scaling")
    def variant(n, factor, **top):
        d = json.loads(json.dumps(rep))
        if n > 1:
            d["device_set"] = {"devices": [{"ordinal": i, "name": d["device"]["name"]} for i in range(n)]}
        for r in d["results"]:
            if r.get("median_us"):
                r["median_us"] *= factor
        d.update(top)
        os.makedirs(os.path.join(sc, "x%d%s" % (n, top and "o" or "")), exist_ok=True)
        json.dump(d, open(os.path.join(sc, "x%d%s" % (n, top and "o" or ""), "bench%d.json" % len(os.listdir(sc))), "w"))
    variant(1, 1.0)
    variant(2, 0.5)
    variant(4, 0.275)
    variant(2, 0.1, processes=2)
    variant(4, 0.1, sweep="sizes")
    variant(4, 0.1, timing="batch")
    scmd = os.path.join(tmp, "scaling.md")
    p = run([sc, "--html", os.path.join(tmp, "scaling.html"), "--md", scmd])
    check(p.returncode == 0, "scaling: exit 0", p.stderr)
    tsc = open(scmd).read() if os.path.exists(scmd) else ""
    stext = open(os.path.join(tmp, "scaling.html")).read() if p.returncode == 0 else ""
    check("## Scaling across GPUs" in tsc and "strong scaling, speed-up over one GPU" in stext,
          "scaling: the section and its strong-scaling chart", tsc[:400])
    check("weak scaling" not in stext, "scaling: no weak chart for a workload without weak-scaling cases")
    for key, rows in cases.items():
        best = next((r for r in rows if r["kind"] == "best" and r["status"] == "ok"), None)
        if not best:
            continue
        lines = [l for l in tsc.splitlines() if l.startswith("| %s %s" % (key[1], key[2])) and "| strong |" in l]
        got = {l.split("|")[3].strip(): (l.split("|")[5].strip(), l.split("|")[6].strip()) for l in lines}
        check(got == {"1": ("1.00×", "100%"), "2": ("2.00×", "100%"), "4": ("3.64×", "91%")},
              "scaling: %s %s at 1, 2 and 4 GPUs (the others left out)" % key[1:3], "\n".join(lines))
    sgpus = [os.path.join(results, "h200x%d" % n, "stencil_gpus") for n in (1, 2, 4)]
    if all(os.path.isfile(os.path.join(d, "bench-weak.json")) for d in sgpus):
        # the committed multi-GPU runs: weak-scaling cases (the options of the workload's weak_scaling) apart
        p = run(sgpus + ["--html", os.path.join(tmp, "sg.html"), "--md", os.path.join(tmp, "sg.md")])
        tsg = open(os.path.join(tmp, "sg.md")).read() if p.returncode == 0 else ""
        check("weak scaling, efficiency" in open(os.path.join(tmp, "sg.html")).read(), "stencil_gpus: a weak chart")
        t1 = next(r["median_us"] for r in json.load(open(os.path.join(sgpus[0], "bench-weak.json")))["results"]
                  if r["kind"] == "best")
        t4 = next(r["median_us"] for r in json.load(open(os.path.join(sgpus[2], "bench-weak.json")))["results"]
                  if r["kind"] == "best")
        weak4 = [l for l in tsg.splitlines() if "| weak | 4 |" in l]
        check(len(weak4) == 1 and ("| %.0f%% |" % (100 * t1 / t4)) in weak4[0],
              "stencil_gpus: weak efficiency on 4 GPUs is one GPU's time over four's (%.0f%%)" % (100 * t1 / t4),
              "\n".join(weak4))

    # 4. Bad inputs and outputs.
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    shutil.copy(reduce_rep, os.path.join(bad, "bench.json"))
    with open(os.path.join(bad, "broken.json"), "w") as f:
        f.write('{\n  "tool": "climb",\n  "results": [,]\n}\n')
    out = os.path.join(tmp, "bad.html")
    p = run([bad, "--html", out])
    check(p.returncode == 0 and "broken.json:line 3" in p.stderr and "skipped" in p.stderr,
          "a folder's broken JSON: named with its line, skipped", p.stderr)
    p = run([os.path.join(bad, "broken.json"), "--html", out])
    check(p.returncode == 1 and "broken.json:line 3" in p.stderr, "a broken report named: exit 1", p.stderr)
    check(not os.path.exists(out), "no page left behind after a failure")
    p = run([os.path.join(tmp, "two", "wisdom.json"), "--html", out])
    check(p.returncode == 1 and "not a climb report" in p.stderr, "a named file that is not a report: exit 1", p.stderr)
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    p = run([empty, "--html", out])
    check(p.returncode == 2 and "no climb bench report" in p.stderr, "a folder without reports: exit 2", p.stderr)
    p = run([os.path.join(tmp, "none"), "--html", out])
    check(p.returncode == 1 and "No such file" in p.stderr, "a missing path: exit 1", p.stderr)
    p = run([reduce_rep, "--html", os.path.join(tmp, "no", "dir", "x.html")])
    check(p.returncode == 1 and "cannot write" in p.stderr, "an output that cannot be written: exit 1", p.stderr)
    p = run([reduce_rep, "--html", out, "--html", out])
    check(p.returncode == 2 and "given twice" in p.stderr, "--html twice: exit 2", p.stderr)
    p = run([reduce_rep, "--pdf", out])
    check(p.returncode == 2 and "unknown option" in p.stderr, "an unknown option: exit 2", p.stderr)
    p = run([reduce_rep, "--html", out, "--md", out])
    check(p.returncode == 2 and "same file" in p.stderr, "--html and --md the same file: exit 2", p.stderr)

    # 5. Reports broken in their structure (fields dropped, of the wrong type, emptied): a page or a clear exit,
    # never a crash (the JSON reader itself is fuzzed in test_cpu_json_fuzz).
    import random
    rng = random.Random(int.from_bytes(os.urandom(4), "little"))
    seed_note = "fuzz seed %d" % rng.randrange(1 << 30)
    rng.seed(seed_note)
    values = [None, 0, -1, 1e308, "", "x", [], {}, [1, "a"], True]
    fz = os.path.join(tmp, "fuzz.json")
    crashes = []
    for i in range(150):
        d = json.loads(json.dumps(rep))
        for _ in range(rng.randint(1, 6)):
            def dicts(*xs):
                return [x for x in xs if isinstance(x, dict)]
            res = d.get("results") if isinstance(d.get("results"), list) else []
            dev = d.get("device") if isinstance(d.get("device"), dict) else {}
            wls = d.get("workloads") if isinstance(d.get("workloads"), list) else []
            rungs = wls[0].get("rungs", []) if wls and isinstance(wls[0], dict) and isinstance(wls[0].get("rungs"), list) else []
            pool = dicts(*res, dev, dev.get("measured"), *wls, *rungs)
            target = d if rng.random() < 0.2 or not pool else rng.choice(pool)
            if not isinstance(target, dict) or not target:
                continue
            k = rng.choice(sorted(target))
            if rng.random() < 0.4:
                del target[k]
            else:
                target[k] = rng.choice(values)
        json.dump(d, open(fz, "w"))
        out = os.path.join(tmp, "fz.html")
        try:  # a page is a few hundred kB: a runaway writer is stopped by its size (64 MiB) as well as its time
            p = subprocess.run(["bash", "-c", 'ulimit -f 65536; exec "$0" report "$1" --html "$2"', climb, fz, out],
                               capture_output=True, text=True, timeout=30)
            if p.returncode not in (0, 1, 2):
                crashes.append("case %d: exit %d %s" % (i, p.returncode, p.stderr[-300:]))
        except subprocess.TimeoutExpired:
            crashes.append("case %d: still running after 30 s" % i)
        if crashes:
            shutil.copy(fz, os.path.join(tmp, "..", "climb-report-fuzz-failed.json"))
            break
    check(not crashes, "150 broken reports: never a crash (%s)" % seed_note, "\n".join(crashes[:3]))

    # 6. docs/results.html is the page of the committed results (README links it).
    committed = os.path.join(root, "docs", "results.html")
    fresh = os.path.join(tmp, "fresh.html")
    p = run(["results", "--html", fresh], cwd=root)
    same = os.path.exists(committed) and p.returncode == 0 and open(committed).read() == open(fresh).read()
    check(same, "docs/results.html matches the committed results: run 'build/climb report results --html "
                "docs/results.html' from the repository's root and commit it")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish()
