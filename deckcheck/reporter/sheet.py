"""Deck registration sheets: what a player hands in at an event, as a PDF page per deck.

A page is laid out like an official registration sheet: the player's and event's fields, the
Main Deck split into Monster, Spell and Trap cards (a count per card, a total per section), the
Extra and Side Decks, and the Main / Extra / Side totals. Card names are in the sheet's language
(English, marked, for a card without a name in it) and shrink to fit their row, never cut. Each
page carries the verdict for its format and date, the deck's and the data's fingerprints, and a
QR code holding the deck as a ``ydke://`` URL (a judge scans the paper and has the deck back).
Fields left empty are fillable PDF form fields.

:func:`build_sheet` turns a deck and its report into a :class:`Sheet` (plain values: rows,
totals, verdict lines); :func:`sheets_pdf` lays sheets out, one page each. The PDF writer
(reportlab, whose built-in CID fonts draw Japanese and Chinese without font files) and the QR
encoder (segno) are imported only here, from the optional ``sheet`` extra.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckcheck.reporter.i18n import Lang, Localizer, card_name

if TYPE_CHECKING:
    from deckcheck.card import CardIndex
    from deckcheck.deck.model import Deck, DeckCard
    from deckcheck.validation.report import Report


class Paper(enum.StrEnum):
    """Paper sizes (``--paper``)."""

    A4 = "a4"
    LETTER = "letter"


class Group(enum.StrEnum):
    """The blocks of a sheet: the Main Deck's three card types (and what fits none), Extra, Side."""

    MONSTER = "monster"
    SPELL = "spell"
    TRAP = "trap"
    OTHER = "other"
    """Main Deck cards deckcheck does not know (unknown passcodes, lines naming no card)."""
    EXTRA = "extra"
    SIDE = "side"


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a sheet: how many copies, and the card's name in the sheet's language."""

    count: int
    name: str
    fallback: bool = False
    """The English name stands in for a name the card lacks in the sheet's language."""
    passcode: int | None = None


@dataclass(frozen=True, slots=True)
class SheetFields:
    """What the player and organiser write on the sheet (None: left as a fillable field)."""

    player: str | None = None
    player_id: str | None = None
    event: str | None = None
    date: str | None = None


@dataclass(frozen=True, slots=True)
class Sheet:
    """One deck's registration sheet, ready to lay out."""

    lang: Lang
    groups: tuple[tuple[Group, tuple[SheetRow, ...]], ...]
    fields: SheetFields
    format: str
    deck_name: str | None
    verdict: tuple[str, ...]
    """The verdict line, then (for an illegal deck) the errors in brief."""
    legal: bool
    deck_fingerprint: str
    data_fingerprint: str
    ydke: str

    def rows(self, group: Group) -> tuple[SheetRow, ...]:
        """The rows of one block."""
        return dict(self.groups).get(group, ())

    def total(self, *groups: Group) -> int:
        """Copies in the blocks given."""
        return sum(r.count for g in groups for r in self.rows(g))

    @property
    def main_total(self) -> int:
        """Cards in the Main Deck."""
        return self.total(Group.MONSTER, Group.SPELL, Group.TRAP, Group.OTHER)


UNREAD_FINGERPRINT = "none (lines name no card)"
"""The deck fingerprint a sheet shows for a deck with lines that name no card."""
VERDICT_ERRORS = 4
"""Errors listed in brief under an illegal verdict (the rest are counted)."""


def _group_of(dc: DeckCard) -> Group:
    from deckcheck.deck.model import Section

    if dc.section is Section.EXTRA:
        return Group.EXTRA
    if dc.section is Section.SIDE:
        return Group.SIDE
    if dc.card is None:
        return Group.OTHER
    kind = dc.card.kind.value.lower()
    return Group(kind) if kind in ("monster", "spell", "trap") else Group.OTHER


