"""The globs of a repository configuration (``include``, ``exclude``, ``[folders]``, ``[ignore]``),
compiled to regular expressions; see :mod:`deckcheck.run.config` for their rules. A module of its
own, so the configuration's pydantic model can check them without importing the configuration.
"""

from __future__ import annotations

import re


def _segment(part: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = part.find("]", i + 2 if part[i + 1 : i + 2] in ("!", "^") else i + 1)
            if end < 0:
                out.append(re.escape(ch))
            else:
                body = part[i + 1 : end]
                neg = body[:1] in ("!", "^")
                body = body[1:] if neg else body
                body = body.replace("\\", "\\\\")
                out.append(f"[{'^' if neg else ''}{body}]")
                i = end
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob (see the module docstring) as a compiled regular expression.

    Raises ValueError for an empty or unusable pattern.
    """
    pat = pattern.strip().replace("\\", "/")
    if not pat or pat == "/":
        raise ValueError(f"empty glob {pattern!r}")
    anchored = "/" in pat.rstrip("/")
    pat = pat.strip("/")
    while pat.startswith("./"):
        pat = pat[2:]
    parts = [p for p in pat.split("/") if p not in ("", ".")]
    if not parts:
        raise ValueError(f"glob {pattern!r} names no path")
    if any(p == ".." for p in parts):
        raise ValueError(f"glob {pattern!r} leaves the repository ('..')")
    body = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            body += ".*" if last else "(?:[^/]+/)*"
        else:
            body += _segment(part) + ("" if last else "/")
    lead = "" if anchored else "(?:.*/)?"
    try:
        return re.compile(f"^{lead}{body}(?:/.*)?$", re.DOTALL)
    except re.error as exc:
        raise ValueError(f"bad glob {pattern!r}: {exc}") from None


def matches(pattern: str, path: str) -> bool:
    """Whether a POSIX path relative to the repository root matches a glob."""
    return glob_regex(pattern).match(path) is not None
