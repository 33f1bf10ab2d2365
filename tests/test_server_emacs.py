"""A second real editor: Emacs in batch mode starts `nagle-lint server`
through eglot, opens a fixture, and reads the diagnostics back from
flymake."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from lsp_support import require, require_program

ROOT = Path(__file__).resolve().parent.parent

# eglot-ensure waits for a command loop that batch mode never runs: start the
# server directly, as `M-x eglot` does.
SCRIPT = """
(require 'package)
(package-initialize)
(require 'eglot)
(require 'flymake)
(add-to-list 'eglot-server-programs
             `((c-mode python-mode java-mode) . (,(getenv "NAGLE_PYTHON") "-m" "nagle_lint" "server")))
(find-file (getenv "NAGLE_FILE"))
(c-mode)
(apply #'eglot (eglot--guess-contact))
(let ((deadline (+ (float-time) 60)) found)
  (while (and (not found) (< (float-time) deadline))
    (accept-process-output nil 0.05)
    (setq found (flymake-diagnostics)))
  (let ((lines (mapcar (lambda (d) (format "%d:%s:%s\\n" (line-number-at-pos (flymake-diagnostic-beg d))
                                            (flymake-diagnostic-type d) (flymake-diagnostic-text d)))
                       found)))
    (with-temp-file (getenv "NAGLE_OUT") (apply #'insert lines))))
(kill-emacs 0)
"""


def test_emacs_eglot_shows_the_cross_file_finding(tmp_path):
    require("pygls")
    emacs = require_program("emacs", "apt-get install emacs-nox elpa-eglot")
    project = Path(shutil.copytree(ROOT / "fixtures" / "c" / "helpers_project", tmp_path / "helpers_project"))
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # eglot's project is the repository
    (tmp_path / "smoke.el").write_text(SCRIPT)
    out = tmp_path / "diagnostics.txt"
    env = dict(os.environ, NAGLE_FILE=str(project / "client.c"), NAGLE_OUT=str(out),
               NAGLE_PYTHON=sys.executable, PYTHONPATH=str(ROOT), HOME=str(tmp_path))
    done = subprocess.run([emacs, "--batch", "-l", str(tmp_path / "smoke.el")], env=env, cwd=tmp_path,
                          timeout=120, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if "Cannot open load file" in done.stderr and "eglot" in done.stderr:
        require_program("eglot", "apt-get install elpa-eglot")  # emacs without eglot: skip, or fail under CI
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = out.read_text().splitlines()
    number, kind, message = line.split(":", 2)
    assert (number, kind) == ("17", "eglot-warning")
    assert message.startswith("nagle-lint [NGL001]: second send on 'fd' (first at line 16) before the read at line 18")
