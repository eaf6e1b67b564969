"""Every string deckcheck writes for people, in English, by a stable id (the source of the
catalogs' ``msgid``); violation templates by code, and what a template asks for."""

from __future__ import annotations

from functools import cache

MESSAGES: dict[str, str] = {
    # language names (the fallback note says which language a name is missing in)
    "lang.en": "English",
    "lang.ja": "Japanese",
    "lang.zh": "Chinese",
    "lang.ko": "Korean",
    # text report
    "report.legal": "LEGAL",
    "report.illegal": "ILLEGAL",
    "report.era": "era {era}",
    "report.list": "list {name} ({date})",
    "report.counts": "main {main} / extra {extra} / side {side}",
    "report.points": "points {points}/{cap}",
    "report.point_cards": "points: {cards}",
    "report.no_point_cards": "no card with points",
    "report.line": "line {line}",
    "report.summary": "{decks} decks: {legal} legal, {illegal} illegal",
    "report.unreadable": "{n} unreadable",
    "report.fallback": "{n} cards have no {language} name: their English name is written",
    "report.skipped": "skipped {n} paths that are not decks ({reasons}; e.g. {example})",
    "html.points": "{points}/{cap} points: {cards}",
    "severity.error": "error",
    "severity.warning": "warning",
    "severity.note": "note",
    "section.main": "main",
    "section.extra": "extra",
    "section.side": "side",
    # the HTML report
    "html.title": "deckcheck: {format} on {date}",
    "html.heading": "Deck registrations: {format}, {date}",
    "html.checked": "Checked by deckcheck against data as of {as_of} (fingerprint {fingerprint}).",
    "html.unknown": "unknown",
    "html.attention": "Needs attention ({n})",
    "html.all": "All registrations",
    "html.all_legal": "Every registered deck is legal.",
    "html.fix": "Fix:",
    "html.duplicate": "Player id {player_id} was already registered on row {row}.",
    "html.duplicate_fix": "Keep one registration per player.",
    "html.unreadable_fix": "Ask for a readable deck file (.ydk, ydke:// URL, text list, Omega "
    "code or deckcheck JSON).",
    "html.row_label": "row {row}",
    "count.registrations": "registrations",
    "count.legal": "legal",
    "count.illegal": "illegal",
    "count.unreadable": "unreadable",
    "count.duplicates": "duplicates",
    "count.errors": "errors",
    "count.warnings": "warnings",
    "status.legal": "legal",
    "status.illegal": "illegal",
    "status.unreadable": "unreadable",
    "status.duplicate": "duplicate",
    "col.row": "Row",
    "col.player_id": "Player id",
    "col.player": "Player",
    "col.deck": "Deck",
    "col.source": "Source",
    "col.status": "Status",
    "col.errors": "Errors",
    "col.warnings": "Warnings",
    "col.main": "Main",
    "col.extra": "Extra",
    "col.side": "Side",
    "col.codes": "Codes",
    "col.fingerprint": "Fingerprint",
    "html.fix_path": "Correct the deck path on row {row} of {file}: it must name a deck file "
    "inside the CSV's folder, relative to it.",
    "html.fix_column": "Fill in the deck column on row {row} of {file}.",
    "html.adds_up": "Legal, illegal and unreadable add up to the registrations; duplicates are "
    "counted among them.",
    "html.skipped": "Skipped files ({n})",
    "count.of_duplicates": "of them duplicates",
    "count.skipped": "files skipped",
    "col.cards": "Main/Extra/Side",
    # deck text lists (convert --to text): section headings
    "list.main": "Main Deck",
    "list.extra": "Extra Deck",
    "list.side": "Side Deck",
    # the registration sheet
    "sheet.title": "Deck Registration Sheet",
    "sheet.player": "Player name",
    "sheet.player_id": "Player ID",
    "sheet.event": "Event",
    "sheet.date": "Date",
    "sheet.format": "Format",
    "sheet.deck": "Deck name",
    "sheet.monster": "Monster Cards",
    "sheet.spell": "Spell Cards",
    "sheet.trap": "Trap Cards",
    "sheet.other": "Other / unknown",
    "sheet.main": "Main Deck",
    "sheet.extra": "Extra Deck",
    "sheet.side": "Side Deck",
    "sheet.qty": "Qty",
    "sheet.card": "Card name",
    "sheet.total": "Total",
    "sheet.totals": "Deck totals",
    "sheet.legal": "Legal on {date}, list {list}",
    "sheet.legal_nolist": "Legal on {date}",
    "sheet.illegal": "Not legal on {date}: {n} errors",
    "sheet.more": "... and {n} more",
    "sheet.fallback": "* no {language} name: the English name is shown",
    "sheet.deck_fp": "Deck fingerprint",
    "sheet.data_fp": "Data fingerprint",
    "sheet.qr": "Scan for the deck (ydke:// URL)",
    "sheet.judge": "Judge use",
    "sheet.page": "Page {page} of {pages}",
    "sheet.signature": "Signature",
    # the command line's own lines (the error:/warning:/note: prefixes stay, as codes do)
    "cli.checked": "checked {done}: {source}",
    "cli.nothing": "nothing to check: the configuration excludes every file given",
    "cli.strict": "--strict: {n} warnings count as failures",
    "cli.more_unreadable": "... and {n} more unreadable",
    "cli.duplicate": "{file}: row {row}: player id {player_id} is already registered on row "
    "{first}",
    "cli.skipped_files": "skipped {n} files that are not decks ({reasons}); report.json and "
    "report.html list them",
    "cli.batch_summary": "{n} registrations: {legal} legal, {illegal} illegal, {unreadable} "
    "unreadable",
    "cli.batch_duplicates": "({n} of them duplicates)",
    "cli.wrote": "wrote {files} to {folder}",
    "cli.left_out": "left out {n} lines naming no card:",
    # the metagame (deckcheck meta, the batch HTML's section)
    "meta.title": "Metagame",
    "meta.heading": "Metagame ({decks} decks)",
    "meta.none_read": "No deck could be read.",
    "meta.chart": "Archetypes by share of decks",
    "meta.archetype": "Archetype",
    "meta.kind": "Kind",
    "meta.decks": "Decks",
    "meta.share": "Share",
    "meta.card": "Card",
    "meta.share_of_decks": "Share of decks",
    "meta.average": "Average copies",
    "meta.most_played": "Most played cards",
    "meta.main": "Main Deck staples (Main + Extra)",
    "meta.side": "Side Deck staples",
    "meta.no_cards": "None.",
    "meta.kind.archetype": "archetype",
    "meta.kind.hybrid": "hybrid",
    "meta.kind.rogue": "rogue",
    # why a source could not be read, by its code (why a scan left a path out: skip.CODE, the
    # words of deckcheck.source.record.SKIP_MEANING)
    "unreadable.missing": "no such file or folder",
    "unreadable.special-file": "a special file (FIFO, device or socket)",
    "unreadable.os-error": "the system refused to read it",
    "unreadable.broken-link": "a broken symbolic link",
    "unreadable.no-decks": "nothing to read in it",
    "unreadable.bad-archive": "the zip archive cannot be used",
    "unreadable.bad-registrations": "the registrations CSV cannot be used",
    "unreadable.unsafe-entry": "an unsafe zip entry name",
    "unreadable.bad-entry": "a zip entry refused as stored",
    "unreadable.no-deck-given": "no deck given",
    "unreadable.bad-deck-path": "a deck path that names no deck file inside the CSV's folder",
    "unreadable.too-large": "over a size or card-count limit",
    "unreadable.bad-encoding": "not text in a supported encoding",
    "unreadable.bad-syntax": "broken structure",
    "unreadable.unreadable-deck": "the deck could not be read",
    "unreadable.not-a-deck": "no line names a card",
    "unreadable.check-failed": "read, but it could not be checked",
    "unreadable.internal-error": "an internal error (please report it)",
    "unreadable.with_detail": "{reason} ({detail})",
    # the service's errors, by code (the English message follows as the detail)
    "error.error": "Something went wrong",
    "error.data-error": "The card data cannot be used",
    "error.bad-input": "The input is not valid",
    "error.not-found": "Not found",
    "error.goldfish-error": "The simulation cannot run",
    "error.deck-write-error": "The deck cannot be written in that form",
    "error.update-failed": "The data update failed",
    "error.offline": "The data source cannot be reached",
    "error.unknown-card": "Unknown card",
    "error.ambiguous-card": "The name matches several cards",
    "error.unknown-format": "Unknown format",
    "error.unreadable-deck": "The deck cannot be read",
    "error.too-large": "The input is too large",
    "error.unknown-deck-format": "Unknown deck file format",
    "error.limit-exceeded": "Over a limit of the service",
    "error.bad-argument": "A value is not valid",
    "error.output-failed": "The output cannot be written",
    "error.date-before-lists": "The date is before the format's first list",
    "error.bad-format-file": "The format file is not valid",
    "error.bad-config": "The configuration is not valid",
    "error.bad-spec": "The simulation spec is not valid",
    "error.bad-condition": "The condition is not valid",
    "error.plot-unavailable": "Plots are not available here",
    "error.sheet-unavailable": "Sheets are not available here",
    "error.bad-request": "The request is not valid",
    "error.method-not-allowed": "That method is not allowed here",
    "error.http-error": "The request failed",
    "error.internal-error": "Internal error (please report it)",
    "error.too-many-requests": "The service is busy: try again shortly",
    "error.with_detail": "{reason}: {detail}",
    # words inside violation messages
    "banstatus.0": "Forbidden",
    "banstatus.1": "Limited",
    "banstatus.2": "Semi-Limited",
    "banstatus.3": "Unlimited",
    "kind.monster": "Monster",
    "kind.spell": "Spell",
    "kind.trap": "Trap",
    "rule.range": "{min}–{max}",
    "rule.at_least": "at least {min}",
    "rule.exactly": "exactly {min}",
    "rule.zero_or": "0 or {n}",
    # dates and numbers (English keeps ISO dates)
    "date.long": "{year}-{month}-{day}",
}
"""Every string deckcheck writes for people, in English, by id (``{name}`` fields filled in)."""

