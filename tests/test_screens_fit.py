"""Every screen fits its width: each command's main screens at 60 columns in every language, and
the review at 60, 80 and 120 columns, have no line longer than the terminal (in the cells a
terminal draws, Devanagari included), no card cut or folded (every card of the screen is a card
of the same screen drawn 250 columns wide, and the other way round: no column lost), no line
ending in padding, and no wrapped line back at column 0 when its paragraph is indented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from screens import cells
from typer.testing import CliRunner

from lukfu_cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
POSITION = "S5M3T5789/C248S3M4T1/C57S4M28T3 2 2 3,0,3 C1S9M567T24 -"
QUICK = ("--samples", "4", "--max-nodes", "20000")
SCREENS: dict[str, tuple[str, ...]] = {
    "deal": ("deal", "--seed", "7", "--show"),
    "deal --seat": ("deal", "--seed", "7", "--seat", "1"),
    "show": ("show", POSITION),
    "show --view": ("show", "--view", VIEW),
    "solve": ("solve", POSITION),
    "solve --all-moves": ("solve", POSITION, "--all-moves"),
    "replay": ("replay", str(ROOT / "examples" / "match-deal.json")),
    "review": ("review", str(ROOT / "examples" / "deal-175.json"), *QUICK),
    "advise": ("advise", "--deal", "7", "--seat", "1", *QUICK),
    "analyse": ("analyse", VIEW, *QUICK),
    "analyse --deal": ("analyse", "--deal", "7", "--seat", "0", *QUICK, "--lead-samples", "2"),
    "match": ("match", "--players", "random,rule,rule", "--deals", "3", "--seed", "5"),
    "puzzle show": ("puzzle", "show", str(ROOT / "puzzles" / "stop.json")),
    "puzzle play": ("puzzle", "play", str(ROOT / "puzzles" / "stop.json")),
    "play": ("play", "--seed", "5", "--seat", "2", "--level", "1", "--force", "--record"),
    "play --deals": ("play", "--seed", "5", "--seat", "0", "--level", "1", "--deals", "2", "--force", "--record"),
}
INPUTS = {
    "play": "1\nhint\n1\nhand\n" + "1\n" * 60,
    "play --deals": "2\n" + "1\n" * 120,
    "puzzle play": "hand\nhint\n1\nquit\n",
}
"""At the table from a pipe: call play, ask a hint, play, see the table again (hand), then the
first choice to the end; a session whose first deal is passed out (all three pass, a redeal)
and the next deal, each announced; a puzzle's table shown again."""
CARD = re.compile(r"(?<![A-Za-z])x?(?:[CSMT][1-9]+)+(?![A-Za-z0-9])")
CUT = re.compile(r"x?[CSMT][1-9]*…")


def screen(name: str, lang: str, width: int, tmp: Path) -> str:
    """What ``name`` prints in ``lang`` on a terminal ``width`` columns wide."""
    record = [str(tmp / "game.json")] if SCREENS[name][-1] == "--record" else []
    args = [*SCREENS[name], *record, "--lang", lang]
    res = runner.invoke(app, args, input=INPUTS.get(name), env={"COLUMNS": str(width)})
    assert res.exit_code == 0, (name, lang, res.stdout[-2000:], res.stderr[-2000:])
    return res.stdout


def lost_indent(wide: str, narrow: str) -> list[str]:
    """The lines of ``narrow`` at column 0 that continue an indented line (they begin no line of
    ``wide``, where nothing wraps, and follow an indented one)."""
    starts = [line.split()[:2] for line in wide.splitlines() if line[:1] not in ("", " ")]
    bad, before = [], ""
    for line in narrow.splitlines():
        if line[:1] not in ("", " ") and before.startswith(" ") and line.split()[:2] not in starts:
            bad.append(f"{before}⏎{line}")
        before = line
    return bad


def faults(text: str, wide: str, width: int) -> dict[str, list[str]]:
    """What is wrong with ``text`` drawn ``width`` columns wide (``wide``: the same, 250 wide)."""
    lines = text.splitlines()
    found = {
        "longer than the terminal": [line for line in lines if cells(line) > width],
        "ending in padding": [line for line in lines if line.endswith(" ")],
        "a card cut": [line for line in lines if CUT.search(line)],
        "cards not as drawn wide": sorted(set(CARD.findall(text)) ^ set(CARD.findall(wide))),
        "indent lost": lost_indent(wide, text),
    }
    return {fault: where[:5] for fault, where in found.items() if where}


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each screen in English at 250 columns, where nothing wraps (the cards are the same in
    every language)."""
    tmp = tmp_path_factory.mktemp("wide")
    return {name: screen(name, "en", 250, tmp) for name in SCREENS}


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru", "hi", "es"])
def test_every_main_screen_fits_60_columns(lang: str, wide: dict[str, str], tmp_path: Path) -> None:
    problems = {}
    for name in SCREENS:
        text = screen(name, lang, 60, tmp_path)
        reference = wide[name] if lang == "en" else screen(name, lang, 250, tmp_path)
        found = faults(text, reference, 60)
        if CARD.findall(text) and set(CARD.findall(text)) != set(CARD.findall(wide[name])):
            found["cards not as in English"] = sorted(set(CARD.findall(text)) ^ set(CARD.findall(wide[name])))[:5]
        if found:
            problems[name] = found
    assert not problems, problems


@pytest.mark.slow
@pytest.mark.parametrize("width", [60, 80, 120])
@pytest.mark.parametrize("lang", ["ru", "es"])
def test_the_review_fits_every_width(lang: str, width: int, tmp_path: Path) -> None:
    args = ("review", str(ROOT / "examples" / "match-deal.json"), *QUICK, "--lang", lang)
    text, reference = (runner.invoke(app, list(args), env={"COLUMNS": str(w)}).stdout for w in (width, 250))
    assert not faults(text, reference, width)
    table = text[text.index("±") :]
    for header in ("trick", "seat", "played", "best", "lost ±", "all cards seen", "cost", "luck"):
        from lukfu_solver.i18n import pgettext, using_language

        with using_language(lang):
            word = pgettext("column", header).split()[0]
        assert word in table, (header, word)  # no column lost
