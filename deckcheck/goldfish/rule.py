"""Draw rules for goldfishing: opening hand size and the draws of each of the player's turns.

:class:`DrawRules` is deckcheck's own small view of an era's rules; :func:`draw_rules_for`
builds it from ``deckcheck.format`` (``get_format(name).era_at(date)``) when that module is
available, and from a small built-in table otherwise.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date
from typing import Any

NO_FIRST_DRAW_SINCE = date(2014, 4, 1)
"""From this date (TCG; the OCG changed a few weeks earlier) the first player skips the draw."""


class Going(enum.StrEnum):
    """Whether the player goes first or second."""

    FIRST = "first"
    SECOND = "second"


@dataclass(frozen=True, slots=True)
class DrawRules:
    """How many cards a player sees: opening hand, first-turn draw, per-turn draws.

    ``draw_up_to`` (Rush Duel) makes each Draw Phase draw until the hand holds that many cards
    (at least ``draw_per_turn``). A goldfish does not really play, so with ``draw_up_to`` set
    deckcheck assumes the player empties the hand every turn when ``plays_whole_hand`` is true
    (each later Draw Phase then draws ``draw_up_to`` cards), or plays nothing when false (each
    Draw Phase draws ``draw_per_turn``).
    """

    hand_size: int = 5
    first_player_draws: bool = False
    draw_per_turn: int = 1
    draw_up_to: int | None = None
    plays_whole_hand: bool = True

    def __post_init__(self) -> None:
        if self.hand_size < 0 or self.draw_per_turn < 0:
            raise ValueError("hand_size and draw_per_turn must not be negative")

    def draws(self, going: Going, turns: int) -> list[int]:
        """Cards drawn in the Draw Phase of each of the player's first ``turns`` turns."""
        out: list[int] = []
        for turn in range(1, turns + 1):
            if turn == 1:
                first_draw = going is Going.SECOND or self.first_player_draws
                n = self.draw_per_turn
                if self.draw_up_to is not None:
                    n = max(n, self.draw_up_to - self.hand_size)
                out.append(n if first_draw else 0)
            elif self.draw_up_to is not None and self.plays_whole_hand:
                out.append(max(self.draw_per_turn, self.draw_up_to))
            else:
                out.append(self.draw_per_turn)
        return out

    def seen(self, going: Going, turns: int) -> list[int]:
        """Cards seen (opening hand plus draws) by each of the player's first ``turns`` turns."""
        total = self.hand_size
        out = []
        for n in self.draws(going, turns):
            total += n
            out.append(total)
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "hand_size": self.hand_size,
            "first_player_draws": self.first_player_draws,
            "draw_per_turn": self.draw_per_turn,
            "draw_up_to": self.draw_up_to,
            "plays_whole_hand": self.plays_whole_hand,
        }


_BUILTIN = {"advanced", "tcg", "ocg", "speed", "speed-duel", "rush", "rush-duel", "goat", "edison"}


def _key(name: str) -> str:
    return name.casefold().replace("_", "-").replace(" ", "-")


def _fallback(name: str, when: date) -> DrawRules:
    key = _key(name)
    if "speed" in key:
        return DrawRules(hand_size=4)
    if "rush" in key:
        return DrawRules(hand_size=5, draw_up_to=5)
    old = key in {"goat", "edison"} or when < NO_FIRST_DRAW_SINCE
    return DrawRules(first_player_draws=old)


def draw_rules_for(format_name: str | None = None, when: date | None = None) -> DrawRules:
    """The draw rules of a format at a date (today when None; plain Advanced rules when no format).

    Uses ``deckcheck.format.get_format(name).era_at(date)`` when that module exists (its errors,
    such as :class:`~deckcheck.error.UnknownFormatError`, propagate); otherwise a built-in table:
    Speed Duel 4-card hands, Rush Duel draws up to 5, the first player draws before April 2014.
    """
    when = when or date.today()
    if format_name is None:
        return _fallback("advanced", when)
    try:
        from deckcheck import format as fmt_module
    except ImportError:
        return _fallback(format_name, when)
    get_format = getattr(fmt_module, "get_format", None)
    if get_format is None:
        return _fallback(format_name, when)
    from deckcheck.error import UnknownFormatError

    try:
        era = get_format(format_name).era_at(when)
    except UnknownFormatError:
        if _key(format_name) in _BUILTIN:
            return _fallback(format_name, when)
        raise
    base = _fallback(format_name, when)
    up_to = getattr(era, "draw_up_to", base.draw_up_to)
    return DrawRules(
        hand_size=int(getattr(era, "hand_size", base.hand_size)),
        first_player_draws=bool(getattr(era, "first_player_draws", base.first_player_draws)),
        draw_per_turn=int(getattr(era, "draw_per_turn", base.draw_per_turn)),
        draw_up_to=None if up_to is None else int(up_to),
    )
