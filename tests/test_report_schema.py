#!/usr/bin/env python3
"""The report schema (docs/report-schema.json) against every committed report, and the checker
(scripts/check_reports.py) against reports broken on purpose: a missing field, a wrong type, an unknown field, a
value outside its enum, a negative time. Usage: test_report_schema.py REPO_ROOT"""
import json
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
checker = [sys.executable, os.path.join(root, "scripts", "check_reports.py")]
fails = checks = 0


def expect(rc_want, args, what):
    global fails, checks
    checks += 1
    p = subprocess.run(checker + args, capture_output=True, text=True)
    if p.returncode != rc_want:
        fails += 1
        print("FAIL: %s: exit %d, expected %d\n%s" % (what, p.returncode, rc_want, p.stdout[-600:]))
    return p.stdout


results = os.path.join(root, "results")
if os.path.isdir(results):
    expect(0, [results], "every committed report")
    base = os.path.join(results, "h100-80gb-hbm3", "reduce", "bench.json")
    with open(base) as f:
        good = json.load(f)
    breaks = {
        "a row without median_us": lambda d: d["results"][0].pop("median_us"),
        "a shape of strings": lambda d: d["results"][0].__setitem__("shape", ["4096"]),
        "an unknown row field": lambda d: d["results"][0].__setitem__("speedup_vs_moon", 3.0),
        "a status outside the enum": lambda d: d["results"][1].__setitem__("status", "fine"),
        "a negative time": lambda d: d["results"][2].__setitem__("median_us", -1.0),
        "no device": lambda d: d.pop("device"),
        "a timing mode outside the enum": lambda d: d.__setitem__("timing", "lukewarm"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for what, breakit in breaks.items():
            d = json.loads(json.dumps(good))
            breakit(d)
            path = os.path.join(tmp, "bench.json")
            with open(path, "w") as f:
                json.dump(d, f)
            expect(1, [path], what)
        with open(os.path.join(tmp, "bench.json"), "w") as f:
            json.dump(good, f)
        expect(0, [tmp], "the unbroken copy, found in its folder")
    with tempfile.TemporaryDirectory() as tmp:
        expect(1, [tmp], "a folder with no report")
print("test_report_schema: %d checks, %d failed" % (checks, fails))
sys.exit(1 if fails else 0)
