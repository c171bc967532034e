"""No history in the code: the library, the command line, the web table (its JavaScript too), the
benchmarks, the trainers, the build tools and the tests say what is, never which issue or round of work brought it.

How the code got where it is belongs in commit messages and ``docs/history/``; a docstring that
names an issue's number or a round of work sends its reader to a document that describes another
state of the code. Measured figures belong in ``docs/`` and ``bench/results/``, where a test
checks that each is cited (``tests/test_bench_results.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("lukfu_solver", "cli", "web", "bench", "train", "tools", "tests")
SUFFIXES = {".py", ".js", ".html"}
ORDINALS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth"
    "|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth"
)
HISTORY = re.compile(rf"\bissue[\s_#-]*\d+|\bround[\s_-]*\d+|\b(?:{ORDINALS})[\s-]+round\b", re.IGNORECASE)
"""An issue or a round of work named by its number (``issue N``, ``issueN``, ``issue #N``, ``round N``,
``roundN``) or by an ordinal before ``round``. A round of a match or of a measurement is
never numbered so in code."""


def code_files() -> list[Path]:
    """The project's code: every Python, JavaScript and HTML file of its code folders."""
    return sorted(
        p
        for folder in FOLDERS
        for p in (ROOT / folder).rglob("*")
        if p.suffix in SUFFIXES and p.is_file() and "__pycache__" not in p.parts
    )


def history_in(text: str) -> list[tuple[int, str]]:
    """(line number, the words) of each issue or round of work ``text`` names."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(0)) for m in HISTORY.finditer(text)]


def test_no_issue_or_round_is_named_in_code() -> None:
    found = [
        f"{p.relative_to(ROOT)}:{line}: {words}"
        for p in code_files()
        for line, words in history_in(p.read_text(encoding="utf-8"))
    ]
    assert not found, f"issue or round numbers in code (history goes in commit messages and docs/history/): {found}"


def test_the_check_can_fail() -> None:
    """Each way of naming history is found; the rounds of a match, ``round()`` and an issue in
    general are not."""
    named = "".join(
        [
            "(issue ",
            "13, eighth",
            " round) ",
            "see issue",
            "19; solve-issue",
            "13-round",
            "14.json; ",
            "Round ",
            "11",
        ]
    )
    words = ["issue " + "13", "eighth" + " round", "issue" + "19", "issue" + "13", "round" + "14", "Round " + "11"]
    assert [w for _, w in history_in(named)] == words  # each written in two parts, so this file names none
    assert history_in("round(x, 2); each round of the match; --rounds N; an issue of the record") == []
    assert any(p.name == "__main__.py" for p in code_files()) and any(p.suffix == ".js" for p in code_files())
