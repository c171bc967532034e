"""Pages whose console examples are real: every ```console block of a docs page (``$ command``
then its output) is run in a scratch directory at 80 columns and must print what the page shows
(durations, numbers followed by ``s`` or ``ms``, compare as ``…``). Shared by the tests of
docs/getting-started.md and docs/review.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"```console\n\$ (?P<command>[^\n]*)\n(?P<output>.*?)```", re.S)
DURATION = re.compile(r"\b\d[\d,.]* (s|ms)\b")


def run(command: str, where: Path, links: tuple[str, ...] = ("puzzles",), timeout: int = 300) -> str:
    """The command's standard output as a page shows it (80 columns, no colour), run in
    ``where`` with the project's folders ``links`` linked in."""
    for name in links:
        (where / name).exists() or (where / name).symlink_to(ROOT / name)
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1", TERM="dumb")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    out = subprocess.run(["bash", "-c", command], cwd=where, env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, (command, out.stderr)
    return "\n".join(line.rstrip() for line in out.stdout.splitlines()) + "\n"


def normal(text: str) -> str:
    """The text with its durations blanked and trailing spaces dropped."""
    return DURATION.sub("… s", "\n".join(line.rstrip() for line in text.splitlines()))


def blocks(page: Path) -> list[tuple[str, str]]:
    """The page's console blocks: ``(command, output)``."""
    return [(m["command"], m["output"]) for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]


def update(page: Path, links: tuple[str, ...] = ("puzzles",), timeout: int = 300) -> None:
    """Rewrite every console block's output with what its command prints now."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        where = Path(scratch)
        text = page.read_text(encoding="utf-8")
        text = BLOCK.sub(lambda m: f"```console\n$ {m['command']}\n{run(m['command'], where, links, timeout)}```", text)
        page.write_text(text, encoding="utf-8")
