"""No probability prints as 100% or 0%: a probability or a share of sampled deals is written by
one function, ``i18n.percent`` (the page's ``percent()`` agrees with it: tests/test_js.py), as
``>99%`` and ``<1%`` where it rounds to a certainty, in every language, by advise, analyse, the
hint and the charts."""

from __future__ import annotations

import dataclasses
import re

import pytest
from rich.console import Console

from lukfu_cli.analyse_charts import OutcomeChart
from lukfu_cli.analyse_words import advice_lines, recommendation_text
from lukfu_cli.play_screen import hint_renderable
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.hint import hint
from lukfu_solver.analysis.moves import analyse
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden.pimc import SolveLimits
from lukfu_solver.i18n import LANGUAGES, percent, using_language
from lukfu_solver.view import SeatView

SMALL = SolveLimits(20_000)
STRONG = parse_cards("C19S9M9T19C2S2M3T4C5S6")
"""Six always-Old cards: calling wins every sampled deal."""
CERTAIN = re.compile(r"(?<![\d>])(100|0)\s?%")
"""A percentage that claims a certainty (not ``>99%``, ``<1%``, ``10%``, ``50 %``)."""


def text(*renderables: object, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None)
    for r in renderables:
        console.print(r)
    return console.export_text()


@pytest.mark.parametrize("p,want", [(0.0, "<1%"), (0.004, "<1%"), (0.005, "1%"), (0.5, "50%"), (0.995, ">99%"), (1.0, ">99%")])
def test_a_probability_rounds_once_and_never_to_a_certainty(p: float, want: str) -> None:
    assert percent(p, "en") == want


@pytest.mark.parametrize("lang", LANGUAGES)
def test_advice_that_always_wins_reads_more_than_99_percent(lang: str) -> None:
    adv = advise(STRONG, 0, 6, 1, limits=SMALL)
    sure = dataclasses.replace(adv, p_play_better=1.0, p_caller_loses=0.0, outcomes={8: 6})
    with using_language(lang):
        shown = text(*advice_lines(sure, SMALL, evidence=False))
        chart = text(OutcomeChart({8: 6}))
        gone = text(*advice_lines(dataclasses.replace(sure, p_play_better=0.0, p_caller_loses=1.0), SMALL, False))
    assert not CERTAIN.search(shown) and not CERTAIN.search(chart) and not CERTAIN.search(gone), shown
    assert ">99" in shown and "<1" in shown and ">99" in chart and "<1" in gone and ">99" in gone


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hint_and_analyse_never_print_a_certain_percentage(lang: str) -> None:
    view = SeatView.parse("0 C1259S3M1246T379 0 -")
    h = hint(view, 1, seed=2)
    assert h.analysis is not None
    a = analyse(view, 6, 2, limits=SMALL, early_stop=False)
    sure = dataclasses.replace(a, p_best=1.0)
    moves = [dataclasses.replace(m, p_caller_loses=float(i % 2)) for i, m in enumerate(h.analysis.moves)]
    h.analysis = dataclasses.replace(h.analysis, moves=moves)
    with using_language(lang):
        shown = text(hint_renderable(view, h, 1), recommendation_text(sure))
    assert not CERTAIN.search(shown), shown
    assert ">99" in shown and "<1" in shown
