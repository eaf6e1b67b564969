"""The card model: :class:`Card` (facts only, immutable), :class:`Lookup` and the enums and bits
that describe a card (kinds, deck zones, Extra Deck kinds, flags, EDOPro type bits).
"""

from __future__ import annotations

import enum
from datetime import date

from msgspec import Struct

from deckcheck.card.release import Region, Release

INDEX_FORMAT = 2
"""Version of the bundled index file layout."""

FIELDS = (
    "passcode",
    "alias",
    "alias_kind",
    "name",
    "name_ja",
    "name_zh",
    "type",
    "race",
    "attribute",
    "level",
    "scale",
    "flags",
    "konami_id",
    "ocg_date",
    "tcg_date",
    "archetypes",
    "release",
)
"""Column order of a card row in the index file."""

MAX_PASSCODE = 0xFFFFFFFF
"""Largest passcode (ydke and Omega codes store passcodes as unsigned 32-bit integers)."""

# alias kinds
ALIAS_NONE = 0
ALIAS_ALT_ART = 1
ALIAS_TREATED_AS = 2
ALIAS_VARIANT = 3  # pre-release code or GOAT-format version of an official card

# flags (deckcheck's own bits, not EDOPro's)
FLAG_OCG = 0x1
FLAG_TCG = 0x2
FLAG_TOKEN = 0x4
FLAG_SKILL = 0x8
FLAG_RUSH = 0x10
FLAG_LEGEND = 0x20
FLAG_UNOFFICIAL = 0x40
FLAG_PRERELEASE = 0x80
FLAG_GOAT = 0x100
FLAG_SPEED = 0x200

# EDOPro type bits
TYPE_MONSTER = 0x1
TYPE_SPELL = 0x2
TYPE_TRAP = 0x4
TYPE_FUSION = 0x40
TYPE_SYNCHRO = 0x2000
TYPE_TOKEN = 0x4000
TYPE_XYZ = 0x800000
TYPE_PENDULUM = 0x1000000
TYPE_LINK = 0x4000000
TYPE_SKILL = 0x8000000
TYPE_BITS = 0x1FFFFFFF
"""Mask of the type bits kept in the index."""

_SUBTYPE_NAMES = (
    (0x10, "Normal"),
    (0x20, "Effect"),
    (0x40, "Fusion"),
    (0x80, "Ritual"),
    (0x100, "Trap Monster"),
    (0x200, "Spirit"),
    (0x400, "Union"),
    (0x800, "Gemini"),
    (0x1000, "Tuner"),
    (0x2000, "Synchro"),
    (0x4000, "Token"),
    (0x10000, "Quick-Play"),
    (0x20000, "Continuous"),
    (0x40000, "Equip"),
    (0x80000, "Field"),
    (0x100000, "Counter"),
    (0x200000, "Flip"),
    (0x400000, "Toon"),
    (0x800000, "Xyz"),
    (0x1000000, "Pendulum"),
    (0x2000000, "Special Summon"),
    (0x4000000, "Link"),
)

_RACES = (
    "Warrior",
    "Spellcaster",
    "Fairy",
    "Fiend",
    "Zombie",
    "Machine",
    "Aqua",
    "Pyro",
    "Rock",
    "Winged Beast",
    "Plant",
    "Insect",
    "Thunder",
    "Dragon",
    "Beast",
    "Beast-Warrior",
    "Dinosaur",
    "Fish",
    "Sea Serpent",
    "Reptile",
    "Psychic",
    "Divine-Beast",
    "Creator God",
    "Wyrm",
    "Cyberse",
    "Illusion",
    "Cyborg",
    "Magical Knight",
    "High Dragon",
    "Omega Psychic",
    "Celestial Warrior",
    "Galaxy",
)
_ATTRIBUTES = ("EARTH", "WATER", "FIRE", "WIND", "LIGHT", "DARK", "DIVINE")


class CardKind(enum.StrEnum):
    """What a card is, at the top level."""

    MONSTER = "Monster"
    SPELL = "Spell"
    TRAP = "Trap"
    SKILL = "Skill"
    TOKEN = "Token"


