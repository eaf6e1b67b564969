#!/usr/bin/env python3
"""Write the golden validation decks under ``tests/data/decks/{legal,illegal}/``.

Each deck is built on purpose to be legal, or to break specific rules; the codes it must
produce are written here, by hand, into ``tests/data/decks/expected.toml`` beside the decks
(format, date, options and the expected set of error/warning codes). The validation tests read
that manifest: a deck plus its entry is a complete test. Run once; commit the output.

Usage: ``python scripts/make_golden_decks.py``
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deckcheck.card import CardKind, DeckZone  # noqa: E402
from deckcheck.data.dataset import Dataset  # noqa: E402

OUT = ROOT / "tests" / "data" / "decks"
DATA = Dataset.active()
ix = DATA.cards


def vanilla(n: int, before: date = date(2002, 3, 8), skip: set[int] | None = None) -> list[int]:
    """``n`` distinct old Normal Monsters (never on any list), one copy each, by passcode."""
    skip = skip or set()
    forbidden_one = {"Forbidden One"}
    out = []
    for c in ix:
        if (
            c.kind is CardKind.MONSTER
            and "Normal" in c.subtypes
            and c.zone is DeckZone.MAIN
            and not c.is_pendulum
            and c.canonical == c.passcode
            and c.tcg_date is not None
            and c.ocg_date is not None
            and c.tcg_date <= before
            and c.in_ocg
            and c.in_tcg
            and not any(w in c.name for w in forbidden_one)
            and c.passcode not in skip
        ):
            out.append(c.passcode)
    assert len(out) >= n, (len(out), n)
    return out[:n]


def rush_normals(n: int) -> list[int]:
    """``n`` distinct Rush Duel Normal Monsters that are not Legends."""
    out = [
        c.passcode
        for c in ix
        if c.is_rush
        and not c.is_legend
        and not c.is_prerelease
        and c.canonical == c.passcode
        and c.kind is CardKind.MONSTER
        and "Normal" in c.subtypes
        and c.zone is DeckZone.MAIN
    ]
    return out[:n]


def extra_of(kind: str, n: int, before: date = date(2012, 1, 1)) -> list[int]:
    """``n`` distinct old Extra Deck monsters of a kind (Fusion, Synchro, Xyz)."""
    out = [
        c.passcode
        for c in ix
        if c.extra_kind is not None
        and c.extra_kind.value == kind
        and c.canonical == c.passcode
        and c.tcg_date is not None
        and c.tcg_date <= before
        and c.in_ocg
        and c.in_tcg
        and not c.is_pendulum
    ]
    return out[:n]


def by_name(name: str) -> int:
    """Passcode of a card by exact name."""
    return ix.lookup_name(name).card.passcode


def ydk(
    main: list[int],
    extra: list[int] | None = None,
    side: list[int] | None = None,
    extra_lines: list[str] | None = None,
) -> str:
    """A .ydk file (``extra_lines`` are written at the end of the Main Deck section)."""
    lines = ["#created by deckcheck golden tests", "#main", *map(str, main), *(extra_lines or [])]
    lines += ["#extra", *map(str, extra or []), "!side", *map(str, side or [])]
    return "\n".join(lines) + "\n"


def ydke(main: list[int], extra: list[int], side: list[int]) -> str:
    """A ydke:// URL (deckcheck's own encoder)."""
    from deckcheck.deck.io.ydke import encode_ydke

    return encode_ydke(main, extra, side) + "\n"


CASES: list[tuple[str, str, str, dict[str, object]]] = []


def case(
    folder: str, name: str, text: str, fmt: str, on: str, codes: list[str], **opts: object
) -> None:
    """Record a deck file and its expectation."""
    CASES.append((f"{folder}/{name}", text, fmt, {"date": on, "codes": sorted(set(codes)), **opts}))


