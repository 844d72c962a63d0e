"""The app's icons, drawn at build time: an amber die showing five on black (the app's accent and
background colours), as PNG files written with zlib alone (no imaging library)."""
from __future__ import annotations

import math
import struct
import zlib

AMBER = (0xFF, 0xD5, 0x4F)  # Flet's AMBER_300, the app's accent
BLACK = (0, 0, 0)
PIPS = ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))

#: file name → (size in px, die side as a share of the size, opaque black background)
ICONS = {
    "favicon.png": (32, 0.94, False),
    "icons/icon-192.png": (192, 0.86, False),
    "icons/icon-512.png": (512, 0.86, False),
    # maskable: the launcher may cut the icon to a circle of 80 % of its size, so the die fits in it
    "icons/icon-maskable-192.png": (192, 0.56, True),
    "icons/icon-maskable-512.png": (512, 0.56, True),
    "icons/apple-touch-icon-192.png": (192, 0.70, True),
}


def _coverage(distance: float) -> float:
    """How much of a pixel lies inside a shape whose signed distance from the pixel's centre is given."""
    return min(1.0, max(0.0, 0.5 - distance))


def die(size: int, side: float, opaque: bool) -> bytes:
    """One icon as RGBA rows (a filter byte before each)."""
    half = size * side / 2
    corner = half * 0.28
    pip = half * 0.17
    spread = half * 0.5
    centre = size / 2
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        py = y + 0.5 - centre
        for x in range(size):
            px = x + 0.5 - centre
            qx, qy = abs(px) - (half - corner), abs(py) - (half - corner)
            outside = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - corner
            body = _coverage(outside)
            hole = 0.0
            if body > 0:
                for gx, gy in PIPS:
                    hole = max(hole, _coverage(math.hypot(px - gx * spread, py - gy * spread) - pip))
            amber = body * (1 - hole)
            if opaque:
                rows += bytes(round(a * amber + b * (1 - amber)) for a, b in zip(AMBER, BLACK)) + b"\xff"
            else:
                # the pips are black on the die; outside it the icon is transparent
                alpha = body
                colour = [round(a * (1 - hole) + b * hole) for a, b in zip(AMBER, BLACK)]
                rows += bytes(colour) + bytes([round(255 * alpha)])
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    """A PNG file (8-bit RGBA) from rows with their filter bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def icons() -> dict[str, bytes]:
    """Every icon file of the build by its path in the folder."""
    return {name: png(size, die(size, side, opaque)) for name, (size, side, opaque) in ICONS.items()}