class DeckZone(enum.StrEnum):
    """Where a card is built into a deck: Main Deck, Extra Deck, or not a deck card."""

    MAIN = "main"
    EXTRA = "extra"
    NONE = "none"


class ExtraKind(enum.StrEnum):
    """The kind of Extra Deck monster."""

    FUSION = "Fusion"
    SYNCHRO = "Synchro"
    XYZ = "Xyz"
    LINK = "Link"


class Match(enum.StrEnum):
    """How a lookup query reached its card."""

    PASSCODE = "passcode"
    """The exact passcode of the card."""
    UNPADDED = "unpadded-passcode"
    """A passcode written without its leading zeros (``2511`` for ``00002511``)."""
    PADDED = "padded-passcode"
    """A passcode written with leading zeros (``08949584``)."""
    ALTERNATE_ART = "alternate-artwork"
    """The passcode of an alternate artwork; the result is the original card."""
    PRERELEASE = "prerelease"
    """A pre-release code that maps to the card's official passcode."""
    VARIANT = "variant"
    """A format-specific version of a card (such as a GOAT-format entry)."""
    NAME_EN = "name-en"
    """The English name."""
    NAME_JA = "name-ja"
    """The Japanese name."""
    NAME_ZH = "name-zh"
    """The Simplified Chinese name."""
    NAME_KO = "name-ko"
    """The Korean name."""
    NAME_FR = "name-fr"
    """The French name."""
    NAME_DE = "name-de"
    """The German name."""
    NAME_IT = "name-it"
    """The Italian name."""
    NAME_ES = "name-es"
    """The Spanish name."""
    NAME_PT = "name-pt"
    """The Portuguese name."""
    NAME_ZH_TW = "name-zh-tw"
    """The Traditional Chinese name."""


