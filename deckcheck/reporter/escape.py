"""Text made safe for a terminal: control, bidi-override and undecodable characters escaped.

The lowest module of the reporters (it imports none of them), so every reporter, the CLI and
:func:`deckcheck.reporter.options.safe` escape text the one way.
"""

from __future__ import annotations

import unicodedata

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """``text`` safe for a terminal: control, bidi-override and undecodable characters escaped."""
    if text.isprintable() and not _BIDI.intersection(text):
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs"):
            out.append(ch.encode("unicode_escape").decode("ascii"))
        else:
            out.append(ch)
    return "".join(out)


ERROR_MOST = 500
"""The most characters of an error message written to the terminal: a longer one (a value of
thousands of characters echoed back) keeps its start and its end, which name the place and the
reason, around a count of what was left out (:func:`shorten`; the CLI's error lines)."""


def shorten(text: str, most: int = ERROR_MOST) -> str:
    """``text`` as it is, or, if over ``most`` characters, its start and its last 80
    characters around ``...[N characters left out]...``."""
    if len(text) <= most:
        return text
    tail = 80
    head = most - tail - 40
    return f"{text[:head]}...[{len(text) - head - tail:,} characters left out]...{text[-tail:]}"


TERMINAL_ESCAPES = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), *map(ord, _BIDI))}
"""DEL, C1 and bidi controls -> ``\\uXXXX`` (a :meth:`str.translate` table)."""
_JSON_TERMINAL = {
    **TERMINAL_ESCAPES,
    **{c: f"\\u{c:04x}" for c in range(0x20) if c not in (9, 10, 13)},
}


def for_terminal(text: str) -> str:
    """JSON (or SARIF) text safe for a terminal and still the same JSON: DEL, C1 controls, bidi
    controls and C0 controls other than line breaks and tabs written as ``\\uXXXX`` escapes.

    (Valid JSON has those characters only inside strings, where the escape means the same.)
    The CLI does this for every output written to a terminal (without the C0 step, which
    JSON never needs and colours use).
    """
    return text.translate(_JSON_TERMINAL)