def _rows(deck: Deck, lang: Lang, index: CardIndex) -> dict[Group, list[SheetRow]]:
    """Rows per block: one per distinct passcode in file order, then every line naming no card
    (:attr:`~deckcheck.deck.model.Deck.unread`), with its line number and code."""
    from deckcheck.deck.model import Section

    out: dict[Group, list[SheetRow]] = {g: [] for g in Group}
    counts = Counter((dc.section, dc.passcode) for dc in deck)
    seen: set[tuple[Section, int]] = set()
    for dc in deck:
        key = (dc.section, dc.passcode)
        if key in seen:
            continue
        seen.add(key)
        name, fallback = card_name(dc.card, lang, index) if dc.card else (f"#{dc.passcode}", False)
        out[_group_of(dc)].append(SheetRow(counts[key], name, fallback, dc.passcode))
    for f in deck.unread:
        group = {Section.EXTRA: Group.EXTRA, Section.SIDE: Group.SIDE}.get(
            f.section or Section.MAIN, Group.OTHER
        )
        what = f.name or (f.text or "").strip() or f.message
        where = f"line {f.line}, " if f.line is not None else ""
        out[group].append(SheetRow(f.count, f"{what} ({where}{f.code.value})"))
    return out


def verdict_lines(report: Report, loc: Localizer) -> tuple[str, ...]:
    """The verdict for the report's format and date, then its errors in brief."""
    day = loc.date(report.date)
    if report.legal:
        if report.banlist is not None:
            return (loc.t("sheet.legal", date=day, list=report.banlist.name),)
        return (loc.t("sheet.legal_nolist", date=day),)
    errors = report.errors
    lines = [loc.t("sheet.illegal", date=day, n=len(errors))]
    lines += [f"{v.code.value}: {loc.violation(v)}" for v in errors[:VERDICT_ERRORS]]
    if len(errors) > VERDICT_ERRORS:
        lines.append(loc.t("sheet.more", n=len(errors) - VERDICT_ERRORS))
    return tuple(lines)


def build_sheet(
    deck: Deck,
    report: Report,
    *,
    lang: Lang | str = Lang.EN,
    fields: SheetFields | None = None,
    index: CardIndex | None = None,
) -> Sheet:
    """The registration sheet of ``deck`` with the verdict of ``report`` (its validation)."""
    from deckcheck.deck.io.ydke import dump_ydke
    from deckcheck.deck.model import fingerprint_deck

    if index is None:
        from deckcheck.data.dataset import resolve_data

        index = resolve_data(None).cards
    language = Lang(lang)
    rows = _rows(deck, language, index)
    loc = Localizer(language, index)
    return Sheet(
        language,
        tuple((g, tuple(rows[g])) for g in Group),
        fields or SheetFields(),
        report.format,
        deck.name,
        verdict_lines(report, loc),
        report.legal,
        fingerprint_deck(deck) if not deck.unread else UNREAD_FINGERPRINT,
        report.data_fingerprint or "",
        dump_ydke(deck),
    )


def sheets_pdf(sheets: Sequence[Sheet], paper: Paper | str = Paper.A4) -> bytes:
    """Every sheet as a page of one PDF (raises :class:`~deckcheck.error.InputError` for no
    sheet, and :class:`~deckcheck.error.SheetUnavailableError` without the ``sheet`` extra)."""
    import io

    from deckcheck.error import InputError

    if not sheets:
        raise InputError("no deck to write a sheet for")
    buffer = io.BytesIO()
    canvas = _canvas(buffer, Paper(paper))
    forms: set[str] = set()
    for number, sheet in enumerate(sheets, 1):
        _Page(canvas, sheet, number, len(sheets), forms).draw()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


# -- layout -------------------------------------------------------------------------------------

_CJK = {
    Lang.EN: "HeiseiKakuGo-W5",
    Lang.JA: "HeiseiKakuGo-W5",
    Lang.ZH: "STSong-Light",
    Lang.KO: "HYGothic-Medium",
}
_LATIN = "Helvetica"
_BOLD = "Helvetica-Bold"
MARGIN = 28.0
GAP = 6.0
MIN_ROWS = 25
"""Rows per Main Deck column on an empty sheet (a longer column gets thinner rows)."""
SIDE_ROWS = 15
NAME_SIZE = 8.0
MIN_SIZE = 5.5
"""Smallest font size of a card name; a longer name is drawn narrower instead (never cut)."""
_GREY = (0.93, 0.93, 0.93)
QR_MASK = 0


