"""What a ratio sweep varies: ``NAME=a..b`` texts and ``{name: [copies]}`` tables as
:class:`Vary` values (a leaf: specs read ``[vary]`` tables with it, sweeps run them)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from msgspec import Struct

from deckcheck.boundary import read_number
from deckcheck.error import GoldfishError

MAX_COPIES = 60
"""Most copies a varied card or category may take."""
_VARY = re.compile(r"^(?P<name>.+?)\s*=\s*(?P<spec>[0-9 ,.]+)$")


class Vary(Struct, frozen=True):
    """One varied card or category and the copies to try."""

    name: str
    values: tuple[int, ...]


def parse_vary(text: str) -> Vary:
    """``NAME=a..b``, ``NAME=a,b,c`` or ``NAME=a``; :class:`GoldfishError` otherwise."""
    m = _VARY.match(text.strip())
    hint = "expected NAME=a..b (or NAME=a,b,c), e.g. starter=6..10"
    if m is None:
        raise GoldfishError(f"vary {text!r}: {hint}")
    values: list[int] = []
    for part in m.group("spec").replace(" ", "").split(","):
        low, sep, high = part.partition("..")
        a, b = read_number(low, MAX_COPIES), read_number(high, MAX_COPIES) if sep else None
        if a is None or (sep and b is None) or (not sep and high):
            raise GoldfishError(f"vary {text!r}: {hint}")
        b = a if b is None else b
        if a > b or b > MAX_COPIES:
            raise GoldfishError(f"vary {text!r}: a range a..b needs a <= b <= {MAX_COPIES}")
        values += [v for v in range(a, b + 1) if v not in values]
    return Vary(m.group("name").strip(), tuple(values))


def sweep_request(vary: Sequence[str] | Mapping[str, Sequence[int]]) -> tuple[Vary, ...]:
    """``["starter=6..10", ...]`` or ``{"starter": [6, 7, 8]}`` as :class:`Vary` values."""
    if isinstance(vary, Mapping):
        out = []
        for name, values in vary.items():
            vals = tuple(values)
            if not vals or any(
                isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_COPIES
                for v in vals
            ):
                raise GoldfishError(f"vary {name!r}: expected copies from 0 to {MAX_COPIES}")
            out.append(Vary(str(name), vals))
        return tuple(out)
    return tuple(parse_vary(t) for t in vary)
