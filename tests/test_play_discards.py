"""Discards by cards and a hint that skips nothing a player would call obvious.

A follower who cannot beat is offered the few sensible discards first (the cheapest by what the
cards are worth keeping: the hint's own candidates) and types any other as the cards given up,
in any order (``C2 M4 T5``); the numbers of the menu and of ``moves`` agree. The hint shows the
best few moves and one line on the rest, and weighs every lead that cannot lose its trick (on the
Master's first lead of deal 11: C7, C8, C9 and M9, which an earlier hint called "not weighed")."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from screens import LUKFU, Screen, cells, flat, needs_tmux
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.analysis.hint import SHOWN, hint, menu_order, sensible_discards, sure_leads
from lukfu_solver.analysis.moves import SENSIBLE_DISCARDS
from lukfu_solver.game import deal_from_seed
from lukfu_solver.plays import DISCARD, Play
from lukfu_solver.position import Position
from lukfu_solver.rules import can_beat
from lukfu_solver.view import SeatView

runner = CliRunner()
HANDS = deal_from_seed(11)
FACING_A_SET = SeatView.from_deal(1, HANDS[1], 0, [Play.parse("C7M7T7")])
"""Deal 11, seat 1 (C2345 S12369 M45 T5) facing the Master's C7M7T7: 220 discards of three."""
FIRST_LEAD = SeatView.from_deal(0, HANDS[0], 0, [])
"""Deal 11, the Master's first lead (C1789 S5 M1679 T178)."""


@pytest.mark.slow
def test_the_sensible_discards_come_first_and_every_discard_is_still_there() -> None:
    few = sensible_discards(FACING_A_SET)
    legal = FACING_A_SET.sorted_legal_moves()
    assert len(legal) == 220 and 2 <= len(few) <= SENSIBLE_DISCARDS and all(m.kind == DISCARD and m in legal for m in few)
    order = menu_order(FACING_A_SET)
    assert order[: len(few)] == few and sorted(order, key=Play.sort_key) == legal  # each once
    assert sensible_discards(FIRST_LEAD) == [] and menu_order(FIRST_LEAD) == FIRST_LEAD.sorted_legal_moves()


@pytest.mark.parametrize("typed", ["c2 m4 t5", "T5 C2 M4", "C2M4T5", "x c2 m4 t5", "M4, T5, C2"])
def test_a_discard_is_typed_as_its_cards_in_any_order(typed: str) -> None:
    assert str(FACING_A_SET.parse_move(typed)) == "xC2M4T5"


def test_the_hint_weighs_every_lead_sure_of_its_trick() -> None:
    assert {str(m) for m in sure_leads(FIRST_LEAD)} >= {"C7", "C8", "C9", "M9"}
    h = hint(FIRST_LEAD, 1, seed=11)
    weighed = {e.move for e in h.analysis.moves} if h.analysis else set()
    assert set(sure_leads(FIRST_LEAD)) <= weighed
    assert not set(sure_leads(FIRST_LEAD)) & {m for m, _why in h.left_out}
    assert len(h.top()) == min(SHOWN, len(weighed))
    untold = h.untold() or ""
    assert ("more move" in untold and "weighed" in untold) == (len(weighed) > SHOWN)


def test_sure_leads_are_exactly_the_leads_nothing_unseen_beats() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        pos = Position.start(deal_from_seed(seed), rng.randrange(3))
        plays: list[Play] = []
        while not pos.is_over and len(plays) < 12:
            seat = pos.to_move
            view = SeatView.from_deal(seat, deal_from_seed(seed)[seat], pos.caller, plays)
            sure = set(sure_leads(view))
            if not pos.trick:
                for m in view.legal_moves():
                    if m.kind <= 2:  # a single, a set or a run
                        assert (m in sure) == (not can_beat(view.unseen, m, True))
                        checked += 1
            move = rng.choice(sorted(pos.legal_moves(), key=Play.sort_key))
            pos.push(move)
            plays.append(move)
    assert checked > 200


def test_numbers_beyond_the_menu_pick_what_moves_lists(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "--seed", "11", "--seat", "1", "--record", str(tmp_path / "g.json")], input="moves\n10\nquit\nyes\n"
    )
    out = res.stdout
    listed = dict(re.findall(r"(\d+)\) (x\w+)", out.split("your move> moves", 1)[1].split("your move>", 1)[0]))
    assert len(listed) == 220
    assert f"You discard face down {listed['10'][1:]}" in out


@pytest.mark.slow
@needs_tmux
@pytest.mark.parametrize("width", [60, 80, 120])
def test_a_discard_on_screen(width: int, tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} play --seed 11 --seat 1 --record game.json", width, tmp_path)
    screens.append(screen)
    text = screen.wait_for("your move>")
    assert max(cells(line) for line in text.splitlines()) <= width
    choices = text.split("Choices:")[-1].split("your move>")[0]
    numbers = [int(n) for n in re.findall(r"(\d+)\) x", choices)]
    assert numbers == list(range(1, len(numbers) + 1)) and 2 <= len(numbers) <= SENSIBLE_DISCARDS  # a few, not 220
    assert "other discards: type their cards" in flat(choices)
    assert "Type them in any order" in flat(text)
    screen.send("t5 c2 m4")
    assert "You discard face down C2M4T5" in flat(screen.wait_for("You discard face down"))


@pytest.mark.slow
@needs_tmux
def test_the_masters_first_lead_hint_in_russian(tmp_path: Path, screens: list[Screen]) -> None:
    screen = Screen(f"{LUKFU} play --seed 11 --seat 0 --level 1 --lang ru --record game.json", 80, tmp_path)
    screens.append(screen)
    screen.wait_for("(играю/пас)>")
    screen.send("1")
    screen.wait_for("ваш ход>")
    screen.send("подсказка")
    text = screen.wait_for("Совет:")
    told = text.split("подсказка", 1)[1]
    rows = [line.split()[0] for line in told.splitlines() if re.match(r" [CSMT]\d", line)]
    assert 1 <= len(rows) <= SHOWN and set(rows) <= {"C1", "C7", "C8", "C9", "M9", "T1", "C1M1T1", "C7M7T7"}
    assert "Не показано:" in flat(told) and "hint" not in told.lower()  # the best are sure leads, named
