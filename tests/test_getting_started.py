"""docs/getting-started.md never goes stale: every ```console block there (``$ command`` then
its output) is run in a scratch directory at 80 columns and must print what the page shows.

Durations vary from run to run, so numbers followed by ``s`` or ``ms`` are compared as ``…``.
After a deliberate change of output, rewrite the page's outputs with::

    python tests/test_getting_started.py --update
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "getting-started.md"
BLOCK = re.compile(r"```console\n\$ (?P<command>[^\n]*)\n(?P<output>.*?)```", re.S)
DURATION = re.compile(r"\b\d[\d,.]* (s|ms)\b")


def run(command: str, where: Path) -> str:
    """The command's standard output as the page shows it (80 columns, no colour)."""
    (where / "puzzles").exists() or (where / "puzzles").symlink_to(ROOT / "puzzles")
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1", TERM="dumb")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    out = subprocess.run(["bash", "-c", command], cwd=where, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, (command, out.stderr)
    return "\n".join(line.rstrip() for line in out.stdout.splitlines()) + "\n"


def normal(text: str) -> str:
    return DURATION.sub("… s", "\n".join(line.rstrip() for line in text.splitlines()))


def blocks() -> list[tuple[str, str]]:
    return [(m["command"], m["output"]) for m in BLOCK.finditer(PAGE.read_text(encoding="utf-8"))]


def test_the_page_has_the_walk() -> None:
    commands = " ".join(c for c, _ in blocks())
    for step in ("lukfu deal", "lukfu advise", "lukfu analyse", "lukfu play", "lukfu puzzle"):
        assert step in commands, step


@pytest.mark.parametrize("command,shown", blocks(), ids=[c[:40] for c, _ in blocks()])
def test_every_command_prints_what_the_page_shows(command: str, shown: str, tmp_path: Path) -> None:
    assert normal(run(command, tmp_path)) == normal(shown)


def update(where: Path) -> None:
    """Rewrite every console block's output with what its command prints now."""
    text = PAGE.read_text(encoding="utf-8")
    text = BLOCK.sub(lambda m: f"```console\n$ {m['command']}\n{run(m['command'], where)}```", text)
    PAGE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        update(Path(scratch))
