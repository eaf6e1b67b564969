"""Golden report snapshots: every output format of ``deckcheck validate`` for
``examples/problems.ydk`` and for a registrations CSV with every row kind
(``tests/data/golden/event/regs.csv``: a legal and an illegal deck file, an inline list, a ydke
URL, an Omega code with a ``/``, a missing file, no deck, a path outside the folder, an
unreadable file, a duplicate player id).

A report that changes shows up here as a diff. After a deliberate change (or a data update,
which moves the list names and counts), regenerate with ``DECKCHECK_GOLDEN_UPDATE=1 python -m
pytest tests/test_golden_reports.py`` and read the diff before committing it. The dataset's
fingerprint, its as-of date and the package version are replaced by placeholders, so a data
update that does not change a verdict does not change a snapshot.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import deckcheck
from deckcheck.data.dataset import Dataset

GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
SNAPSHOTS = GOLDEN / "snapshots"
FORMATS = {
    "text": "txt",
    "json": "json",
    "csv": "csv",
    "html": "html",
    "junit": "xml",
    "sarif": "sarif",
    "github": "github",
}
INPUTS = {"problems": "problems.ydk", "registrations": "event/regs.csv"}
ON = "2025-06-01"


def normalised(text: str) -> str:
    data = Dataset.active()
    return (
        text.replace(data.fingerprint, "<data-fingerprint>")
        .replace(data.fingerprint[:16], "<data-fingerprint>")
        .replace(data.as_of.isoformat(), "<data-as-of>")
        .replace(f'"{deckcheck.__version__}"', '"<version>"')
        .replace(GOLDEN.as_uri() + "/", "<golden>/")
        .replace(GOLDEN.parents[2].as_uri() + "/", "<checkout>/")  # SARIF's base: where it ran
    )


@pytest.mark.slow
@pytest.mark.parametrize("output", list(FORMATS))
@pytest.mark.parametrize("name", list(INPUTS))
def test_report_matches_its_snapshot(
    name: str, output: str, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(GOLDEN)  # report paths are relative to the golden folder
    monkeypatch.delenv("NO_COLOR", raising=False)
    res = cli("validate", INPUTS[name], "--date", ON, "--no-config", "-o", output)
    assert res.code in (1, 2), res.stderr  # problems.ydk is illegal; the CSV has unreadable rows
    got = normalised(res.stdout)
    snapshot = SNAPSHOTS / f"{name}.{FORMATS[output]}"
    if os.environ.get("DECKCHECK_GOLDEN_UPDATE"):
        SNAPSHOTS.mkdir(exist_ok=True)
        snapshot.write_text(got, encoding="utf-8", newline="")
    assert snapshot.exists(), f"no snapshot {snapshot.name}: run with DECKCHECK_GOLDEN_UPDATE=1"
    with open(snapshot, encoding="utf-8", newline="") as handle:
        assert got == handle.read()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_batch_json_report_is_its_document_model_dumped(
    lang: str, cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """report.json and ``validate -o json`` are written straight from plain data: reading them
    back into the document model and dumping that again gives the very same text (same fields,
    same order), also with the metagame, local names and an undecodable file name."""
    from deckcheck.reporter.document import ValidationDocument, dump

    monkeypatch.chdir(GOLDEN)
    odd = tmp_path / os.fsdecode(b"bad-\xff-name.ydk")
    odd.write_bytes((GOLDEN / "problems.ydk").read_bytes())
    out = tmp_path / "out"
    res = cli(
        "batch",
        INPUTS["registrations"],
        INPUTS["problems"],
        str(odd),
        "--date",
        ON,
        "--out",
        str(out),
        "--quiet",
        "--lang",
        lang,
    )
    assert res.code in (1, 2), res.stderr
    report = (out / "report.json").read_text(encoding="utf-8")
    assert "\\\\xff" in report  # the undecodable byte, escaped
    assert '"meta": {' in report
    assert ('"message_local"' in report) is (lang == "ja")
    assert dump(ValidationDocument.model_validate_json(report)) == report
    res = cli(
        "validate",
        INPUTS["registrations"],
        str(odd),
        "--date",
        ON,
        "--no-config",
        "-o",
        "json",
        "--lang",
        lang,
    )
    assert res.code in (1, 2), res.stderr
    if lang == "ja":
        assert '"message_local"' in res.stdout
    assert dump(ValidationDocument.model_validate_json(res.stdout)) == res.stdout
