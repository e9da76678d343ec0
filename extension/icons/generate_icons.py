#!/usr/bin/env python3
"""Draws the extension's icons (a pointer arrow on a rounded tile) as PNGs, with the standard library only.

Dev-only: the build does not copy this file. Run `python3 extension/icons/generate_icons.py` after
changing the mark, and commit the PNGs it writes next to it.
"""

import pathlib
import struct
import zlib

SIZES = (16, 32, 48, 128)
SUPERSAMPLE = 4  # samples per pixel side, for smooth edges

TILE = (31, 95, 214)  # the popup's accent blue
ARROW = (255, 255, 255)
TILE_RADIUS = 0.22  # corner radius, as a share of the side

# The pointer, in a 0..1 square: tip top-left, tail bottom-right.
POINTER = [
    (0.30, 0.18),
    (0.30, 0.78),
    (0.44, 0.65),
    (0.55, 0.86),
    (0.65, 0.81),
    (0.55, 0.61),
    (0.73, 0.60),
]


def inside_polygon(x, y, polygon):
    """Even-odd rule."""
    hit = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def inside_tile(x, y):
    r = TILE_RADIUS
    cx = min(max(x, r), 1 - r)
    cy = min(max(y, r), 1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def render(size):
    """RGBA rows: each pixel is the mean colour of its covered samples, alpha the share covered."""
    rows = []
    n = SUPERSAMPLE
    for py in range(size):
        row = bytearray()
        for px in range(size):
            tile = arrow = 0
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) / size
                    y = (py + (sy + 0.5) / n) / size
                    if inside_tile(x, y):
                        if inside_polygon(x, y, POINTER):
                            arrow += 1
                        else:
                            tile += 1
            covered = tile + arrow
            if covered == 0:
                row += bytes((0, 0, 0, 0))
                continue
            rgb = tuple(round((TILE[i] * tile + ARROW[i] * arrow) / covered) for i in range(3))
            row += bytes(rgb + (round(255 * covered / (n * n)),))
        rows.append(bytes(row))
    return rows


def png(size, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    here = pathlib.Path(__file__).resolve().parent
    for size in SIZES:
        path = here / f"icon-{size}.png"
        path.write_bytes(png(size, render(size)))
        print(f"wrote {path.relative_to(here.parent.parent)}")


if __name__ == "__main__":
    main()
