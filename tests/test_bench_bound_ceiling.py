"""``bench/studies/bound_ceiling.py``'s own logic: the kinds of node it tells apart, the tightened bounds
it hands the reference (never past the value, so the value stays the search's), and a clear
refusal of bad options."""

from __future__ import annotations

import pytest

from bench.studies import bound_ceiling as bc
from lukfu_solver.endgames import random_endgame
from lukfu_solver.position import Position
from lukfu_solver.search.reference import Solver


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("S6M5/C9M3/S47 1 1 1,4,5 S8M46789T123456789 -", "caller-lead"),
        ("S6M5/C9M3/S47 2 1 1,4,5 S8M46789T123456789 -", "r7-lead"),
        ("C18S569M45/C457M136T6/S478T5 0 1 1,3,1 C269T14789 M789", "discard-r7-next"),
        ("C8S69M5/C457M136T6/S478T5 1 1 1,3,1 C269T14789 M789,xC1S5M4", "caller-follows-set"),
        ("S6M5/C9M3/S7 0 1 1,4,5 S8M46789T123456789 S4", "single-non-caller-wins"),
        ("S6M5/M3/S47 2 1 1,4,5 S8M46789T123456789 C9", "discard-caller-wins"),
        ("S6M5/C9/S47 2 1 1,4,5 S8M46789T123456789 M3", "discard-beaters"),
        ("C135S79M359T2459/C278S34568M17T37/C469S12M2468T168 0 1 0,0,0 - -", "set-lead"),
    ],
)
def test_nodes_fall_into_their_kind(text: str, kind: str) -> None:
    pos = Position.parse(text)
    assert bc.node_kind(pos) == kind


@pytest.mark.parametrize("step", [2, 28])
def test_tightened_bounds_keep_the_value_and_cut(step: int) -> None:
    pos = random_endgame(4, 5)
    base = bc.plain(pos.copy())
    assert base["value"] == Solver().solve(pos.copy()).value
    got = bc.measure(pos.copy(), base, "caller-lead", step)
    assert got["cuts"] > 0 and got["positions"] > 0
    assert got["ratio"] == round(base["nodes"] / got["nodes"], 3)


def test_exact_bounds_cut_at_least_as_often_as_one_step_tighter() -> None:
    pos = random_endgame(4, 5)
    base = bc.plain(pos.copy())
    one = bc.measure(pos.copy(), base, "caller-lead", 2)
    exact = bc.measure(pos.copy(), base, "caller-lead", 28)
    assert exact["cuts"] >= one["cuts"]


def test_only_small_hands_are_helped_with_cards() -> None:
    pos = random_endgame(4, 5)
    base = bc.plain(pos.copy())
    none = bc.measure(pos.copy(), base, "caller-lead", 28, cards=1)
    assert none["cuts"] == 0 and none["nodes"] == base["nodes"]


@pytest.mark.parametrize(
    ("argv", "fault"),
    [
        (["--kinds", "lead"], "--kinds: 'lead' is not a kind of node"),
        (["--step", "3"], "--step: 3 is not an even number"),
        (["--cards", "13"], "--cards: 13 is not a hand's size"),
        (["--only", "c/x:1"], "--only: 'x:1' is not SEED:CALLER"),
    ],
)
def test_bad_options_exit_2_with_one_line(argv: list[str], fault: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        bc.main(argv)
    assert stop.value.code == 2
    assert fault in capsys.readouterr().err