_VIOLATIONS: dict[str, str] = {
    "main-size": "Main Deck has {found} cards; the limit is {allowed}",
    "main-size+add": "Main Deck has {found} cards; {era} allows {rule}: add {add}",
    "main-size+remove": "Main Deck has {found} cards; {era} allows {rule}: remove {remove}",
    "main-size+exact": "Main Deck has {found} cards; {era} allows {rule}: use exactly {exact} "
    "or none",
    "extra-size": "Extra Deck has {found} cards; the limit is {allowed}",
    "extra-size+add": "Extra Deck has {found} cards; {era} allows {rule}: add {add}",
    "extra-size+remove": "Extra Deck has {found} cards; {era} allows {rule}: remove {remove}",
    "extra-size+exact": "Extra Deck has {found} cards; {era} allows {rule}: use exactly {exact} "
    "or none",
    "side-size": "Side Deck has {found} cards; allowed: {allowed}",
    "side-size+add": "Side Deck has {found} cards; {era} allows {rule}: add {add}",
    "side-size+remove": "Side Deck has {found} cards; {era} allows {rule}: remove {remove}",
    "side-size+exact": "Side Deck has {found} cards; {era} allows {rule}: use exactly {exact} "
    "or none",
    "copies": "{found} copies of {name}; at most {allowed} of a card name (Main + Extra + Side): "
    "remove {excess}",
    "forbidden": "{name} is Forbidden: remove all {found}",
    "forbidden+list": "{name} is Forbidden on the {list} list: remove all {found}",
    "over-limit": "{name}: the list allows {allowed}, the deck has {found}: remove {excess}",
    "over-limit+list": "{name} is {status} ({allowed}) on the {list} list; the deck has {found}: "
    "remove {excess}",
    "not-in-pool": "{name} is not in this format's card pool on the date: remove it",
    "not-in-pool+list": "{name} is not on the {list} card list: remove it",
    "not-in-pool+detail": "{name} is not in this format's card pool ({detail}): remove it",
    "wrong-section": "{name} cannot be in the {section} deck: move it",
    "not-a-deck-card": "{name} is never a deck card: remove it",
    "unknown-card": "unknown card {name}: check it, or remove the line",
    "unknown-card+suggestions": "unknown card {name}: check it, or remove the line; did you "
    "mean: {suggestions}?",
    "ambiguous-card": "{name} matches several cards: write its passcode",
    "ambiguous-card+suggestions": "{name} matches several cards ({suggestions}): write its "
    "passcode",
    "unofficial-card": "{name} is not an official card: remove it",
    "prerelease": "{name} is written with pre-release code {passcode}: it is not released yet",
    "prerelease+released": "{name} is written with pre-release code {passcode}: it has been "
    "released: use passcode {released}",
    "prerelease-code": "pre-release code {passcode} read as the released card {name}",
    "points-over-cap": "the deck has {found} points; the cap is {allowed}: cut {excess}",
    "forbidden-type": "{name} is of a card type this format bans: remove it",
    "forbidden-type+format": "{name} is of a card type {format} bans: remove it",
    "legend-limit": "{found} Legend cards; at most {allowed}: remove {excess}",
    "legend-limit+date": "{found} Legend cards; at most {allowed} in total on {date}: remove "
    "{excess}",
    "legend-limit+kind": "{found} Legend {kind} cards; at most {allowed}: remove {excess}",
    "limit-group": "{found} cards of the {name} group; at most {allowed}: remove {excess}",
    "limit-group+list": "{found} cards from the Limited {allowed} group of the {list} list "
    "({cards}); at most {allowed} in total from that group: remove {excess}",
    "skill-count": "the deck has {found} Skill cards; it needs exactly {allowed}",
    "skill-count+add": "the deck has {found} Skill cards; {format} needs exactly {allowed}: add "
    "{add}",
    "skill-count+remove": "the deck has {found} Skill cards; {format} needs exactly {allowed}: "
    "keep {allowed}, remove {remove}",
    "parse": "a line could not be read: {text}",
    "upcoming-change": "{name}: its status changes on an announced list; the deck has {found}",
    "upcoming-change+list": "{name} becomes {status} on {date} ({list}); the deck has {found}",
    "treated-as": "{name} counts toward another card name's copy limit",
    "treated-as+other": "{name} is always treated as {other}: counted as {other}",
    "date-out-of-range": "the date is after the ban-list data ends; a newer list may be in force",
    "date-out-of-range+detail": "the date is outside the ban-list data ({detail})",
    "release-date-unknown": "{name}: no source dates its release in the region; it is assumed "
    "released",
    "release-date-unknown+detail": "{name}: its release date is unsure ({detail}): check it",
    "missing-sections": "the file has no Extra or Side Deck header (truncated?)",
}
"""Violation message templates by code (``CODE+FACT``: a variant that says more)."""


