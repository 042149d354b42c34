#!/usr/bin/env python3
"""climb report's page in a real browser: headless Chromium loads the page of the committed results, its DOM holds
every chart as an SVG element (the browser parsed them), and a screenshot of it is not blank (many colours, the
charts' ink on a white page). Skipped (77) where no Chromium is installed (Debian: apt-get install chromium).
Usage: test_report_browser.py CLIMB REPO_ROOT"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from checks import check, finish

climb, root = sys.argv[1], sys.argv[2]
browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome", "chrome")
                if shutil.which(b)), None)
if not browser:
    print("SKIP: no Chromium (apt-get install chromium) to render the page")
    sys.exit(77)
if not os.path.isdir(os.path.join(root, "results")):
    print("SKIP: no committed results")
    sys.exit(77)



def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, with its filters undone."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), "8-bit RGB or RGBA only"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


tmp = tempfile.mkdtemp(prefix="climb-browser-")
try:
    page = os.path.join(tmp, "page.html")
    p = subprocess.run([climb, "report", "results", "--html", page], capture_output=True, text=True, cwd=root)
    check(p.returncode == 0, "climb report results: exit 0", p.stderr)
    src = open(page).read()
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--user-data-dir=" + os.path.join(tmp, "profile")]
    url = "file://" + page
    dom = subprocess.run([browser] + flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    check(dom.returncode == 0, "Chromium loads the page", dom.stderr[-800:])
    n_src = len(re.findall(r"<svg\b", src))
    n_dom = len(re.findall(r"<svg\b", dom.stdout))
    check(n_src > 0 and n_dom == n_src, "the browser's DOM holds every chart as SVG (%d in the page, %d)" % (n_src, n_dom))
    check(dom.stdout.count("<circle") == src.count("<circle"), "every roofline point in the DOM")
    shot = os.path.join(tmp, "shot.png")
    s = subprocess.run([browser] + flags + ["--window-size=1400,2000", "--screenshot=" + shot, url],
                       capture_output=True, text=True, timeout=120)
    check(s.returncode == 0 and os.path.exists(shot), "a screenshot", s.stderr[-800:])
    if os.path.exists(shot):
        w, h, bpp, rows = png_pixels(shot)
        check((w, h) == (1400, 2000), "the screenshot is the window's size (%dx%d)" % (w, h))
        colours, ink = set(), 0
        for row in rows[::4]:
            for x in range(0, w * bpp, 4 * bpp):
                px = row[x:x + 3]
                colours.add(px)
                ink += px != b"\xff\xff\xff"
        sampled = (h // 4) * (w // 4)
        check(len(colours) >= 16, "the screenshot has the charts' colours (%d distinct)" % len(colours))
        check(0.02 < ink / sampled < 0.9, "the screenshot is neither blank nor solid (%.1f%% ink)" % (100.0 * ink / sampled))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish()
