"""A file's findings do not depend on unrelated files linted in the same run.

Each fixture folder is linted alone, then together with a folder of unrelated
files: a reduced Python 2 script (it defines and calls `main`), and, in every
other language, a file that defines every function name the fixtures use and
calls each one.  A name defined and called in one language says nothing of a
function of that name in another, so the fixtures' findings must stay the same.
"""

from __future__ import annotations

import json
import keyword
import re
from pathlib import Path

import pytest

from nagle_lint.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXTENSIONS = {"python": ".py", "java": ".java", "c": ".c"}

PYTHON2_SCRIPT = """\
        s.send(cmd)
def main():
if __name__ == "__main__":
    sys.exit(main())
"""

NOT_NAMES = set(keyword.kwlist) | {"if", "for", "while", "switch", "return", "sizeof", "catch", "synchronized",
                                   "new", "super", "this", "int", "void", "char", "case", "do", "else", "try"}


def _names(language: str) -> list[str]:
    """Every name followed by a parenthesis in the language's fixtures."""
    found = set()
    for path in (FIXTURES / language).rglob("*" + EXTENSIONS[language]):
        found.update(re.findall(rb"\b([A-Za-z_]\w*)\s*\(", path.read_bytes()))
    return sorted(n for n in (b.decode() for b in found) if n not in NOT_NAMES)


def _defines_and_calls(language: str, names: list[str]) -> str:
    """A file of `language` that defines each name, sends, and calls each one."""
    if language == "python":
        defs = "".join(f"def {n}():\n    pass\n\n" for n in names)
        return f"import socket\n\n{defs}def caller(s: socket.socket):\n    s.send(b'x')\n" + \
            "".join(f"    {n}()\n" for n in names)
    if language == "c":
        defs = "".join(f"static void {n}(void) {{ }}\n" for n in names)
        return f"#include <sys/socket.h>\n{defs}void caller(int fd) {{\n    send(fd, \"x\", 1, 0);\n" + \
            "".join(f"    {n}();\n" for n in names) + "}\n"
    defs = "".join(f"    void {n}() {{ }}\n" for n in names)
    return f"import java.net.Socket;\nclass Unrelated {{\n{defs}    void caller(Socket s) throws Exception {{\n" \
        "        s.getOutputStream().write(1);\n" + "".join(f"        {n}();\n" for n in names) + "    }\n}\n"


def _findings(paths: list[str], capsys, out: Path) -> list[tuple]:
    main(["--no-cache", "--min-confidence", "low", "--format", "json", "--output-file", str(out), *paths])
    capsys.readouterr()
    found = json.loads(out.read_text())["findings"]
    return sorted((f["path"], f["line"], f["rule"], f["message"]) for f in found if str(FIXTURES) in f["path"])


@pytest.mark.parametrize("language", sorted(EXTENSIONS))
def test_unrelated_files_change_no_finding(language, tmp_path, capsys):
    unrelated = tmp_path / "unrelated"
    unrelated.mkdir()
    (unrelated / "x.py").write_text(PYTHON2_SCRIPT)
    names = _names(language)
    for other, ext in EXTENSIONS.items():
        if other != language:
            (unrelated / ("Unrelated" + ext)).write_text(_defines_and_calls(other, names))
    folder = str(FIXTURES / language)
    alone = _findings([folder], capsys, tmp_path / "alone.json")
    together = _findings([folder, str(unrelated)], capsys, tmp_path / "together.json")
    assert alone, "the fixtures have findings to lose"
    assert together == alone
