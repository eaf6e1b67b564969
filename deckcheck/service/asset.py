"""The deck builder's files (``static/``), read once per process and served from memory."""

from __future__ import annotations

import html
from importlib import resources

STATIC = {
    "builder.js": "text/javascript; charset=utf-8",
    "builder.css": "text/css; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",  # the builder in en/ja/zh
    "print.js": "text/javascript; charset=utf-8",  # its "Print decklist" view
    "print.css": "text/css; charset=utf-8",
}
"""Files of the deck builder served under ``/static/``, with their content types."""


def builder_files(image_url: str | None) -> dict[str, bytes]:
    """``index.html`` and the :data:`STATIC` files; the page names the card image template
    ``image_url`` when one is set (the builder reads it from its page)."""
    folder = resources.files("deckcheck.service") / "static"
    # the builder's own files, shipped in the package (a fixed list of small files)
    files = {name: (folder / name).read_bytes() for name in ("index.html", *STATIC)}
    if image_url:
        meta = f'<meta name="deckcheck-image-url" content="{html.escape(image_url)}">'
        files["index.html"] = files["index.html"].replace(
            b'<meta name="deckcheck-image-url" content="">', meta.encode()
        )
    return files
