"""JUnit XML, the test report that CI systems read (GitLab's
`artifacts: reports: junit:`, Jenkins, Azure Pipelines...): one test suite
per file with findings, one failing test case per finding; a suppressed
finding (with --include-suppressed) is a skipped test case with its reason.
A run without findings is one passing test case, so that the report is
never empty."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from .sarif import TOOL_NAME


def testcase(f) -> ET.Element:
    case = ET.Element("testcase", name=f"{TOOL_NAME}.{f.rule}", classname=f.path, file=f.path,
                      line=str(f.site.line))
    if f.suppressed is None:
        failure = ET.SubElement(case, "failure", message=f.message, type=f.rule)
        failure.text = f"{f.path}:{f.site.line}:{f.site.col}: {f.rule} {f.message}"
    else:
        ET.SubElement(case, "skipped", message=f"suppressed: {f.suppressed}")
    return case


def render(result, **_) -> str:
    by_path: dict[str, list] = {}
    for f in result.findings:
        by_path.setdefault(f.path, []).append(f)
    suites = ET.Element("testsuites", name=TOOL_NAME)
    for path, findings in by_path.items():
        suite = ET.SubElement(suites, "testsuite", name=path)
        suite.extend(testcase(f) for f in findings)
    if not by_path:
        suite = ET.SubElement(suites, "testsuite", name=TOOL_NAME)
        ET.SubElement(suite, "testcase", name="no findings", classname=TOOL_NAME)
    for suite in [*suites, suites]:
        cases = suite.iter("testcase")
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for case in cases:
            counts["tests"] += 1
            counts["failures"] += case.find("failure") is not None
            counts["skipped"] += case.find("skipped") is not None
        suite.attrib.update({k: str(v) for k, v in counts.items()})
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
