"""A real editor: headless Neovim starts `nagle-lint server` with its own
LSP client, opens a fixture, and reads the diagnostics back through
`vim.diagnostic.get()`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from lsp_support import require, require_program

ROOT = Path(__file__).resolve().parent.parent

# vim.lsp.start from Neovim 0.8; Debian 12's 0.7 has start_client and buf_attach_client.
SCRIPT = """
local file, root, out = os.getenv("NAGLE_FILE"), os.getenv("NAGLE_ROOT"), os.getenv("NAGLE_OUT")
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local config = { name = "nagle-lint", cmd = { os.getenv("NAGLE_PYTHON"), "-m", "nagle_lint", "server" }, root_dir = root }
if vim.lsp.start then
  vim.lsp.start(config)
else
  vim.lsp.buf_attach_client(buf, vim.lsp.start_client(config))
end
vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(lines, table.concat({ d.lnum + 1, d.col + 1, d.severity, d.code or lsp.code or "", d.source or "" }, ":"))
end
vim.fn.writefile(lines, out)
vim.cmd("qall!")
"""


def test_neovim_shows_the_cross_file_finding(tmp_path):
    require("pygls")
    nvim = require_program("nvim", "apt-get install neovim")
    project = Path(shutil.copytree(ROOT / "fixtures" / "c" / "helpers_project", tmp_path / "helpers_project"))
    (tmp_path / "smoke.lua").write_text(SCRIPT)
    out = tmp_path / "diagnostics.txt"
    env = dict(os.environ, NAGLE_FILE=str(project / "client.c"), NAGLE_ROOT=str(project), NAGLE_OUT=str(out),
               NAGLE_PYTHON=sys.executable, PYTHONPATH=str(ROOT))
    subprocess.run([nvim, "--headless", "-u", "NONE", "-c", f"luafile {tmp_path / 'smoke.lua'}"], env=env,
                   cwd=tmp_path, timeout=120, check=True, stdin=subprocess.DEVNULL, capture_output=True)
    # line:column:severity (2: warning):code:source
    assert out.read_text().splitlines() == ["17:5:2:NGL001:nagle-lint"]
