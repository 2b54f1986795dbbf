"""Enough of PNG to count what a screenshot drew: 8-bit RGB or RGBA, not interlaced (what Chromium
writes), the five row filters undone. The tests have no imaging library, and need none for this."""

from __future__ import annotations

import struct
import zlib

import numpy as np


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _unfilter(kind: int, row: bytearray, prev: bytearray, bpp: int) -> None:
    n = len(row)
    if kind == 1:
        for i in range(bpp, n):
            row[i] = (row[i] + row[i - bpp]) & 0xFF
    elif kind == 2:
        for i in range(n):
            row[i] = (row[i] + prev[i]) & 0xFF
    elif kind == 3:
        for i in range(n):
            left = row[i - bpp] if i >= bpp else 0
            row[i] = (row[i] + (left + prev[i]) // 2) & 0xFF
    elif kind == 4:
        for i in range(n):
            left = row[i - bpp] if i >= bpp else 0
            up_left = prev[i - bpp] if i >= bpp else 0
            row[i] = (row[i] + _paeth(left, prev[i], up_left)) & 0xFF


def pixels(data: bytes) -> np.ndarray:
    """The image as a (height, width, channels) array of uint8."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, head = 8, bytearray(), b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            head = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", head)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "only 8-bit RGB(A), not interlaced"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(bytes(idat))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        row = bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(raw[start], row, prev, bpp)
        rows.append(bytes(row))
        prev = row
    return np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(height, width, bpp)


def drawn(
    data: bytes, background: tuple[int, int, int] = (255, 255, 255), tolerance: int = 8
) -> int:
    """How many pixels differ from ``background`` by more than ``tolerance`` in some channel."""
    img = pixels(data)[:, :, :3].astype(np.int16)
    far = np.abs(img - np.array(background, dtype=np.int16)) > tolerance
    return int(far.any(axis=2).sum())
