"""Rows of a data file: one JSON array per line, sorted by the passcode that opens it."""

from __future__ import annotations


def find_row(data: bytes, passcode: int) -> int:
    """Byte offset of the line of ``data`` whose array starts with ``passcode``, or -1.

    A binary search over the bytes: no line is parsed but the few it lands on, so one look-up
    in a file of thousands of rows stays cheap (a cold ``deckcheck cards show``).
    """
    lo, hi = 0, len(data)
    while lo < hi:
        mid = (lo + hi) // 2
        start = max(lo, data.rfind(b"\n", 0, mid) + 1)
        comma = data.index(b",", start)
        code = int(data[start + 1 : comma])
        if code == passcode:
            return start
        if code < passcode:
            nl = data.find(b"\n", comma)
            if nl < 0:
                return -1
            lo = nl + 1
        else:
            hi = start
    return -1


def line_at(data: bytes, start: int) -> bytes:
    """The line of ``data`` that starts at byte ``start`` (without its newline)."""
    end = data.find(b"\n", start)
    return data[start : end if end >= 0 else len(data)]