def _code_messages() -> None:
    from deckcheck.card.release import Region
    from deckcheck.rule.reason import REASONS
    from deckcheck.source.record import SKIP_MEANING
    from deckcheck.validation.report import CODE_FIX, Code

    for key, template in _VIOLATIONS.items():
        MESSAGES[f"violation.{key}"] = template
    for code in Code:
        MESSAGES[f"fix.{code.value}"] = CODE_FIX[code]
    for skip, meaning in SKIP_MEANING.items():
        MESSAGES[f"skip.{skip.value}"] = meaning
    # the reasons inside pool, release-date and date messages, and the regions they name
    for key, template in REASONS.items():
        MESSAGES[f"reason.{key}"] = template
    for region in Region:
        MESSAGES[f"region.{region.value}"] = region.label


_code_messages()


@cache
def templates_of(code: str) -> tuple[str, ...]:
    """The message ids of a violation code, the ones using the most fields first (the plain
    ``violation.CODE`` template last)."""
    keys = [k for k in MESSAGES if k.startswith(f"violation.{code}+")]
    keys.sort(key=lambda k: -len(fields_of(MESSAGES[k])))
    return (*keys, f"violation.{code}")


def fields_of(template: str) -> set[str]:
    """The ``{field}`` names a template uses."""
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
