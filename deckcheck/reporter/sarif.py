"""SARIF 2.1.0: a batch as a static-analysis log (GitHub code scanning, IDE viewers).

One run, whose tool ``deckcheck`` has **one rule per violation code** (every code of
:class:`~deckcheck.validation.report.Code`, in its order, with its help text and default level),
and one
result per violation::

    {"ruleId": "forbidden", "ruleIndex": 4, "level": "error",
     "message": {"text": "Pot of Greed is Forbidden on the 2025-04-07 TCG list: remove all 1"},
     "locations": [{"physicalLocation": {
         "artifactLocation": {"uri": "decks/meta.ydk", "uriBaseId": "SRCROOT"},
         "region": {"startLine": 3}}}],
     "partialFingerprints": {"deckcheck/v1": "..."},
     "properties": {"section": "main", "passcode": 55144522, "card": "Pot of Greed", ...}}

Levels: error → ``error``, warning → ``warning`` (``error`` when strict), note → ``note``. URIs
are relative to ``SRCROOT``, the repository root (:attr:`~deckcheck.reporter.RenderOptions.root`),
percent-encoded; ``region`` is left out when the finding has no line. Sources that could not be
read are ``toolExecutionNotifications`` of the invocation, whose ``executionSuccessful`` is then
false. The tests validate this output against the official 2.1.0 JSON Schema.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from deckcheck.reporter.options import RenderOptions
    from deckcheck.run.batch import Batch
    from deckcheck.validation.report import Report, Violation

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
ROOT_ID = "SRCROOT"
"""The ``uriBaseId`` that result URIs are relative to (the repository root)."""
_LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def _uri(path: str) -> str:
    """A POSIX path as a URI reference (percent-encoded; undecodable bytes kept as bytes)."""
    return quote(path.encode("utf-8", "surrogateescape"), safe="/")


def _rule_name(code: str) -> str:
    return "".join(part.capitalize() for part in code.split("-"))


def rules() -> list[dict[str, Any]]:
    """The rule of every violation code, in code order (``ruleIndex`` points into this)."""
    from deckcheck.validation.report import CODE_HELP, DEFAULT_SEVERITY, Code

    out = []
    for code in Code:
        help_text = CODE_HELP[code]
        short = help_text.split(". ")[0].rstrip(".") + "."
        out.append(
            {
                "id": code.value,
                "name": _rule_name(code.value),
                "shortDescription": {"text": short},
                "fullDescription": {"text": help_text},
                "help": {"text": help_text, "markdown": f"**`{code.value}`**: {help_text}"},
                "defaultConfiguration": {"level": _LEVEL[DEFAULT_SEVERITY[code].value]},
                "properties": {"tags": ["deckcheck", "yugioh"]},
            }
        )
    return out


def _location(path: str | None, line: int | None, label: str | None = None) -> list[dict[str, Any]]:
    if path is None:  # stdin, a ydke:// URL: no file, a logical location naming the source
        name = label or "<deck>"
        return [
            {
                "logicalLocations": [
                    {"name": name, "fullyQualifiedName": name, "kind": "resource"}
                ],
                "message": {"text": f"read from {name}, not from a file"},
            }
        ]
    if path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        artifact: dict[str, Any] = {"uri": Path(path).as_uri()}
    else:
        artifact = {"uri": _uri(path), "uriBaseId": ROOT_ID}
    physical: dict[str, Any] = {"artifactLocation": artifact}
    if line is not None and line >= 1:
        physical["region"] = {"startLine": line}
    return [{"physicalLocation": physical}]


def sarif_document(batch: Batch, options: RenderOptions) -> dict[str, Any]:
    """The SARIF log of a batch as plain data."""
    from deckcheck.version import __version__

    notifications = _notifications(batch, options)
    root = os.path.abspath(options.root if options.root is not None else os.curdir)
    invocation: dict[str, Any] = {
        "executionSuccessful": not batch.unreadable,
        "exitCode": int(batch.verdict(strict=options.strict)),
    }
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "deckcheck",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules(),
            }
        },
        "originalUriBaseIds": {ROOT_ID: {"uri": Path(root).as_uri().rstrip("/") + "/"}},
        "invocations": [invocation],
        "results": _results(batch, options),
        "columnKind": "unicodeCodePoints",
        "properties": {
            "format": batch.format,
            "date": batch.date.isoformat(),
            "dataAsOf": batch.data_as_of.isoformat() if batch.data_as_of else None,
            "dataFingerprint": batch.data_fingerprint,
        },
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _results(batch: Batch, options: RenderOptions) -> list[dict[str, Any]]:
    """One SARIF result per violation of every deck checked."""
    from deckcheck.reporter.where import checked_decks, in_csv, locate, locate_line
    from deckcheck.validation.report import Code

    index = {code: i for i, code in enumerate(Code)}
    results: list[dict[str, Any]] = []
    for report, reg in checked_decks(batch):
        path, _ = locate(report.path, reg, None, options.root)
        # a deck written in a registrations CSV keeps its own key (regs.csv:ROW), not the CSV's
        deck = report.path if in_csv(report.path, reg) else path
        for v in report.violations:
            sev = v.severity.value
            key = "\0".join(
                str(x) for x in (deck or report.path, v.code.value, v.section, v.passcode, v.name)
            )
            results.append(
                {
                    "ruleId": v.code.value,
                    "ruleIndex": index[v.code],
                    "level": "error" if options.strict and sev == "warning" else _LEVEL[sev],
                    "message": {"text": v.message},
                    "locations": _location(
                        path,
                        locate_line(report.path, reg, v.line),
                        report.path,
                    ),
                    "partialFingerprints": {
                        "deckcheck/v1": hashlib.sha256(
                            key.encode("utf-8", "surrogateescape")
                        ).hexdigest()[:32]
                    },
                    "properties": _properties(report, v),
                }
            )
    return results


def _properties(report: Report, v: Violation) -> dict[str, Any]:
    """A result's properties: the deck, the format and the violation's facts it has."""
    props: dict[str, Any] = {"deck": report.path, "format": report.format}
    for name, value in (
        ("section", v.section),
        ("passcode", v.passcode),
        ("card", v.name),
        ("found", v.found),
        ("allowed", v.allowed),
    ):
        if value is not None:
            props[name] = value
    return props


def _notifications(batch: Batch, options: RenderOptions) -> list[dict[str, Any]]:
    """The tool's notifications: each unreadable source (an error) and skipped file (a note)."""
    from deckcheck.reporter.where import locate

    notifications = [
        {
            "level": "error",
            "message": {"text": u.error},
            "locations": _location(*locate(u.path, u.registration, u.line, options.root), u.path),
            "descriptor": {"id": "unreadable"},
            "properties": {"code": u.code.value},
        }
        for u in batch.unreadable
    ]
    notifications += [
        {
            "level": "note",
            "message": {"text": f"skipped: {k.reason}"},
            "locations": _location(*locate(k.path, None, None, options.root), k.path),
            "descriptor": {"id": "skipped"},
            "properties": {"code": k.code.value},
        }
        for k in batch.skipped
    ]
    return notifications


def sarif_json(batch: Batch, options: RenderOptions) -> str:
    """The SARIF log of a batch as indented UTF-8 JSON."""
    from deckcheck.reporter.options import safe

    return json.dumps(safe(sarif_document(batch, options)), ensure_ascii=False, indent=2) + "\n"
