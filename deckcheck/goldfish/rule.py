"""Draw rules for goldfishing: opening hand size and the draws of each of the player's turns.

:class:`DrawRules` is deckcheck's own small view of an era's rules; :func:`draw_rules_for`
builds it from ``deckcheck.rule.format`` (``get_format(name).era_at(date)``) when that module is
available, and from a small built-in table otherwise.
"""

from __future__ import annotations

import enum
from datetime import date
from typing import TYPE_CHECKING

from msgspec import Struct

if TYPE_CHECKING:
    from deckcheck.data.dataset import Dataset
    from deckcheck.rule.format import Era, Format


class Going(enum.StrEnum):
    """Whether the player goes first or second."""

    FIRST = "first"
    SECOND = "second"


class DrawRules(Struct, frozen=True):
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
            from deckcheck.error import GoldfishError

            raise GoldfishError("hand_size and draw_per_turn must not be negative")

    @classmethod
    def from_era(cls, era: Era) -> DrawRules:
        """The draw rules of an era: its hand size, first-turn draw and Draw Phase rule."""
        return cls(
            hand_size=era.hand_size,
            first_player_draws=era.first_player_draws,
            draw_per_turn=era.draw_per_turn,
            draw_up_to=era.draw_up_to,
        )

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


def draw_rules_for(
    format_name: str | Format | None = None,
    when: date | None = None,
    data: Dataset | None = None,
) -> DrawRules:
    """The draw rules of a format (default ``tcg``, as ``validate``) at a date (default today).

    The era in force comes from the format registry of ``data`` (the active dataset when None):
    the same era :func:`deckcheck.validate` checks the deck against. Raises
    :class:`~deckcheck.error.UnknownFormatError` for an unknown name.
    """
    from deckcheck.data.dataset import resolve_data

    when = when or date.today()
    fmt = format_name if format_name is not None else "tcg"
    if isinstance(fmt, str):
        fmt = resolve_data(data).format(fmt)
    return DrawRules.from_era(fmt.era_at(when))
