#!/usr/bin/env python3
"""Converts a binary PGM (P5, maxval <= 255), such as `climb bench conv --output`'s, to an 8-bit grayscale PNG, so
that the docs can show it. Standard library only.
Usage: scripts/pgm_to_png.py IN.pgm OUT.png
"""
import struct
import sys
import zlib


def read_pgm(path):
    data = open(path, "rb").read()
    tokens, i = [], 0
    while len(tokens) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] not in (b"\n", b""):
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        tokens.append(data[i:j])
        i = j
    if tokens[0] != b"P5" or int(tokens[3]) > 255:
        sys.exit("%s: not a P5 PGM with maxval <= 255" % path)
    w, h = int(tokens[1]), int(tokens[2])
    raster = data[i + 1:i + 1 + w * h]
    if len(raster) != w * h:
        sys.exit("%s: the raster is cut short" % path)
    return w, h, raster


def write_png(path, w, h, raster):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + raster[y * w:(y + 1) * w] for y in range(h))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    open(path, "wb").write(png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write_png(sys.argv[2], *read_pgm(sys.argv[1]))
