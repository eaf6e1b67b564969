"""JUnit XML: a CI server's test report of a batch, one test case per deck.

::

    <testsuites name="deckcheck" tests="2" failures="1" errors="0" skipped="0" time="0">
      <testsuite name="deckcheck (tcg, 2025-06-01)" tests="2" failures="1" errors="0" ...>
        <properties><property name="format" value="tcg"/>...</properties>
        <testcase classname="deckcheck.tcg" name="decks/meta.ydk" file="decks/meta.ydk">
          <failure type="forbidden" message="Pot of Greed is Forbidden ...">decks/meta.ydk:3
            [main] Pot of Greed is Forbidden ...</failure>
          <system-out>warning upcoming-change decks/meta.ydk:12 ...</system-out>
        </testcase>
        <testcase classname="deckcheck" name="broken.ydk" file="broken.ydk">
          <error type="bad-syntax" message="broken.ydk:2: ..."/>
        </testcase>
      </testsuite>
    </testsuites>

Each error is one ``<failure>`` (``type`` is the violation code); warnings and notes are lines
of ``<system-out>``, or failures too when :attr:`~deckcheck.reporter.RenderOptions.strict`. A
source that could not be read is a test case with an ``<error>`` (``type`` its unreadable code),
a file a scan skipped one with ``<skipped>`` (``type`` its skip code). ``failures`` counts failed
test cases (decks), as JUnit readers expect. Strings from outside are cleaned of control
characters (and of characters XML 1.0 cannot hold), so the document always parses.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from deckcheck.reporter.text import clean

if TYPE_CHECKING:
    from deckcheck.reporter.options import RenderOptions
    from deckcheck.run.batch import Batch
    from deckcheck.source.registration import Registration
    from deckcheck.validation.report import Report, Violation

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` cleaned for a terminal and limited to characters XML 1.0 allows."""
    text = clean(text)
    if text.isprintable():  # (every printable character is one XML allows: the usual case)
        return text
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _where(path: str | None, line: int | None, v: Violation) -> str:
    at = f"{path}:{line}" if path and line is not None else (path or "<deck>")
    sec = f" [{v.section}]" if v.section else ""
    return f"{at}{sec}"


def _registration_properties(case: ET.Element, reg: Registration | None) -> None:
    """A test case's ``<properties>``: the registration's row, player and the CSV's own
    columns (table, e-mail...), as written."""
    if reg is None:
        return
    props = ET.SubElement(case, "properties")
    values = [
        ("row", str(reg.row)),
        ("player_id", reg.player_id),
        ("player", reg.player),
        *reg.fields,
    ]
    for name, value in values:
        ET.SubElement(props, "property", name=xml_text(name), value=xml_text(value))


def _case(
    suite: ET.Element,
    classname: str,
    path: str | None,
    reg: Registration | None,
    options: RenderOptions,
) -> ET.Element:
    """A test case for one source: named by its file (a deck written in the registrations CSV:
    the CSV and its line), with the registration's properties."""
    from deckcheck.reporter.where import in_csv, locate

    label = path or "<deck>"
    file, line = locate(path, reg, None, options.root)
    shown = (f"{file}:{line}" if in_csv(path, reg) else file) if file is not None else label
    case = ET.SubElement(
        suite, "testcase", classname=xml_text(classname), name=xml_text(shown), time="0"
    )
    if file is not None:
        case.set("file", xml_text(file))
        if in_csv(path, reg):
            case.set("line", str(line))
    _registration_properties(case, reg)
    return case


def _report_case(
    suite: ET.Element, report: Report, reg: Registration | None, options: RenderOptions
) -> bool:
    """The test case of one deck's report; True when it failed."""
    from deckcheck.reporter.where import locate_line

    case = _case(suite, f"deckcheck.{report.format}", report.path, reg, options)
    file = case.get("file") or report.path or "<deck>"
    out: list[str] = []
    failing = False
    for v in report.violations:
        sev = v.severity.value
        line = locate_line(report.path, reg, v.line)
        text = f"{_where(file, line, v)} {v.message}"
        if sev == "error" or (options.strict and sev == "warning"):
            failing = True
            fail = ET.SubElement(case, "failure", message=xml_text(v.message), type=v.code.value)
            fail.text = xml_text(f"{sev} {v.code.value} {text}")
        else:
            out.append(f"{sev} {v.code.value} {text}")
    if out:
        ET.SubElement(case, "system-out").text = "\n".join(xml_text(line) for line in out)
    return failing


def junit_xml(batch: Batch, options: RenderOptions) -> str:
    """The batch as a JUnit XML document (UTF-8, with an XML declaration)."""
    suite_name = f"deckcheck ({batch.format}, {batch.date})"
    root = ET.Element("testsuites", name="deckcheck")
    suite = ET.SubElement(root, "testsuite", name=xml_text(suite_name))
    props = ET.SubElement(suite, "properties")
    prop_values = [("format", batch.format), ("date", batch.date.isoformat())]
    if batch.data_as_of is not None:
        prop_values.append(("data-as-of", batch.data_as_of.isoformat()))
    if batch.data_fingerprint:
        prop_values.append(("data-fingerprint", batch.data_fingerprint))
    prop_values.append(("strict", "true" if options.strict else "false"))
    for name, value in prop_values:
        ET.SubElement(props, "property", name=name, value=xml_text(value))
    from deckcheck.reporter.where import checked_decks

    failed = sum(_report_case(suite, r, reg, options) for r, reg in checked_decks(batch))
    for u in batch.unreadable:
        case = _case(suite, "deckcheck", u.path, u.registration, options)
        err = ET.SubElement(case, "error", message=xml_text(u.error), type=u.code.value)
        err.text = xml_text(u.error)
    for k in batch.skipped:
        case = _case(suite, "deckcheck.skipped", k.path, None, options)
        ET.SubElement(case, "skipped", message=xml_text(k.reason), type=k.code.value)
    errored = len(batch.unreadable)
    tests = len(batch.reports) + len(batch.unreadable) + len(batch.skipped)
    counts = {"tests": tests, "failures": failed, "errors": errored, "skipped": len(batch.skipped)}
    for element in (root, suite):
        for key, n in counts.items():
            element.set(key, str(n))
        element.set("time", "0")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
