#!/usr/bin/env python3
"""Checks climb's JSON reports against docs/report-schema.json (the subset of JSON Schema it uses: type, enum,
required, properties, additionalProperties false, items, minimum), with no package beyond Python's own.

    scripts/check_reports.py [REPORT.json | FOLDER ...]   (default: every report under results/)

A folder stands for its bench*.json, sweep-*.json and tune.json files, at any depth. Prints each problem as
"file: path: what is wrong"; exit 1 if there was one, 0 if every report passed (and how many were checked)."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def type_ok(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def check(v, s, path, out):
    """Appends to out every way v breaks schema s."""
    if "enum" in s and v not in s["enum"]:
        out.append("%s: %r is not one of %s" % (path, v, s["enum"]))
        return
    if "type" in s:
        types = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(type_ok(v, t) for t in types):
            out.append("%s: %s where %s was expected" % (path, type(v).__name__, " or ".join(types)))
            return
    if "minimum" in s and type_ok(v, "number") and v < s["minimum"]:
        out.append("%s: %r is below %r" % (path, v, s["minimum"]))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                out.append("%s: no %r" % (path, k))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                check(x, props[k], "%s.%s" % (path, k), out)
            elif s.get("additionalProperties") is False:
                out.append("%s: %r is not in the schema (document it in docs/report-format.md and "
                           "docs/report-schema.json)" % (path, k))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(x, s["items"], "%s[%d]" % (path, i), out)


def reports(args):
    for a in args:
        if os.path.isdir(a):
            for d, _, files in sorted(os.walk(a)):
                for f in sorted(files):
                    if f.endswith(".json") and (f.startswith("bench") or f.startswith("sweep-") or f == "tune.json"):
                        yield os.path.join(d, f)
        else:
            yield a


def main():
    with open(os.path.join(ROOT, "docs", "report-schema.json")) as f:
        schema = json.load(f)
    args = sys.argv[1:] or [os.path.join(ROOT, "results")]
    n = bad = 0
    for path in reports(args):
        n += 1
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: %s" % (path, e))
            bad += 1
            continue
        out = []
        check(doc, schema, "$", out)
        for o in out[:20]:
            print("%s: %s" % (path, o))
        if len(out) > 20:
            print("%s: ... and %d more" % (path, len(out) - 20))
        bad += bool(out)
    if n == 0:
        print("check_reports: no report found in %s" % " ".join(args))
        return 1
    print("check_reports: %d reports, %d with problems" % (n, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
