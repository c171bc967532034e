"""One JSON schema beside each value that leaves the library (``to_json``): the command line's
``--json`` prints exactly it, the web table and the benchmarks read the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, make_limits
from lukfu_solver.analysis.hint import hint
from lukfu_solver.analysis.moves import analyse
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden.pimc import SolveLimits
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView

ROOT = Path(__file__).resolve().parent.parent
POS = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -"
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
HAND = "C69S246M567T1235"


def cli_json(*args: str) -> Any:
    res = CliRunner().invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def timeless(data: Any) -> Any:
    """``data`` without its timings (``seconds`` and the sampler's)."""
    if isinstance(data, dict):
        return {k: timeless(v) for k, v in data.items() if "seconds" not in k and k != "rate"}
    if isinstance(data, list):
        return [timeless(v) for v in data]
    return data


def test_positions_views_and_replays_are_shown_as_their_to_json() -> None:
    pos = Position.parse(POS)
    assert cli_json("show", POS) == pos.to_json()
    pos.push(pos.sorted_legal_moves()[0])
    assert cli_json("show", str(pos))["trick"] == pos.to_json()["trick"] is not None
    assert cli_json("show", "--view", VIEW) == SeatView.parse(VIEW).to_json()
    path = ROOT / "examples" / "deal-175.json"
    rec = GameRecord.load(path)
    assert cli_json("replay", str(path)) == rec.replay_json()
    assert rec.to_json()["result"] == rec.outcome.to_json()  # type: ignore[union-attr]
    assert rec.replay_json()["outcome"] == rec.outcome.to_json(points=False)  # type: ignore[union-attr]


def test_limits_have_one_form() -> None:
    assert SolveLimits(500, None).to_json() == {"max_nodes": 500, "solve_time": None}
    assert make_limits(None, 2.5, ADVICE_MAX_NODES).to_json() == {"max_nodes": ADVICE_MAX_NODES, "solve_time": 2.5}


@pytest.mark.slow
def test_advise_and_analyse_print_the_library_s_json() -> None:
    limits = make_limits(None, None, ADVICE_MAX_NODES)
    adv = advise(parse_cards(HAND), 1, 4, 0, 1, limits)
    printed = cli_json("advise", HAND, "--seat", "1", "--samples", "4", "--evidence")
    assert timeless(printed) == timeless(adv.answer_json(limits, evidence=True))
    assert list(printed)[:7] == ["hand", "seat", "old", "sets", "runs", "sure_fu", "call_score"]
    view = SeatView.parse(VIEW)
    view_limits = make_limits(None, None)
    a = analyse(view, 8, 0, 1, view_limits, budget=None)
    printed = cli_json("analyse", VIEW, "--samples", "8")
    assert timeless({k: printed[k] for k in a.to_json(8, view_limits)}) == timeless(a.to_json(8, view_limits))


def test_the_hint_at_the_call_is_the_advise_answer_with_its_words_said() -> None:
    view = SeatView.parse("0 C69S246M567T1235 - -")
    h = hint(view, 1, 5, samples=4)
    data = h.to_json()
    assert data["kind"] == "call" and data["command"] == "lukfu advise C69S246M567T1235 --seat 0 --seed 5"
    assert timeless({k: v for k, v in data.items() if k not in ("kind", "said", "command", "budget_seconds")}) == (
        timeless(h.advice.answer_json(h.limits))  # type: ignore[union-attr]
    )
    assert len(data["said"]["reasons"]) == len(data["reasons"]) and data["budget_seconds"] > 0
    assert sum(data["outcomes"].values()) == data["samples"]
