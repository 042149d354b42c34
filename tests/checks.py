"""The pass/fail tally the Python tests of climb report share: check() records one check (printing a failure with
the tail of its detail), finish() prints the tally and exits non-zero if any failed."""
import sys

fails = checks = 0


def check(ok, what, detail=""):
    global fails, checks
    checks += 1
    if not ok:
        fails += 1
        print("FAIL: %s%s" % (what, ("\n" + detail[-1500:]) if detail else ""))


def finish():
    print("%d passed, %d failed" % (checks - fails, fails))
    sys.exit(1 if fails else 0)