def _canvas(buffer: Any, paper: Paper) -> Any:
    try:
        from reportlab.lib.pagesizes import A4, LETTER
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.cidfonts import UnicodeCIDFont
        from reportlab.pdfgen.canvas import Canvas
    except ImportError as exc:
        from deckcheck.error import SheetUnavailableError

        raise SheetUnavailableError() from exc
    from reportlab import rl_config

    rl_config.useA85 = 0  # binary streams: ASCII85 (pure Python here) only made them bigger
    for font in set(_CJK.values()):
        if font not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(UnicodeCIDFont(font))
    size = A4 if paper is Paper.A4 else LETTER
    canvas = Canvas(buffer, pagesize=size, pageCompression=1, invariant=1)
    canvas.setTitle("Deck registration")
    canvas.setCreator("deckcheck")
    return canvas


def _quiet(matrix: Sequence[Sequence[int]]) -> list[list[int]]:
    """The QR matrix inside its quiet zone of 4 light modules."""
    n = len(matrix)
    blank = [0] * (n + 8)
    return [*([blank] * 4), *([0, 0, 0, 0, *row, 0, 0, 0, 0] for row in matrix), *([blank] * 4)]


def _latin(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


class _Page:
    """Draws one sheet on the canvas's current page."""

    def __init__(self, canvas: Any, sheet: Sheet, number: int, pages: int, forms: set[str]) -> None:
        self.c = canvas
        self.forms = forms
        """The forms (reused drawings) the PDF already holds."""
        self.s = sheet
        self.number = number
        self.pages = pages
        self.width, self.height = canvas._pagesize
        self.loc = Localizer(sheet.lang)

    # drawing primitives

    def font(self, text: str, bold: bool = False) -> str:
        """Helvetica for Latin text, the language's CID font for anything else."""
        if _latin(text):
            return _BOLD if bold else _LATIN
        return _CJK[self.s.lang]

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        bold: bool = False,
        width: float | None = None,
        align: str = "left",
    ) -> None:
        """``text`` at baseline ``y``; with ``width``, shrunk (then narrowed) to fit, never cut.
        Control, bidi-override and undecodable characters show as escapes (``\\x1b``)."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        from deckcheck.reporter.text import clean

        text = clean(text)

        font = self.font(text, bold)
        natural = stringWidth(text, font, size)
        scale = 100.0
        if width is not None and natural > width:
            size = max(MIN_SIZE, size * width / natural)
            natural = stringWidth(text, font, size)
            if natural > width:
                scale = 100.0 * width / natural
                natural = width
        if align == "right":
            x -= natural
        elif align == "centre":
            x -= natural / 2
        obj = self.c.beginText(x, y)
        obj.setFont(font, size)
        obj.setHorizScale(scale)
        obj.textOut(text)
        self.c.drawText(obj)

    def box(
        self, x: float, y: float, w: float, h: float, fill: tuple[float, ...] | None = None
    ) -> None:
        """A rectangle with its lower-left corner at (x, y)."""
        self.c.setLineWidth(0.6)
        if fill is not None:
            self.c.setFillColorRGB(*fill)
        self.c.rect(x, y, w, h, stroke=1, fill=1 if fill is not None else 0)
        self.c.setFillColorRGB(0, 0, 0)

    def grid(self, x: float, top: float, w: float, row_h: float, rows: int, qty: float) -> None:
        """The ruled lines of ``rows`` rows below ``top``: a count cell and a name cell each
        (drawn once per PDF as a form that every page with the same grid reuses)."""
        name = f"grid-{x:.2f}-{top:.2f}-{w:.2f}-{row_h:.3f}-{rows}"
        if name not in self.forms:
            self.c.beginForm(name)
            self._lines(x, top, w, row_h, rows, qty)
            self.c.endForm()
            self.forms.add(name)
        self.c.doForm(name)

    def _lines(self, x: float, top: float, w: float, row_h: float, rows: int, qty: float) -> None:
        bottom = top - rows * row_h
        path = self.c.beginPath()
        for gx in (x, x + qty, x + w):
            path.moveTo(gx, top)
            path.lineTo(gx, bottom)
        for r in range(rows + 1):
            path.moveTo(x, top - r * row_h)
            path.lineTo(x + w, top - r * row_h)
        self.c.setLineWidth(0.6)
        self.c.drawPath(path, stroke=1, fill=0)

    def field(
        self, x: float, y: float, w: float, h: float, label: str, value: str | None, name: str
    ) -> None:
        """A labelled box: the value printed, or a fillable form field when there is none."""
        self.box(x, y, w, h)
        self.text(x + 3, y + h - 7, label, 6, width=w - 6)
        if value:
            self.text(x + 4, y + 4, value, 10, width=w - 8)
            return
        self.c.acroForm.textfield(
            name=f"p{self.number}.{name}",
            tooltip=label,
            x=x + 2,
            y=y + 1.5,
            width=w - 4,
            height=h - 10,
            fontSize=9,
            borderWidth=0,
            fillColor=None,
            forceBorder=False,
        )

    # the sheet's parts

    def draw(self) -> None:
        """The whole page, top to bottom."""
        top = self.height - MARGIN
        top = self.header(top)
        lower_h = 14 + SIDE_ROWS * 11.0 + 12
        band_h = 66.0
        main_bottom = MARGIN + 12 + band_h + GAP + lower_h + GAP
        self.main(top - GAP, main_bottom)
        self.lower(main_bottom - GAP, lower_h)
        self.verdict(MARGIN + 12, band_h)
        self.footer()

    def header(self, top: float) -> float:
        """Title and the player's and event's fields; the y below them."""
        s, loc = self.s, self.loc
        self.text(MARGIN, top - 16, loc.t("sheet.title"), 16, bold=True)
        self.text(self.width - MARGIN, top - 14, "deckcheck", 8, align="right")
        y = top - 24
        w = (self.width - 2 * MARGIN) / 3
        rows = [
            [
                ("sheet.player", s.fields.player, "player"),
                ("sheet.player_id", s.fields.player_id, "player_id"),
                ("sheet.date", s.fields.date, "date"),
            ],
            [
                ("sheet.event", s.fields.event, "event"),
                ("sheet.format", s.format, "format"),
                ("sheet.deck", s.deck_name, "deck"),
            ],
        ]
        for row in rows:
            y -= 24
            for i, (key, value, name) in enumerate(row):
                self.field(MARGIN + i * w, y, w, 24, loc.t(key), value, name)
        return y

    def main(self, top: float, bottom: float) -> None:
        """The Main Deck: Monster, Spell and Trap columns (what fits none under Trap)."""
        s = self.s
        title = f"{self.loc.t('sheet.main')}: {s.main_total}"
        self.text(MARGIN, top - 9, title, 10, bold=True)
        top -= 13
        w = (self.width - 2 * MARGIN - 2 * GAP) / 3
        trap: list[SheetRow | str] = list(s.rows(Group.TRAP))
        if s.rows(Group.OTHER):
            trap += [self.loc.t("sheet.other"), *s.rows(Group.OTHER)]
        columns: list[tuple[Group, list[SheetRow | str]]] = [
            (Group.MONSTER, list(s.rows(Group.MONSTER))),
            (Group.SPELL, list(s.rows(Group.SPELL))),
            (Group.TRAP, trap),
        ]
        rows = max(MIN_ROWS, *(len(c) for _, c in columns))
        for i, (group, items) in enumerate(columns):
            x = MARGIN + i * (w + GAP)
            total = s.total(Group.TRAP, Group.OTHER) if group is Group.TRAP else s.total(group)
            self.column(x, top, w, top - bottom, group, items, rows, total)

    def column(
        self,
        x: float,
        top: float,
        w: float,
        h: float,
        group: Group,
        items: Sequence[SheetRow | str],
        rows: int,
        total: int,
    ) -> None:
        """One block: a heading, ``rows`` lines of count and name, and the block's total."""
        head, foot = 13.0, 12.0
        row_h = (h - head - foot) / rows
        self.box(x, top - head, w, head, fill=_GREY)
        self.text(
            x + 4, top - head + 4, self.loc.t(f"sheet.{group.value}"), 8, bold=True, width=w - 8
        )
        qty = 20.0
        size = min(NAME_SIZE, row_h * 0.62)
        self.grid(x, top - head, w, row_h, rows, qty)
        for r, item in enumerate(items[:rows]):
            y = top - head - (r + 1) * row_h
            base = y + (row_h - size * 0.7) / 2
            if isinstance(item, str):  # a sub-heading
                self.text(x + qty + 3, base, item, size, bold=True, width=w - qty - 6)
                continue
            self.text(x + qty / 2, base, str(item.count), size, align="centre")
            name = item.name + (" *" if item.fallback else "")
            self.text(x + qty + 3, base, name, size, width=w - qty - 6)
        y = top - h
        self.box(x, y, w, foot, fill=_GREY)
        self.text(
            x + w - 4,
            y + 3.5,
            f"{self.loc.t('sheet.total')}: {total}",
            7.5,
            bold=True,
            align="right",
        )

    def lower(self, top: float, h: float) -> None:
        """Extra and Side Decks, then the QR code and the deck's totals."""
        s = self.s
        full = self.width - 2 * MARGIN
        w = (full - 2 * GAP) / 3
        for i, group in enumerate((Group.EXTRA, Group.SIDE)):
            items = list(s.rows(group))
            x = MARGIN + i * (w + GAP)
            self.column(x, top, w, h, group, items, max(SIDE_ROWS, len(items)), s.total(group))
        self.panel(MARGIN + 2 * (w + GAP), top, w, h)

    def panel(self, x: float, top: float, w: float, h: float) -> None:
        """The QR code of the deck's ydke:// URL, and the Main / Extra / Side totals."""
        s, loc = self.s, self.loc
        totals = [
            ("sheet.main", s.main_total),
            ("sheet.extra", s.total(Group.EXTRA)),
            ("sheet.side", s.total(Group.SIDE)),
        ]
        box_h = 10.5 * (len(totals) + 1) + 2
        self.box(x, top - box_h, w, box_h)
        self.text(x + 4, top - 10, loc.t("sheet.totals"), 8, bold=True, width=w - 8)
        for i, (key, n) in enumerate(totals, 1):
            y = top - 10 - 10.5 * i
            self.text(x + 6, y, loc.t(key), 8, width=w - 40)
            self.text(x + w - 6, y, str(n), 9, bold=True, align="right")
        side = min(w, h - box_h - 12)
        qr_top = top - box_h - 4
        self.qr(x + (w - side) / 2, qr_top - side, side)
        self.text(x + w / 2, qr_top - side - 6, loc.t("sheet.qr"), 6, align="centre", width=w)

    def qr(self, x: float, y: float, side: float) -> None:
        """The deck's ydke:// URL as a QR code in a square of ``side`` (quiet zone included),
        drawn as a one-bit image (one pixel per module, never smoothed)."""
        import segno
        from PIL import Image
        from reportlab.lib.utils import ImageReader

        # a fixed mask: any of the eight is a valid code; searching for the best costs 4x
        code = segno.make(self.s.ydke, error="l", boost_error=False, micro=False, mask=QR_MASK)
        n = len(code.matrix) + 8
        img = Image.new("1", (n, n), 1)
        img.putdata([0 if dark else 1 for row in _quiet(code.matrix) for dark in row])
        self.c.drawImage(ImageReader(img), x, y, side, side)

    def verdict(self, bottom: float, h: float) -> None:
        """The verdict band: legal or not on the date, errors in brief, both fingerprints."""
        s, loc = self.s, self.loc
        w = self.width - 2 * MARGIN
        self.box(MARGIN, bottom, w, h, fill=(0.92, 0.97, 0.92) if s.legal else (1, 0.93, 0.93))
        lines = list(s.verdict)
        size = 7.0
        y = bottom + h - 10
        self.text(MARGIN + 4, y, lines[0], 9, bold=True, width=w - 8)
        for line in lines[1:]:
            y -= size + 1.5
            self.text(MARGIN + 8, y, line, size, width=w - 12)
        fps = (
            f"{loc.t('sheet.deck_fp')}: {s.deck_fingerprint}    "
            f"{loc.t('sheet.data_fp')}: {s.data_fingerprint[:16]}"
        )
        self.text(MARGIN + 4, bottom + 4, fps, 6.5, width=w - 8)

    def footer(self) -> None:
        """The fallback note (when a name is in English) and the page number."""
        loc = self.loc
        if any(r.fallback for _, rows in self.s.groups for r in rows):
            language = loc.t(f"lang.{self.s.lang.value}")
            self.text(MARGIN, MARGIN, loc.t("sheet.fallback", language=language), 6.5)
        self.text(
            self.width - MARGIN,
            MARGIN,
            loc.t("sheet.page", page=self.number, pages=self.pages),
            6.5,
            align="right",
        )
