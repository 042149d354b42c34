"""The logic of scripts/results_tables.py on synthetic reports: tables keyed on type, shape and options (a
two-dim workload with an option sweep), rungs named by kind not position, the book's figures beside the ladder,
the largest case, reports of the old format skipped, the tuning table with case-dependent defaults.
Usage: test_results_tables.py SOURCE_DIR"""
import json
import re
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[1], "scripts"))
import results_tables as rt  # noqa: E402

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


DEVICE = {"name": "NVIDIA Test", "compute_capability": "9.0", "driver_version": 13000, "runtime_version": 13000,
          "measured": {"read_gbs": 3000, "copy_gbs": 2800, "ffma_gflops": 60000}}


def report(workloads, rows, **extra):
    r = {"tool": "climb", "format": 2, "command": "bench", "version": "0.1.0", "git_commit": "abcdef0123456789",
         "date": "2026-11-22T00:00:00Z", "timing": "cold", "device": DEVICE, "workloads": workloads, "results": rows}
    r.update(extra)
    return r


def row(wl, ordinal, rung, kind, t, shape, us, vs, opts=None, **kw):
    x = {"workload": wl, "rung": rung, "ordinal": ordinal, "kind": kind, "type": t, "shape": shape,
         "options": opts or {}, "input": "", "status": "ok", "median_us": us, "gbs": 1000.0 / us, "gflops": None,
         "special_rate": None, "bound": "memory", "pct_roofline": 50.0, "step_speedup": None,
         "cumulative_speedup": 1.0, "vs_vendor": vs}
    x.update(kw)
    return x


LADDER = {"name": "lad", "title": "A ladder", "dims": ["n"], "options": [],
          "published": {"source": "seed 9", "gpu": "G80", "type": "i32", "shape": [1024], "rate_unit": "GB/s"},
          "rungs": [{"name": "lad_vendor", "kind": "vendor", "published_us": None, "published_rate": None},
                    {"name": "lad_copy", "kind": "bound", "published_us": None, "published_rate": 50.0},
                    {"name": "lad_naive", "kind": "ladder", "published_us": 800, "published_rate": 2.0},
                    {"name": "lad_fast", "kind": "ladder", "published_us": 200, "published_rate": 8.0},
                    {"name": "lad_top", "kind": "best", "published_us": None, "published_rate": None}]}
GRID = {"name": "grid", "title": "Two dims", "dims": ["rows", "cols"], "published": None,
        "options": [{"name": "pad"}, {"name": "op"}],
        "rungs": [{"name": "g_v", "kind": "vendor"}, {"name": "g_aside", "kind": "vendor", "beside": True},
                  {"name": "g_best", "kind": "best"}]}

