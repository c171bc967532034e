"""docs/review.md never goes stale: every ```console block there (``$ command`` then its output)
is run in a scratch directory (``examples/`` linked in) at 80 columns and must print what the
page shows (durations compare as ``…``).

After a deliberate change of output, rewrite the page's outputs with::

    python tests/test_review_doc.py --update
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from console_pages import ROOT, blocks, normal, run, update

PAGE = ROOT / "docs" / "review.md"
LINKS = ("examples",)


def test_the_page_reviews_a_real_deal() -> None:
    commands = [c for c, _ in blocks(PAGE)]
    assert any(c.startswith("lukfu review examples/") for c in commands)
    assert any("--json" in c for c in commands)


@pytest.mark.slow
@pytest.mark.parametrize("command,shown", blocks(PAGE), ids=[c[:40] for c, _ in blocks(PAGE)])
def test_every_command_prints_what_the_page_shows(command: str, shown: str, tmp_path: Path) -> None:
    assert normal(run(command, tmp_path, LINKS, timeout=900)) == normal(shown)


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    update(PAGE, LINKS, timeout=900)
