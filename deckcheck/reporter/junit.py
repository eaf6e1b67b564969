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
          <error type="unreadable" message="broken.ydk:2: ..."/>
        </testcase>
      </testsuite>
    </testsuites>

Each error is one ``<failure>`` (``type`` is the violation code); warnings and notes are lines
of ``<system-out>``, or failures too when :attr:`~deckcheck.reporter.RenderOptions.strict`. A
source that could not be read is a test case with an ``<error>``. ``failures`` counts failed
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
    from deckcheck.validation.report import Violation

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` cleaned for a terminal and limited to characters XML 1.0 allows."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", clean(text))


def _where(path: str | None, v: Violation) -> str:
    at = f"{path}:{v.line}" if path and v.line is not None else (path or "<deck>")
    sec = f" [{v.section}]" if v.section else ""
    return f"{at}{sec}"


def junit_xml(batch: Batch, options: RenderOptions) -> str:
    """The batch as a JUnit XML document (UTF-8, with an XML declaration)."""
    from deckcheck.reporter.options import repo_path

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
    failed = errored = 0
    for report in batch.reports:
        label = report.path or "<deck>"
        shown = repo_path(label, options.root) or label
        case = ET.SubElement(
            suite, "testcase", classname=xml_text(f"deckcheck.{report.format}"),
            name=xml_text(shown), time="0",
        )  # fmt: skip
        if repo_path(label, options.root) is not None:
            case.set("file", xml_text(shown))
        out: list[str] = []
        failing = False
        for v in report.violations:
            sev = v.severity.value
            text = f"{_where(shown, v)} {v.message}"
            if sev == "error" or (options.strict and sev == "warning"):
                failing = True
                fail = ET.SubElement(
                    case, "failure", message=xml_text(v.message), type=v.code.value
                )
                fail.text = xml_text(f"{sev} {v.code.value} {text}")
            else:
                out.append(f"{sev} {v.code.value} {text}")
        failed += failing
        if out:
            ET.SubElement(case, "system-out").text = "\n".join(xml_text(line) for line in out)
    for u in batch.unreadable:
        shown = repo_path(u.path, options.root) or u.path
        case = ET.SubElement(
            suite, "testcase", classname="deckcheck", name=xml_text(shown), time="0"
        )
        if repo_path(u.path, options.root) is not None:
            case.set("file", xml_text(shown))
        err = ET.SubElement(case, "error", message=xml_text(u.error), type="unreadable")
        err.text = xml_text(u.error)
        errored += 1
    tests = len(batch.reports) + len(batch.unreadable)
    counts = {"tests": tests, "failures": failed, "errors": errored, "skipped": 0}
    for element in (root, suite):
        for key, n in counts.items():
            element.set(key, str(n))
        element.set("time", "0")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