with tempfile.TemporaryDirectory() as root:
    def put(gpu, wl, name, r):
        os.makedirs(os.path.join(root, "results", gpu, wl), exist_ok=True)
        with open(os.path.join(root, "results", gpu, wl, name), "w") as f:
            json.dump(r, f)

    lad_rows = []
    for n, scale in ((1024, 1), (1 << 20, 100)):
        lad_rows += [row("lad", 0, "lad_vendor", "vendor", "i32", [n], 10 * scale, 1.0),
                     row("lad", 1, "lad_copy", "bound", "i32", [n], 8 * scale, 1.25, cumulative_speedup=None),
                     row("lad", 2, "lad_naive", "ladder", "i32", [n], 40 * scale, 0.25),
                     row("lad", 3, "lad_fast", "ladder", "i32", [n], 20 * scale, 0.5, step_speedup=2.0),
                     row("lad", 4, "lad_top", "best", "i32", [n], 5 * scale, 2.0)]
    lad_rows.append(dict(row("lad", 4, "lad_top", "best", "f32", [1024], 6, 1.5)))
    put("gpua", "lad", "bench.json", report([LADDER], lad_rows))
    grid_rows = [row("grid", 1, "g_aside", "vendor", "f32", [1000, 3000], 3, 2.3, {"pad": 0, "op": "axpb"}),
                 row("grid", 2, "g_best", "best", "f32", [1000, 3000], 7, 1.1, {"pad": 0, "op": "axpb"}),
                 row("grid", 2, "g_best", "best", "f32", [1000, 3000], 9, 1.2, {"pad": 3, "op": "axpb"},
                     bound="ffma", gflops=123.0)]
    put("gpua", "grid", "bench.json", report([GRID], grid_rows))
    put("gpub", "lad", "bench.json", {"tool": "climb", "results": [{"size": 4}]})  # the first format: skipped
    tune = report([LADDER], [], tuning=[{
        "workload": "lad", "rung": "lad_top", "params": [{"name": "block"}], "candidate_list": "explicit",
        "cases": [{"type": "i32", "shape_label": "2^10"}, {"type": "u8", "shape_label": "2^10"}],
        "defaults": None, "defaults_per_case": [{"block": 1}, {"block": 2}], "defaults_score": 1.5,
        "winner": {"block": 2}, "fastest": {"block": 2}, "speedup_vs_defaults": 1.5,
        "fastest_speedup_vs_defaults": 1.5, "tie_rule": "1%", "fastest_at_edge": "block=2, the largest offered",
        "candidates": [{"values": {"block": 1}, "status": "ok", "score": 2.0, "median_us": [4.0, 9.0]},
                       {"values": {"block": 2}, "status": "ok", "score": 1.0, "median_us": [2.0, 5.0]}]}])
    put("gpua", "lad", "tune.json", tune)

    # A sweep marked for the overview gets a row of its own below its bench's, read from its own report (whose
    # registry carries the mark); one unmarked there, or marked with no report, gets none.
    def ov_reg(marked):
        return {"name": "ov", "title": "Overview rows", "dims": ["n"], "published": None, "options": [],
                "sweeps": [{"name": "acc", "title": "t", "args": "--set p=3", "x": "n", "log_x": False,
                            "overview": "acc" in marked},
                           {"name": "plain", "title": "t", "args": "--set p=2", "x": "n", "log_x": False,
                            "overview": "plain" in marked},
                           {"name": "gone", "title": "t", "args": "--set p=4", "x": "n", "log_x": False,
                            "overview": True}],
                "rungs": [{"name": "ov_v", "kind": "vendor"}, {"name": "ov_best", "kind": "best"}]}
    put("gpua", "ov", "bench.json", report([ov_reg(())], [row("ov", 1, "ov_best", "best", "f32", [64], 5, 0.7)]))
    put("gpua", "ov", "sweep-acc.json", report([ov_reg(("acc",))], [
        row("ov", 0, "ov_v", "vendor", "f32", [64], 10, 1.0),
        row("ov", 1, "ov_best", "best", "f32", [64], 4.5, 2.22),
        row("ov", 1, "ov_best", "best", "f32", [128], 4, 2.31)], sweep="acc"))
    put("gpua", "ov", "sweep-plain.json", report([ov_reg(())], [
        row("ov", 1, "ov_best", "best", "f32", [64], 5, 9.0)], sweep="plain"))

    files = rt.blocks(root)
    readme = files["docs/results.md"]["summary"]
    ov = files["README.md"]["overview"]
    expect("| [lad](docs/lad.md) | Test | `lad_top` | 3 | 1.50–2.00× (`lad_vendor`) |" in ov,
           "the README's overview: the best rung's range against the vendor over its cases (%s)" % ov)
    expect("| [grid](docs/grid.md) | Test | `g_best` | 2 | 1.10–1.20× |" in ov,
           "no vendor rung but one beside the bar: the ratio alone (%s)" % ov)
    expect("`g_aside` (vendor, beside the bar)" in readme, "a vendor rung beside the bar is marked")
    expect(ov.index("[grid]") < ov.index("[lad]") and "gpub" not in ov, "workloads in order, old formats skipped")
    expect("| [ov](docs/ov.md) | Test | `ov_best` | 1 | 0.70× |" in ov, "the bench's row (%s)" % ov)
    expect("| [ov](docs/ov.md), sweep `acc` | Test | `ov_best` | 2 | 2.22–2.31× (`ov_v`) |" in ov,
           "a sweep marked for the overview, from its own report (%s)" % ov)
    expect(ov.index("[ov](docs/ov.md) |") < ov.index("sweep `acc`"), "the sweep's row below its bench's")
    expect("sweep `plain`" not in ov and "sweep `gone`" not in ov,
           "no row for a sweep its report does not mark, nor for one without a report (%s)" % ov)
    expect("### grid: Two dims" in readme and "### lad: A ladder" in readme, "a section per workload")
    expect(readme.index("### grid") < readme.index("### lad"), "workloads in order")
    expect("gpub" not in readme, "the first format is skipped")
    expect("f32 rows,cols=1000x3000 pad=0" in readme and "f32 rows,cols=1000x3000 pad=3" in readme,
           "columns keyed on shape and the options that vary")
    expect("op=" not in readme, "an option that does not vary is not in the header")
    expect("9.00 µs, 123 GFLOP/s, 1.20×" in readme, "the binding rate: GFLOP/s where FMA binds")
    expect("| 4 | `lad_top` (best) |" in readme and "`lad_vendor` (vendor)" in readme, "rungs marked by kind")
    expect("i32 n=2^10 | i32 n=2^20 | f32 n=2^10" in readme, "cases in order")
    ladder = files["docs/lad.md"]["ladder"]
    expect("| 2 | `lad_naive` | 800 | 2 | - | 1.00× | 40.00 |" in ladder, "published figures beside the first ladder rung")
    expect("| 3 | `lad_fast` | 200 | 8 | 4.00× | 4.00× | 20.00 |" in ladder, "published step and cumulative (by rate)")
    expect("| 1 | `lad_copy` (bound) |  | 50 | - | - | 8.00 |" in ladder, "a bound's published rate, outside the steps")
    expect("Case: i32 n=2^10; then i32 n=2^20." in ladder, "the largest case of the published type")
    expect("| 4 | `lad_top` (best) |  |  |  |  | 5.00 |" in ladder, "no published figure for the best")
    expect("docs/grid.md" in files, "a ladder for every workload")
    tuning = files["docs/tuning.md"]["tuning"]
    expect("| fastest, winner | `block=2` | 1.000 | 2.00 | 5.00 |" in tuning, "fastest and winner")
    expect("| defaults (per case) | each case's own | 1.500 | 4.00 | 5.00 |" in tuning, "per-case defaults")
    expect("(explicit)" in tuning, "the candidate list's kind")
    expect("At the edge of its list: block=2, the largest offered" in tuning, "the fastest at the end of a list")

    # Sweeps: one from its own report (x an option, other options split the lines), one from bench.json (x a dim,
    # the shape varying along it, a log axis of sizes); a sweep whose report is missing draws nothing.
    SW = {"name": "sw", "title": "Sweeps", "dims": ["n"], "published": None, "items_unit": "bytes",
          "options": [{"name": "offset"}, {"name": "pattern"}],
          "sweeps": [{"name": "offset", "title": "GB/s against offset", "args": "--set offset=0,1,2", "x": "offset",
                      "log_x": False},
                     {"name": "sizes", "title": "GB/s against size", "args": None, "x": "n", "log_x": True},
                     {"name": "absent", "title": "no report", "args": "--size 4", "x": "n", "log_x": False}],
          "rungs": [{"name": "s_a", "kind": "ladder"}, {"name": "s_best", "kind": "best"}]}
    sw_rows = [row("sw", k, rung, "ladder", "f32", [1 << 20], 10.0 + off + k, None,
                   {"offset": off, "pattern": pat})
               for off in (0, 1, 2) for pat in ("misaligned", "coalesced") for k, rung in ((0, "s_a"), (1, "s_best"))]
    sw_rows.append(dict(row("sw", 0, "s_a", "ladder", "f32", [1 << 20], 5, None, {"offset": 3, "pattern": "x"}),
                        status="WRONG"))
    put("gpua", "sw", "sweep-offset.json", report([SW], sw_rows, sweep="offset"))
    size_rows = [row("sw", 1, "s_best", "best", "f32", [n], n / 1e3, None, {"offset": 0, "pattern": "coalesced"})
                 for n in (1024, 1 << 20, 1 << 30)]
    put("gpua", "sw", "bench.json", report([SW], size_rows))
    pl = rt.plots(root)
    expect(sorted(k for k in pl if k.startswith("docs/img/sw-")) == ["docs/img/sw-offset-gpua.svg",
                                                                     "docs/img/sw-sizes-gpua.svg"],
           "a plot per sweep with data")
    off = pl.get("docs/img/sw-offset-gpua.svg", "")
    expect(off.count("<polyline") == 4, "one line per rung and pattern")
    expect("s_best pattern=misaligned" in off and "s_a pattern=coalesced" in off, "lines named by what varies")
    expect(off.count("<circle") == 12, "one marker per ok row (the WRONG row is not drawn)")
    expect("GB/s against offset" in off and "results/gpua/sw/sweep-offset.json" in off, "title and source")
    sizes = pl.get("docs/img/sw-sizes-gpua.svg", "")
    expect(sizes.count("<polyline") == 1 and "(log scale)" in sizes, "a log axis along the shape")
    expect(sizes.count("(log scale)") == 2 and ">1000<" in sizes, "rates over more than two decades: log y")
    expect(off.count("(log scale)") == 0, "linear axes otherwise")
    expect(">1 KiB<" in sizes and ">1 MiB<" in sizes and ">1 GiB<" in sizes, "byte sizes labelled")
    yt = [float(v) for v in re.findall(r'text-anchor="end">([0-9.]+)<', off)]
    steps = {round(b - a, 9) for a, b in zip(yt, yt[1:])}
    step = steps.pop() if len(steps) == 1 else 0
    expect(len(yt) >= 3 and yt[0] == 0 and step > 0 and
           round(step / 10 ** __import__("math").floor(__import__("math").log10(step)), 9) in (1, 2, 2.5, 5),
           "round linear ticks from 0, evenly spaced by 1, 2, 2.5 or 5 times a power of ten: %s" % yt)
    # the measured ceilings drawn where they are near the data (the sizes plot reaches 10^6
    # GB/s, so read and copy are drawn; the offset plot's 13 GB/s would be flattened by them: none); the last x
    # label ends at the right edge instead of running past it.
    expect('class="ceiling"' in sizes and "read ceiling 3000 GB/s" in sizes and "copy ceiling 2800 GB/s" in sizes,
           "ceilings drawn near the data")
    expect('class="ceiling"' not in off, "no ceiling far above the data")
    wide = rt.svg_plot("t", "s", "rows", "GB/s", {"a": [(1000, 1.0), (2684354, 2.0)]}, False, False,
                       [(2.5, "copy ceiling 2.5 GB/s"), (100.0, "far")])
    expect('text-anchor="end">2684354<' in wide, "the last x label is not clipped")
    expect(wide.count('class="ceiling"') == 1, "a ceiling beyond 4x the data is left out")

    # x a dim of three: the squares make one line, a shape of another aspect a line of its own, named by its shape
    SQ = {"name": "sq", "title": "Squares", "dims": ["m", "n", "k"], "published": None, "options": [{"name": "form"}],
          "sweeps": [{"name": "forms", "title": "GFLOP/s against m", "args": "--set form=all", "x": "m",
                      "log_x": True}],
          "rungs": [{"name": "q_best", "kind": "best"}]}
    sq_rows = [row("sq", 0, "q_best", "best", "f32", shp, 5.0, None, {"form": f}, gflops=40000.0, bound="ffma")
               for shp in ([1024] * 3, [2048] * 3, [4096] * 3, [16384, 128, 16384]) for f in ("nn", "tn")]
    put("gpua", "sq", "sweep-forms.json", report([SQ], sq_rows, sweep="forms"))
    put("gpua", "sq", "bench.json", report([SQ], sq_rows[:2]))
    sq = rt.plots(root).get("docs/img/sq-forms-gpua.svg", "")
    expect("q_best m,n,k=1024x1024x1024 form=tn" in sq and "q_best m,n,k=16384x128x16384 form=nn" in sq,
           "lines of one aspect, named by their first shape and the option that varies")
    expect(sq.count("<circle") == 8 and "m,n,k=2048x2048x2048" not in sq, "the squares on one line")
    expect(">GFLOP/s<" in sq and "FFMA ceiling" in sq, "compute-bound rows drawn in GFLOP/s, against the FFMA ceiling")
    expect(">GB/s<" in off, "memory-bound rows in GB/s")

    # A sweep over input files: the best rung's ratio to the vendor, a bar a case, the files' cases and the bench's
    # generated ones together in order of the bytes each moves; labelled by file name, or by what varies.
    FIL = {"name": "fil", "title": "Files", "dims": ["n"], "published": None,
           "options": [{"name": "gen", "kind": "choice"}, {"name": "input", "kind": "file"}],
           "sweeps": [{"name": "files", "title": "GB/s against n", "args": "--input d", "x": "n", "log_x": True}],
           "rungs": [{"name": "f_v", "kind": "vendor"}, {"name": "f_best", "kind": "best"}]}

    def frow(rung, kind, vs, nbytes, gen, path):
        return row("fil", 0 if kind == "vendor" else 1, rung, kind, "f32", [nbytes], 1.0, vs,
                   {"gen": gen, "input": path}, shape_label=str(nbytes), bytes_read=nbytes, bytes_written=0)
    put("gpua", "fil", "bench.json", report([FIL], [frow("f_v", "vendor", 1.0, 300, "a", ""),
                                                   frow("f_best", "best", 0.9, 300, "a", ""),
                                                   frow("f_best", "best", 1.2, 100, "b", "")]))
    put("gpua", "fil", "sweep-files.json", report([FIL], [frow("f_best", "best", 1.5, 200, "a", "/d/big.mtx"),
                                                         frow("f_v", "vendor", 1.0, 50, "a", "/d/small.mtx"),
                                                         frow("f_best", "best", 2.5, 50, "a", "/d/small.mtx")],
                                                  sweep="files"))
    rp = rt.plots(root).get("docs/img/fil-files-vs-vendor-gpua.svg", "")
    labels = re.findall(r'text-anchor="end">([^<]*)<', rp)
    expect(labels == ["small.mtx f32", "f32 100 gen=b", "big.mtx f32", "f32 300 gen=a"],
           "a bar a best row, in order of bytes, labelled by file or by what varies (%s)" % labels)
    expect(rp.count('class="bar"') == 4 and ">2.50×<" in rp and ">0.90×<" in rp, "each ratio written")
    expect(rp.count('fill="#1f77b4" class="bar"') == 2, "the files' cases in their own colour")
    expect('class="level"' in rp and "f_best against f_v" in rp, "the line at 1.0, the rungs named")
    expect("docs/img/sw-offset-vs-vendor-gpua.svg" not in rt.plots(root), "no ratio plot for a sweep without files")

    text = "a\n<!-- results:x:begin -->\nold\n<!-- results:x:end -->\nb\n"
    expect(rt.replace_block(text, "x", "new") == "a\n<!-- results:x:begin -->\nnew\n<!-- results:x:end -->\nb\n",
           "block replaced")

    # a workload's own shape label (contract v3: more than four dims, a readable label)
    cnn = {"dims": ["N", "C", "H", "W", "K", "R", "S"], "shape_format": "N{N} C{C} {H}x{W} K{K} {R}x{S}", "options": []}
    lbl = rt.case_label(cnn, ("f32", (64, 64, 56, 56, 64, 3, 3), "{}", ""), set())
    expect(lbl == "f32 N64 C64 56x56 K64 3x3", "shape_format label: %s" % lbl)
    plain = rt.case_label({"dims": ["rows", "cols"], "shape_format": None, "options": []},
                          ("f32", (4096, 4096), "{}", ""), set())
    expect(plain == "f32 rows,cols=4096x4096", "no shape_format: dims=sizes (%s)" % plain)

