"""docs/getting-started.md never goes stale: every ```console block there (``$ command`` then
its output) is run in a scratch directory at 80 columns and must print what the page shows.

Durations vary from run to run, so numbers followed by ``s`` or ``ms`` are compared as ``…``.
After a deliberate change of output, rewrite the page's outputs with::

    python tests/test_getting_started.py --update
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from console_pages import ROOT, blocks, normal, run, update

PAGE = ROOT / "docs" / "getting-started.md"


def test_the_page_has_the_walk() -> None:
    commands = " ".join(c for c, _ in blocks(PAGE))
    for step in ("lukfu deal", "lukfu advise", "lukfu analyse", "lukfu play", "lukfu puzzle"):
        assert step in commands, step


def test_the_words_before_a_view_tell_its_trick() -> None:
    """The sentence that introduces a seat view says what its trick in progress holds: who led
    what, and who beat it with what (the view itself, not a guess)."""
    from lukfu_solver.view import SeatView

    text = PAGE.read_text(encoding="utf-8")
    for command, _shown in blocks(PAGE):
        found = re.search(r'lukfu analyse "([^"]+)"', command)
        if not found:
            continue
        view = SeatView.parse(found[1])
        before = " ".join(text[: text.index(command)].split("\n\n")[-2].split())  # the paragraph above the block
        if not view.trick:
            continue
        leader, lead = view.trick_leader, view.trick[0]
        who = "the Master" if leader == 0 else f"seat {leader}"
        assert f"{who} has led {lead}" in before, before
        if view.best_seat != leader:
            beater = "the Master" if view.best_seat == 0 else f"seat {view.best_seat}"
            assert f"{beater} has beaten it with {view.best}" in before, before


@pytest.mark.slow
@pytest.mark.parametrize("command,shown", blocks(PAGE), ids=[c[:40] for c, _ in blocks(PAGE)])
def test_every_command_prints_what_the_page_shows(command: str, shown: str, tmp_path: Path) -> None:
    assert normal(run(command, tmp_path)) == normal(shown)


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    update(PAGE)
