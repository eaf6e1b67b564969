"""Rows of a data file: one JSON array per line, sorted by the passcode that opens it."""

from __future__ import annotations


def find_row(data: bytes, passcode: int, lo: int = 0, hi: int | None = None) -> int:
    """Byte offset of the line of ``data[lo:hi]`` whose array starts with ``passcode``, or -1.

    A binary search over the bytes: no line is parsed but the few it lands on, so one look-up
    in a file of thousands of rows stays cheap (a cold ``deckcheck cards show``). ``lo`` and
    ``hi`` bound the rows inside a file kept whole (its header before them).
    """
    end = len(data) if hi is None else hi
    hi = end
    while lo < hi:
        mid = (lo + hi) // 2
        start = max(lo, data.rfind(b"\n", lo, mid) + 1)
        comma = data.index(b",", start)
        code = int(data[start + 1 : comma])
        if code == passcode:
            return start
        if code < passcode:
            nl = data.find(b"\n", comma, end)
            if nl < 0:
                return -1
            lo = nl + 1
        else:
            hi = start
    return -1


def line_at(data: bytes, start: int, hi: int | None = None) -> bytes:
    """The line of ``data[:hi]`` that starts at byte ``start`` (without its newline)."""
    end = len(data) if hi is None else hi
    nl = data.find(b"\n", start, end)
    return data[start : nl if nl >= 0 else end]
