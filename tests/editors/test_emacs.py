"""The Emacs setup of docs/editors.md, in a real Emacs: which YAML buffers it hands to pipelint.

eglot comes with Emacs 29; Debian 12's Emacs is 28, so the server itself is
not started here. What the snippet decides on its own is checked: it is
evaluated as a user's init.el would be (`emacs --batch`), and its
`pipelint-reads-p` must say yes to exactly the YAML files of
editors/vscode/test/host-files.json that pipelint's registry reads (the VS
Code extension and the Neovim snippets are tested against the same list).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
DOCS = REPOSITORY / "docs" / "editors.md"
HOST_FILES = REPOSITORY / "editors" / "vscode" / "test" / "host-files.json"


def emacs_snippet() -> str:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("\n## Emacs") :]
    block = re.search(r"```elisp\n(.*?)```", section, flags=re.DOTALL)
    assert block, f"no elisp block under ## Emacs in {DOCS}"
    return block.group(1)


@pytest.mark.skipif(shutil.which("emacs") is None, reason="no emacs (Debian: apt-get install emacs-nox)")
def test_the_emacs_setup_hands_pipelint_exactly_the_yaml_files_that_hold_shell(tmp_path: Path):
    init = tmp_path / "init.el"
    init.write_text(emacs_snippet(), encoding="utf-8")
    samples = {name: kind for name, kind in json.loads(HOST_FILES.read_text(encoding="utf-8"))["paths"].items() if re.search(r"\.ya?ml$", name)}
    names = " ".join(json.dumps(f"/home/user/project/{name}") for name in samples)
    probe = f"""
      (dolist (name (list {names}))
        (with-temp-buffer
          (setq buffer-file-name name)
          (princ (format "%s\\t%s\\n" name (if (pipelint-reads-p) "yes" "no")))))
    """
    done = subprocess.run(
        ["emacs", "--batch", "--no-site-file", "--load", str(init), "--eval", probe],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    answers = dict(line.split("\t") for line in done.stdout.splitlines())
    seen = {name.removeprefix("/home/user/project/"): answer == "yes" for name, answer in answers.items()}
    assert seen == {name: kind is not None for name, kind in samples.items()}