# scaling: a workload at 1, 2 and 4 GPUs of one model (results/<gpu>x<N>/), strong and weak; another model at one
# count alone draws nothing; the input line (it names the GPUs) does not split a case
with tempfile.TemporaryDirectory() as root:
    def put(gpu, wl, name, r):
        os.makedirs(os.path.join(root, "results", gpu, wl), exist_ok=True)
        with open(os.path.join(root, "results", gpu, wl, name), "w") as f:
            json.dump(r, f)

    SC = {"name": "sc", "title": "Across GPUs", "dims": ["nx", "ny", "nz"], "published": None,
          "options": [{"name": "steps"}, {"name": "split"}],
          "rungs": [{"name": "sc_v", "kind": "vendor"}, {"name": "sc_one", "kind": "ladder"},
                    {"name": "sc_best", "kind": "best"}]}
    strong = {1: 1000.0, 2: 520.0, 4: 280.0}
    weak = {1: 300.0, 2: 310.0, 4: 330.0}
    for n in (1, 2, 4):
        for name, us, split in (("bench.json", strong, "strong"), ("bench-weak.json", weak, "weak")):
            rows = [row("sc", 2, "sc_best", "best", "f32", [64, 64, 64], us[n], None,
                        {"steps": 100, "split": split}, input="a grid in %d slabs" % n),
                    row("sc", 1, "sc_one", "ladder", "f32", [64, 64, 64], 1000.0, None, {"steps": 100, "split": split})]
            if n == 4 and split == "strong":
                rows.append(row("sc", 2, "sc_best", "best", "f32", [8, 8, 2], 1.0, None, {"steps": 100, "split": split},
                                status="refused"))
            put("gpuax%d" % n, "sc", name, report([SC], rows))
    put("gpubx2", "sc", "bench.json", report([SC], [row("sc", 2, "sc_best", "best", "f32", [64, 64, 64], 9.0, None)]))
    sc = rt.scaling_tables(root)
    expect(set(sc) == {"sc"}, "scaling: the workload with counts from one (%s)" % sorted(sc))
    t = sc.get("sc", "")
    expect("*Strong scaling, Test* (`results/gpuax1/gpuax2/gpuax4/sc/bench.json`" in t, "strong header: %s" % t[:200])
    expect("| f32 nx,ny,nz=64x64x64 | 2 | 520.0 | 1.92× | 96% |" in t, "strong on 2 GPUs")
    expect("| f32 nx,ny,nz=64x64x64 | 4 | 280.0 | 3.57× | 89% |" in t, "strong on 4 GPUs")
    expect("| f32 nx,ny,nz=64x64x64 | 1 | 1000.0 | 1.00× | 100% |" in t, "strong on 1 GPU")
    expect("*Weak scaling, Test*" in t and "| f32 nx,ny,nz=64x64x64 | 4 | 330.0 | 91% |" in t, "weak on 4 GPUs")
    expect("8x8x2" not in t, "a case the one-GPU run lacks is left out")
    expect(rt.blocks(root).get("docs/sc.md", {}).get("scaling") == t, "the block written to docs/sc.md")