class Card(Struct, frozen=True):
    """One card of the index: facts only, immutable.

    ``passcode`` is this record's code; ``canonical`` the code of the original card it counts as
    (itself unless it is an alternate artwork or a variant); ``treated_as`` the other card name it
    is *always treated as* (Harpie Lady 1 -> "Harpie Lady"), if any.
    """

    passcode: int
    canonical: int
    name: str
    name_ja: str | None
    name_zh: str | None
    type: int
    race: int
    attribute: int
    level: int
    scale: int
    flags: int
    konami_id: int | None
    ocg_date: date | None
    tcg_date: date | None
    archetypes: tuple[str, ...]
    treated_as: str | None = None
    treated_as_passcode: int | None = None
    alias_kind: int = ALIAS_NONE
    base_name: str | None = None
    """For a variant (pre-errata, GOAT or pre-release version): the original card's name."""
    releases: tuple[Release, ...] = ()
    """First release per region (OCG, TCG North America / Europe, Master Duel), with sources."""

    def release(self, region: Region) -> Release | None:
        """The card's first release in ``region`` (None: not released there, per the data)."""
        for rel in self.releases:
            if rel.region is region:
                return rel
        return None

    @property
    def limit_name(self) -> str:
        """The name whose copy limit this card counts toward."""
        return self.treated_as or self.base_name or self.name

    @property
    def is_alternate_art(self) -> bool:
        """True for an alternate-artwork record of another passcode."""
        return self.alias_kind == ALIAS_ALT_ART

    @property
    def kind(self) -> CardKind:
        """Monster, Spell, Trap, Skill or Token."""
        if self.type & TYPE_SKILL or self.flags & FLAG_SKILL:
            return CardKind.SKILL
        if self.type & TYPE_TOKEN:
            return CardKind.TOKEN
        if self.type & TYPE_MONSTER:
            return CardKind.MONSTER
        if self.type & TYPE_SPELL:
            return CardKind.SPELL
        if self.type & TYPE_TRAP:
            return CardKind.TRAP
        return CardKind.MONSTER

    @property
    def subtypes(self) -> tuple[str, ...]:
        """Subtype words (Effect, Tuner, Quick-Play, Link...) in a fixed order."""
        if self.kind is CardKind.SKILL:
            return ()
        return tuple(name for bit, name in _SUBTYPE_NAMES if self.type & bit)

    @property
    def extra_kind(self) -> ExtraKind | None:
        """Fusion, Synchro, Xyz or Link for Extra Deck monsters, else None."""
        if not self.type & TYPE_MONSTER or self.type & (TYPE_TOKEN | TYPE_SKILL):
            return None
        if self.type & TYPE_LINK:
            return ExtraKind.LINK
        if self.type & TYPE_XYZ:
            return ExtraKind.XYZ
        if self.type & TYPE_SYNCHRO:
            return ExtraKind.SYNCHRO
        if self.type & TYPE_FUSION:
            return ExtraKind.FUSION
        return None

    @property
    def zone(self) -> DeckZone:
        """The deck this card is built into (Main, Extra) or NONE for Tokens and Skills."""
        kind = self.kind
        if kind in (CardKind.TOKEN, CardKind.SKILL):
            return DeckZone.NONE
        return DeckZone.EXTRA if self.extra_kind is not None else DeckZone.MAIN

    @property
    def is_pendulum(self) -> bool:
        """True for Pendulum monsters."""
        return bool(self.type & TYPE_PENDULUM) and bool(self.type & TYPE_MONSTER)

    @property
    def is_link(self) -> bool:
        """True for Link monsters."""
        return self.extra_kind is ExtraKind.LINK

    @property
    def is_token(self) -> bool:
        """True for Token cards (never deck cards)."""
        return self.kind is CardKind.TOKEN

    @property
    def is_skill(self) -> bool:
        """True for Speed Duel / Duel Links Skill cards."""
        return bool(self.type & TYPE_SKILL or self.flags & FLAG_SKILL)  # (kind is SKILL)

    @property
    def is_rush(self) -> bool:
        """True for Rush Duel cards."""
        return bool(self.flags & FLAG_RUSH)

    @property
    def is_legend(self) -> bool:
        """True for Rush Duel Legend cards."""
        return bool(self.flags & FLAG_LEGEND)

    @property
    def is_unofficial(self) -> bool:
        """True for anime, manga, video-game, custom or otherwise illegal cards."""
        return bool(self.flags & FLAG_UNOFFICIAL)

    @property
    def is_prerelease(self) -> bool:
        """True for a pre-release code (announced, not yet released under its passcode)."""
        return bool(self.flags & FLAG_PRERELEASE)

    @property
    def is_goat_variant(self) -> bool:
        """True for a GOAT-format version of an errata'd card."""
        return bool(self.flags & FLAG_GOAT)

    @property
    def in_ocg(self) -> bool:
        """True if the card exists in the OCG."""
        return bool(self.flags & FLAG_OCG)

    @property
    def in_tcg(self) -> bool:
        """True if the card exists in the TCG."""
        return bool(self.flags & FLAG_TCG)

    @property
    def race_name(self) -> str | None:
        """Monster type (Dragon, Spellcaster...), if any."""
        for i, name in enumerate(_RACES):
            if self.race & (1 << i):
                return name
        return None

    @property
    def attribute_name(self) -> str | None:
        """Monster attribute (LIGHT, DARK...), if any."""
        for i, name in enumerate(_ATTRIBUTES):
            if self.attribute & (1 << i):
                return name
        return None

    @property
    def type_line(self) -> str:
        """A readable type line: ``Monster / Dragon / Effect / Tuner`` or ``Spell / Quick-Play``."""
        parts = [self.kind.value]
        if self.kind is CardKind.MONSTER and self.race_name:
            parts.append(self.race_name)
        parts.extend(self.subtypes)
        return " / ".join(parts)


class Lookup(Struct, frozen=True):
    """The result of a lookup: the card reached, the record the query named, and how."""

    card: Card
    """The card reached (the original, for alternate artworks and pre-release codes)."""
    record: Card
    """The record the query named (an alternate artwork's own record, for instance)."""
    match: Match
    """Which case applied."""
    query: str

    @property
    def early(self) -> bool:
        """True for a pre-release code of a card since released (read as the released card)."""
        return self.match is Match.PRERELEASE and self.card.passcode != self.record.passcode