def build() -> None:
    """Define every golden deck."""
    v40 = vanilla(40)
    v60 = vanilla(60)
    fus = extra_of("Fusion", 15)
    syn = extra_of("Synchro", 15)
    xyz = extra_of("Xyz", 15)
    ash, ash_alt = 14558127, 14558128
    pog = 55144522
    dm, dm_alt = 46986414, 36996508
    harpie, harpie1 = 76812113, 91932350
    talker = 86066372
    token = 645088  # Gadget Token
    maxx = 23434538
    anime = by_name("Sorcerer of Dark Magic (Anime)")
    pre_unreleased = next(
        c.passcode for c in ix if c.is_prerelease and c.canonical == c.passcode and not c.is_rush
    )
    ocg_only = 2957055  # Wicked Dragon with the Ersatz Head (OCG only)
    skills = [c.passcode for c in ix if c.is_skill and not c.is_unofficial][:3]

    def filler(n: int, used: set[int]) -> list[int]:
        """n cards: old vanilla monsters not in ``used``, three copies each."""
        out: list[int] = []
        for code in v60:
            if code in used:
                continue
            out += [code] * 3
            if len(out) >= n:
                break
        return out[:n]

    # ---------------------------------------------------------------- legal
    side15 = [c for c in v60[-5:] for _ in range(3)]
    used_side = set(side15)
    m = [ash] * 3 + filler(37, {ash} | used_side)
    case(
        "legal",
        "tcg-modern-ash.ydk",
        ydk(m, [*fus[:5], talker], side15[:6]),
        "tcg",
        "2025-06-01",
        [],
    )
    m = [ash, ash_alt, ash, *filler(37, {ash})]
    case("legal", "tcg-alt-art-three.ydk", ydk(m), "tcg", "2025-06-01", [])
    m = [dm, dm_alt, 46986415, *filler(37, {dm})]
    case("legal", "tcg-dark-magician-alt-arts.ydk", ydk(m), "tcg", "2024-01-01", [])
    m = [harpie, harpie, harpie1, *filler(37, {harpie, harpie1})]
    case("legal", "tcg-harpie-treated-as.ydk", ydk(m), "tcg", "2024-01-01", [])
    m = filler(40, set())
    case("legal", "tcg-2003-no-side.ydk", ydk(m), "tcg", "2003-01-15", [])
    case(
        "legal",
        "tcg-2003-side-15.ydk",
        ydk(filler(40, used_side), [], side15),
        "tcg",
        "2003-01-15",
        [],
    )
    m = filler(45, set())
    goat_fus = extra_of("Fusion", 2, date(2004, 6, 1))
    case("legal", "goat-2005.ydk", ydk(m, goat_fus), "goat", "2005-09-01", [])
    ed = extra_of("Synchro", 10, date(2009, 9, 1)) + extra_of("Fusion", 5, date(2008, 1, 1))
    case("legal", "edison-2010.ydk", ydk(filler(40, set()), ed), "edison", "2010-04-01", [])
    case(
        "legal", "hat-2014.ydk", ydk(filler(40, set()), xyz[:8] + syn[:7]), "hat", "2014-07-01", []
    )
    m70 = filler(70, set())
    case(
        "legal",
        "lp4000-70-cards.ydk",
        ydk(filler(70, used_side), fus[:20], side15),
        "lp4000",
        "2000-06-01",
        [],
    )
    case(
        "legal",
        "mr4-ex20-18-extra.ydk",
        ydk(filler(40, set()), xyz[:9] + syn[:9]),
        "mr4-ex20",
        "2018-01-01",
        [],
    )
    case(
        "legal",
        "mr3-2014-era.ydk",
        ydk(filler(60, used_side), xyz[:15], side15),
        "mr3-2014",
        "2015-01-01",
        [],
    )
    case("legal", "ocg-2020.ydk", ydk(filler(40, set()), syn[:15]), "ocg", "2020-06-01", [])
    case(
        "legal",
        "traditional-pot-of-greed.ydk",
        ydk([pog, *filler(39, {pog})]),
        "traditional",
        "2024-01-01",
        [],
    )
    rush = rush_normals(20)
    rm = [c for c in rush for _ in range(2)][:40]
    case("legal", "rush-40.ydk", ydk(rm), "rush", "2024-01-01", [])
    case(
        "legal",
        "genesys-under-cap.ydk",
        ydk(filler(40, set()), fus[:3]),
        "genesys",
        "2026-01-15",
        [],
    )
    case(
        "legal",
        "tcg-ydke.ydke",
        ydke(filler(40, used_side), syn[:4], side15[:3]),
        "tcg",
        "2024-01-01",
        [],
    )
    case(
        "legal",
        "tcg-prerelease-allowed.ydk",
        ydk([*filler(39, set()), pre_unreleased]),
        "tcg",
        "2026-08-01",
        ["prerelease"],
        allow_prerelease=True,
    )
    case("legal", "worlds-2024.ydk", ydk(filler(40, set())), "worlds", "2024-08-01", [])
    case(
        "legal", "master-duel.ydk", ydk(filler(40, set()), fus[:2]), "master-duel", "2024-01-01", []
    )
    case(
        "legal",
        "time-wizard-2008.ydk",
        ydk(filler(40, set()), extra_of("Fusion", 10, date(2008, 1, 1))),
        "tcg",
        "2008-10-01",
        [],
    )

    # a real current TCG deck (the README example), and Speed Duel and Genesys decks
    example = (ROOT / "examples" / "tcg-legal.ydk").read_text(encoding="utf-8")
    case("legal", "tcg-cyber-dragon-2026.ydk", example, "tcg", "2026-06-01", [])
    speed_main = [1784619, 8715625, 3797883, 5053103, 5434080, 5464695, 5818798]  # in every pool
    sm = [c for c in speed_main for _ in range(3)][:20]
    speed_skill = 300101001  # a Skill card on the Speed Duel list
    case("legal", "speed-20-one-skill.ydk", ydk([*sm, speed_skill]), "speed", "2024-01-01", [])
    case("illegal", "speed-no-skill.ydk", ydk(sm), "speed", "2024-01-01", ["skill-count"])
    # Offerings to the Doomed and Nightmare Wheel: both Limited 1 (one card from the group)
    limit1 = [19230408, 54704216]
    case(
        "illegal",
        "speed-limit-group.ydk",
        ydk([*sm, *limit1, speed_skill]),
        "speed",
        "2024-01-01",
        ["limit-group"],
    )
    # Genesys on 2026-01-15: two Main Deck cards of 100 points each (the cap is 100)
    from deckcheck.rule.format import get_format

    gl = get_format("genesys", DATA).banlist_at(date(2026, 1, 15), DATA)
    assert gl is not None
    gm = [
        c
        for c, pts in sorted(gl.entries.items())
        if pts == 100
        and c in ix
        and ix.get(c).zone is DeckZone.MAIN
        and not ix.get(c).is_pendulum
        and ix.get(c).tcg_date is not None
        and ix.get(c).tcg_date <= date(2025, 1, 1)  # type: ignore[operator]
    ][:2]
    assert len(gm) == 2
    case(
        "illegal",
        "genesys-over-cap.ydk",
        ydk(gm + filler(40 - len(gm), set())),
        "genesys",
        "2026-01-15",
        ["points-over-cap"],
    )
    # "Rai mei" is as near "Raimei" as "Rai-Mei" (two different cards): never guessed
    text = "Main Deck:\n1 Rai mei\n" + "".join(
        f"3x {ix.get(c).name}\n" for c in dict.fromkeys(filler(42, set()))
    )
    case("illegal", "ambiguous-name.txt", text, "tcg", "2024-01-01", ["ambiguous-card"])

    # legal with warnings: a list announced for after the date, a date after the data
    case(
        "legal",
        "pot-of-greed-before-ban.ydk",
        ydk([pog, *filler(39, {pog})]),
        "tcg",
        "2005-09-20",
        ["upcoming-change"],
    )
    case(
        "legal",
        "tcg-2027-after-data.ydk",
        ydk(filler(40, set())),
        "tcg",
        "2027-01-10",
        ["date-out-of-range"],
    )
    # a TCG card no source dates (Enneacraft - Atori.MAR, OCG 2025-08-23): warned after its
    # OCG release, out of the pool before it
    atori = by_name("Enneacraft - Atori.MAR")
    case(
        "legal",
        "tcg-release-date-unknown.ydk",
        ydk([atori, *filler(39, {atori})]),
        "tcg",
        "2026-01-10",
        ["release-date-unknown"],
    )
    case(
        "illegal",
        "tcg-undated-before-ocg-release.ydk",
        ydk([atori, *filler(39, {atori})]),
        "tcg",
        "2013-06-15",
        ["not-in-pool"],
    )

    # ---------------------------------------------------------------- illegal
    case("illegal", "main-39.ydk", ydk(filler(39, set())), "tcg", "2025-06-01", ["main-size"])
    case("illegal", "main-61.ydk", ydk(filler(61, set())), "tcg", "2025-06-01", ["main-size"])
    case(
        "illegal",
        "extra-16.ydk",
        ydk(filler(40, set()), fus[:8] + syn[:8]),
        "tcg",
        "2025-06-01",
        ["extra-size"],
    )
    case(
        "illegal",
        "side-16.ydk",
        ydk(filler(40, used_side), [], [*side15, v60[-6]]),
        "tcg",
        "2025-06-01",
        ["side-size"],
    )
    case(
        "illegal",
        "side-10-in-2003.ydk",
        ydk(filler(40, used_side), [], side15[:10]),
        "tcg",
        "2003-01-15",
        ["side-size"],
    )
    m = [v40[0]] * 4 + filler(36, {v40[0]})
    case("illegal", "four-copies.ydk", ydk(m), "tcg", "2025-06-01", ["copies"])
    m = [dm, dm, dm_alt, 46986415, *filler(36, {dm})]
    case("illegal", "alt-art-four.ydk", ydk(m), "tcg", "2025-06-01", ["copies"])
    m = [harpie] * 3 + [harpie1] + filler(36, {harpie, harpie1})
    case("illegal", "harpie-four.ydk", ydk(m), "tcg", "2025-06-01", ["copies"])
    case(
        "illegal",
        "pot-of-greed-2025.ydk",
        ydk([pog, *filler(39, {pog})]),
        "tcg",
        "2025-06-01",
        ["forbidden"],
    )
    case(
        "illegal",
        "pot-of-greed-two-2003.ydk",
        ydk([pog, pog, *filler(38, {pog})]),
        "tcg",
        "2003-01-15",
        ["over-limit"],
    )
    case(
        "illegal",
        "ash-in-2015.ydk",
        ydk([ash, *filler(39, {ash})]),
        "tcg",
        "2015-06-01",
        ["not-in-pool"],
    )
    case(
        "illegal",
        "ocg-only-in-tcg.ydk",
        ydk([ocg_only, *filler(39, set())]),
        "tcg",
        "2024-01-01",
        ["not-in-pool"],
    )
    case(
        "illegal",
        "link-in-main.ydk",
        ydk([talker, *filler(40, set())]),
        "tcg",
        "2024-01-01",
        ["wrong-section"],
    )
    case(
        "illegal",
        "main-card-in-extra.ydk",
        ydk(filler(40, set()), [ash]),
        "tcg",
        "2024-01-01",
        ["wrong-section"],
    )
    case(
        "illegal",
        "token.ydk",
        ydk([*filler(40, set()), token]),
        "tcg",
        "2024-01-01",
        ["not-a-deck-card"],
    )
    case(
        "illegal",
        "unknown-passcode.ydk",
        ydk([*filler(40, set()), 12345679]),
        "tcg",
        "2024-01-01",
        ["unknown-card"],
    )
    case(
        "illegal",
        "unreadable-line.ydk",
        ydk(filler(40, set()), extra_lines=["this is not a passcode"]),
        "tcg",
        "2024-01-01",
        ["parse"],
    )
    case(
        "illegal",
        "anime-card.ydk",
        ydk([*filler(40, set()), anime]),
        "tcg",
        "2024-01-01",
        ["unofficial-card"],
    )
    # EDOPro's pre-release code 100200210 of Yakusa, Lord of the Eight Thunders (released as
    # 90583279; ProjectIgnis' mappings): read as the released card, with a warning
    yakusa_early = 100200210
    case(
        "legal",
        "tcg-prerelease-code-of-a-released-card.ydk",
        ydk([*filler(39, set()), yakusa_early]),
        "tcg",
        "2025-06-01",
        ["prerelease-code"],
    )
    case(
        "illegal",
        "prerelease.ydk",
        ydk([*filler(39, set()), pre_unreleased]),
        "tcg",
        "2026-08-01",
        ["prerelease"],
    )
    case(
        "illegal", "lp4000-deck-in-tcg.ydk", ydk(m70, fus[:10]), "tcg", "2024-01-01", ["main-size"]
    )
    case(
        "illegal",
        "ex20-deck-in-mr4.ydk",
        ydk(filler(40, set()), xyz[:9] + syn[:9]),
        "mr4-2017",
        "2018-01-01",
        ["extra-size"],
    )
    case(
        "illegal",
        "genesys-link.ydk",
        ydk(filler(40, set()), [talker]),
        "genesys",
        "2026-01-15",
        ["forbidden-type"],
    )
    case(
        "illegal",
        "rush-legends-2024.ydk",
        ydk([*rm[:38], 160001000, 160002000]),
        "rush",
        "2024-01-01",
        ["legend-limit"],
    )
    case(
        "illegal",
        "tcg-card-in-rush.ydk",
        ydk([*rm[:39], ash]),
        "rush",
        "2024-01-01",
        ["not-in-pool"],
    )
    case(
        "illegal",
        "rush-card-in-tcg.ydk",
        ydk([*filler(39, set()), rush[0]]),
        "tcg",
        "2024-01-01",
        ["not-in-pool"],
    )
    case(
        "illegal",
        "skill-in-tcg.ydk",
        ydk([*filler(40, set()), skills[0]]),
        "tcg",
        "2024-01-01",
        ["not-a-deck-card"],
    )
    case(
        "illegal",
        "goat-modern-card.ydk",
        ydk([ash, *filler(39, {ash})]),
        "goat",
        "2005-09-01",
        ["not-in-pool"],
    )
    case(
        "illegal",
        "everything.ydk",
        ydk(
            [pog, talker, token, 12345679] + [v40[0]] * 4 + filler(30, {v40[0]} | used_side),
            [ash],
            [*side15, v60[-6]],
        ),
        "tcg",
        "2025-06-01",
        [
            "forbidden",
            "wrong-section",
            "not-a-deck-card",
            "unknown-card",
            "copies",
            "main-size",
            "side-size",
        ],
    )
    text = "Main Deck:\n3 Ash Blossom & Joyous Spring\n3x Pot of Grid\n" + "".join(
        f"{ix.get(c).name} x3\n" for c in dict.fromkeys(filler(34, {ash}))
    )
    # the misspelt line still counts toward the Main Deck: one typo is one problem
    case("illegal", "typo.txt", text, "tcg", "2025-06-01", ["unknown-card"])
    del maxx, skills[1:]


def main() -> int:
    """Write the decks and the manifest."""
    build()
    for sub in ("legal", "illegal"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)
    lines = [
        "# Golden validation decks: path -> format, date, options, expected codes.",
        "# Generated by scripts/make_golden_decks.py (expectations written there by hand).",
        "",
    ]
    for rel, text, fmt, opts in CASES:
        (OUT / rel).write_text(text, encoding="utf-8")
        lines.append(f'["{rel}"]')
        lines.append(f'format = "{fmt}"')
        for k, v in opts.items():
            if isinstance(v, bool):
                lines.append(f"{k} = {'true' if v else 'false'}")
            elif isinstance(v, list):
                lines.append(f"{k} = [{', '.join(repr(x).replace(chr(39), chr(34)) for x in v)}]")
            else:
                lines.append(f'{k} = "{v}"')
        lines.append("")
    (OUT / "expected.toml").write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {len(CASES)} decks under {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