# scripts/pgm_to_png.py: a P5 with a comment, read and written as a PNG whose pixels decode back the same
import struct  # noqa: E402
import zlib  # noqa: E402
import pgm_to_png  # noqa: E402
with tempfile.TemporaryDirectory() as d:
    pgm, png = os.path.join(d, "a.pgm"), os.path.join(d, "a.png")
    raster = bytes([0, 255, 7, 128, 64, 1])
    open(pgm, "wb").write(b"P5\n# climb\n3 2\n255\n" + raster)
    w, h, got = pgm_to_png.read_pgm(pgm)
    expect((w, h, got) == (3, 2, raster), "pgm read: %r" % ((w, h, got),))
    pgm_to_png.write_png(png, w, h, got)
    data = open(png, "rb").read()
    expect(data[:8] == b"\x89PNG\r\n\x1a\n", "png signature")
    ihdr = struct.unpack(">IIBBBBB", data[16:29])
    expect(ihdr[:4] == (3, 2, 8, 0), "png header: %r" % (ihdr,))
    n = struct.unpack(">I", data[33:37])[0]
    rows = zlib.decompress(data[41:41 + n])
    expect(rows == b"\0" + raster[:3] + b"\0" + raster[3:], "png pixels")

# the script's arguments: --help and an unknown one write nothing
import subprocess  # noqa: E402
script = os.path.join(sys.argv[1], "scripts", "results_tables.py")
for args, code in ((["--help"], 0), (["--frob"], 2), (["check"], 2)):
    r = subprocess.run([sys.executable, script] + args, capture_output=True, text=True)
    expect(r.returncode == code and "updated" not in r.stdout, "results_tables.py %s: exit %d, %r" %
           (" ".join(args), r.returncode, r.stdout[:200]))

if failures:
    print("FAILED: " + "; ".join(failures))
    sys.exit(1)
print("results_tables: synthetic reports give the expected tables")
