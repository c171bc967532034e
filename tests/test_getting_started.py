"""docs/getting-started.md never goes stale: every ```console block there (``$ command`` then
its output) is run in a scratch directory at 80 columns and must print what the page shows.

Durations vary from run to run, so numbers followed by ``s`` or ``ms`` are compared as ``…``.
After a deliberate change of output, rewrite the page's outputs with::

    python tests/test_getting_started.py --update
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from console_pages import ROOT, blocks, normal, run, update

PAGE = ROOT / "docs" / "getting-started.md"


def test_the_page_has_the_walk() -> None:
    commands = " ".join(c for c, _ in blocks(PAGE))
    for step in ("lukfu deal", "lukfu advise", "lukfu analyse", "lukfu play", "lukfu puzzle"):
        assert step in commands, step


@pytest.mark.slow
@pytest.mark.parametrize("command,shown", blocks(PAGE), ids=[c[:40] for c, _ in blocks(PAGE)])
def test_every_command_prints_what_the_page_shows(command: str, shown: str, tmp_path: Path) -> None:
    assert normal(run(command, tmp_path)) == normal(shown)


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    update(PAGE)
